import CPixman
import SilkGeometry

// Drawing a TextLayout into a Bitmap with pixman.
//
// Order: run backgrounds, then glyphs, then underlines and strikethroughs, each pass over all
// lines, so a background never covers a neighbouring run's descenders.
//
// Device space: a point p of the layout lands on pixel (origin + p) × scale. Glyph pen
// positions are quantised to a quarter pixel horizontally (the glyph cache holds four phases)
// and to whole pixels vertically (baselines are pixel-aligned so horizontal stems stay crisp).
// Font pixel sizes are fontSize × scale, so text is sharp at 2×.
//
// Clipping is done here, per glyph and per rectangle, rather than with a pixman clip region on
// the destination: the bitmap's own clip state (Canvas's) is never touched.

extension TextLayout {
    /// Draws the layout with its top-left at `origin` (points) into `bitmap` at `scale` device
    /// pixels per point, limited to `clip` (device pixels; nil: the whole bitmap), every colour's
    /// alpha multiplied by `opacity` (0…1). `colorOverride` draws every glyph (colour emoji as
    /// silhouettes) and decoration in one colour and no backgrounds — for text shadows and masks
    /// from the same layout, truncation included. Safe to call from several threads at once on
    /// different bitmaps.
    public func draw(into bitmap: Bitmap, at origin: Point = .zero, scale: Double = 1, clip: Rect? = nil,
                     opacity: Double = 1, colorOverride: Color? = nil, glyphCache: GlyphCache = .shared) {
        guard scale.isFinite, scale > 0, origin.x.isFinite, origin.y.isFinite else { return }
        let alpha = opacity.isNaN ? 0 : min(1, max(0, opacity))
        guard alpha > 0, !lines.isEmpty else { return }
        var box = bitmap.bounds
        if let clip {
            guard clip.origin.x.isFinite, clip.origin.y.isFinite else { return }
            guard clip.maxX.isFinite, clip.maxY.isFinite else { return }
            box = Rect(x: clip.minX.rounded(), y: clip.minY.rounded(),
                       width: clip.maxX.rounded() - clip.minX.rounded(), height: clip.maxY.rounded() - clip.minY.rounded())
                .intersection(bitmap.bounds)
        }
        guard !box.isEmpty else { return }
        var ctx = DrawContext(destination: bitmap.image, clip: (Int(box.minX), Int(box.minY), Int(box.maxX), Int(box.maxY)),
                              opacity: alpha)
        var pixmanCache = glyphCache.checkOutPixmanCache()
        var pixmanHits = 0
        var batch: [pixman_glyph_t] = []
        defer {
            ctx.release()
            if let pixmanCache { glyphCache.checkIn(pixmanCache, hits: pixmanHits) }
        }

        // Lines whose (generously padded) box misses the clip are skipped.
        let visible = lines.filter { line in
            let pad = line.rect.height
            let r = Rect(x: origin.x + line.rect.minX - pad, y: origin.y + line.rect.minY - pad,
                         width: line.rect.width + 2 * pad, height: line.rect.height + 2 * pad).scaled(by: scale)
            return r.intersects(box)
        }

        // Pass 1: backgrounds.
        for line in visible {
            for run in line.runs {
                guard colorOverride == nil, let bg = run.attributes.backgroundColor, run.width > 0 else { continue }
                let r = Rect(x: origin.x + line.rect.minX + run.x, y: origin.y + line.rect.minY,
                             width: run.width, height: line.rect.height).scaled(by: scale)
                ctx.fill(snapped(r), bg)
            }
        }

        // Pass 2: glyphs. A run goes through the checked-out pixman glyph cache and one
        // pixman_composite_glyphs_no_mask call when its glyphs' extents lie inside the clip;
        // otherwise (and for colour glyphs) glyph by glyph, clipped here.
        for line in visible {
            let baselinePx = ((origin.y + line.baseline) * scale).rounded()
            let lineX = origin.x + line.rect.minX
            for run in line.runs where !run.glyphs.isEmpty {
                let size26_6 = Int((run.fontSize * scale * 64).rounded())
                guard size26_6 > 0, size26_6 <= TextLayout.maximumGlyphPixelSize * 64 else { continue }
                let source = ctx.solid(colorOverride ?? run.attributes.color)
                let sel = run.selection
                var positions: [(x: Int, y: Int, phase: Int, index: Int)] = []
                positions.reserveCapacity(run.glyphs.count)
                for i in run.glyphs.indices {
                    let gx = (lineX + run.penX[i] + run.offsets[i].x) * scale
                    let gy = baselinePx + (run.offsets[i].y * scale).rounded()
                    guard abs(gx) < 1e7, abs(gy) < 1e7 else { continue }
                    let quarter = (gx * 4).rounded(.down)
                    positions.append((Int((quarter / 4).rounded(.down)), Int(gy), Int(quarter) & 3, i))
                }
                if !sel.face.hasColorGlyphs, let pc = pixmanCache?.cache, let source {
                    batch.removeAll(keepingCapacity: true)
                    var hits = 0
                    for p in positions {
                        let variant = UInt(p.phase) | (sel.syntheticBold ? 4 : 0) | (sel.syntheticOblique ? 8 : 0)
                        let fontKey = UnsafeMutableRawPointer(bitPattern: UInt(sel.face.id) << 32 | UInt(size26_6) << 4 | variant)
                        let glyphKey = UnsafeMutableRawPointer(bitPattern: UInt(run.glyphs[p.index]) + 1)
                        var entry = pixman_glyph_cache_lookup(pc, fontKey, glyphKey)
                        if entry == nil {
                            let g = glyphCache.glyph(run.glyphs[p.index], face: sel.face, size26_6: size26_6, subpixel: p.phase,
                                                     bold: sel.syntheticBold, oblique: sel.syntheticOblique)
                            guard let image = g.image else { continue }
                            entry = pixman_glyph_cache_insert(pc, fontKey, glyphKey, Int32(-g.left), Int32(g.top), image)
                            pixmanCache?.bytes += g.byteCount
                            if entry != nil { pixmanCache?.inserted(.init(font: fontKey, glyph: glyphKey)) }
                        } else {
                            hits += 1
                        }
                        if let entry { batch.append(pixman_glyph_t(x: Int32(p.x), y: Int32(p.y), glyph: entry)) }
                    }
                    pixmanHits += hits
                    guard !batch.isEmpty else { continue }
                    var extents = pixman_box32_t()
                    batch.withUnsafeMutableBufferPointer { pixman_glyph_get_extents(pc, Int32($0.count), $0.baseAddress, &extents) }
                    if Int(extents.x1) >= ctx.clip.x0 && Int(extents.y1) >= ctx.clip.y0
                        && Int(extents.x2) <= ctx.clip.x1 && Int(extents.y2) <= ctx.clip.y1 {
                        batch.withUnsafeMutableBufferPointer {
                            pixman_composite_glyphs_no_mask(PIXMAN_OP_OVER, source, ctx.destination, 0, 0, 0, 0, pc,
                                                            Int32($0.count), $0.baseAddress)
                        }
                        continue
                    }
                }
                for p in positions {
                    let g = glyphCache.glyph(run.glyphs[p.index], face: sel.face, size26_6: size26_6, subpixel: p.phase,
                                             bold: sel.syntheticBold, oblique: sel.syntheticOblique)
                    ctx.composite(g, x: p.x, y: p.y, color: source, silhouette: colorOverride != nil)
                }
            }
        }

        // Pass 3: underlines and strikethroughs.
        for line in visible {
            for run in line.runs where run.width > 0 && (run.attributes.underline != .none || run.attributes.strikethrough) {
                let a = run.attributes, size = run.fontSize, face = run.selection.face
                let x0 = ((origin.x + line.rect.minX + run.x) * scale).rounded()
                let x1 = ((origin.x + line.rect.minX + run.x + run.width) * scale).rounded()
                let baseline = ((origin.y + line.baseline) * scale).rounded()
                let thickness = max(1, (face.underlineThickness * size * scale).rounded())
                if a.underline != .none {
                    let color = colorOverride ?? a.underlineColor ?? a.color
                    let top = baseline + max(1, (face.underlinePosition * size * scale).rounded()) - (thickness / 2).rounded(.down)
                    switch a.underline {
                    case .none: break
                    case .single:
                        ctx.fill(Rect(x: x0, y: top, width: x1 - x0, height: thickness), color)
                    case .double:
                        ctx.fill(Rect(x: x0, y: top, width: x1 - x0, height: thickness), color)
                        ctx.fill(Rect(x: x0, y: top + 2 * thickness, width: x1 - x0, height: thickness), color)
                    case .dotted:
                        let dot = max(1, thickness)
                        var x = x0
                        while x < x1 {
                            ctx.fill(Rect(x: x, y: top, width: min(dot, x1 - x), height: dot), color)
                            x += 2 * dot
                        }
                    }
                }
                if a.strikethrough {
                    let st = max(1, (face.strikeoutThickness * size * scale).rounded())
                    let top = baseline - (face.strikeoutPosition * size * scale).rounded() - (st / 2).rounded(.down)
                    ctx.fill(Rect(x: x0, y: top, width: x1 - x0, height: st), colorOverride ?? a.color)
                }
            }
        }
    }

    private func snapped(_ r: Rect) -> Rect {
        let x0 = r.minX.rounded(), y0 = r.minY.rounded()
        return Rect(x: x0, y: y0, width: r.maxX.rounded() - x0, height: r.maxY.rounded() - y0)
    }
}

/// Per-draw pixman state: the destination, the clip box, solid sources by colour.
private struct DrawContext {
    let destination: OpaquePointer
    let clip: (x0: Int, y0: Int, x1: Int, y1: Int)
    let opacity: Double
    private var solids: [Color: OpaquePointer] = [:]
    /// A solid alpha used as the mask for colour glyphs when opacity < 1.
    private var opacityMask: OpaquePointer?

    init(destination: OpaquePointer, clip: (Int, Int, Int, Int), opacity: Double) {
        self.destination = destination; self.clip = clip; self.opacity = opacity
        if opacity < 1 {
            var c = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16((opacity * 65535).rounded()))
            opacityMask = pixman_image_create_solid_fill(&c)
        }
    }

    mutating func release() {
        for (_, s) in solids { pixman_image_unref(s) }
        solids = [:]
        if let m = opacityMask { pixman_image_unref(m) }
        opacityMask = nil
    }

    mutating func solid(_ color: Color) -> OpaquePointer? {
        if let s = solids[color] { return s }
        var c = pixmanColor(color.withAlpha(color.alpha * opacity))
        guard let s = pixman_image_create_solid_fill(&c) else { return nil }
        solids[color] = s
        return s
    }

    /// Composites one glyph with its pen at pixel (x, y on the baseline). A colour glyph is
    /// drawn as itself, or with `silhouette` as a mask for `color`.
    func composite(_ g: GlyphImage, x: Int, y: Int, color: OpaquePointer?, silhouette: Bool = false) {
        guard let image = g.image else { return }
        var dx = x + g.left, dy = y - g.top, w = g.width, h = g.height, sx = 0, sy = 0
        if dx < clip.x0 { sx += clip.x0 - dx; w -= clip.x0 - dx; dx = clip.x0 }
        if dy < clip.y0 { sy += clip.y0 - dy; h -= clip.y0 - dy; dy = clip.y0 }
        if dx + w > clip.x1 { w = clip.x1 - dx }
        if dy + h > clip.y1 { h = clip.y1 - dy }
        guard w > 0, h > 0 else { return }
        if g.isColor && !silhouette {
            pixman_image_composite32(PIXMAN_OP_OVER, image, opacityMask, destination, Int32(sx), Int32(sy), 0, 0,
                                     Int32(dx), Int32(dy), Int32(w), Int32(h))
        } else if let color {
            pixman_image_composite32(PIXMAN_OP_OVER, color, image, destination, 0, 0, Int32(sx), Int32(sy),
                                     Int32(dx), Int32(dy), Int32(w), Int32(h))
        }
    }

    /// Blends `color` over a device-pixel rectangle (edges already integral), clipped.
    func fill(_ r: Rect, _ color: Color) {
        guard r.minX.isFinite, r.minY.isFinite, r.width.isFinite, r.height.isFinite else { return }
        let x0 = max(clip.x0, Int(max(-1e7, r.minX))), y0 = max(clip.y0, Int(max(-1e7, r.minY)))
        let x1 = min(clip.x1, Int(min(1e7, r.maxX))), y1 = min(clip.y1, Int(min(1e7, r.maxY)))
        guard x1 > x0, y1 > y0 else { return }
        var c = pixmanColor(color.withAlpha(color.alpha * opacity))
        var box = pixman_box32_t(x1: Int32(x0), y1: Int32(y0), x2: Int32(x1), y2: Int32(y1))
        pixman_image_fill_boxes(PIXMAN_OP_OVER, destination, &c, 1, &box)
    }
}
