import CCairo
import SilkGeometry

// Vector paths are rasterized by cairo, drawing straight into the canvas's bitmap: a cairo image
// surface is a pixman image over the same memory, so nothing is copied. Every call makes its own
// surface and context and destroys them before returning, so no cairo object is shared between
// threads (display queues each draw into their own bitmaps). docs/drawing.md says why cairo.

extension Canvas {
    /// Fills `path` (user space) with `paint` under `rule`, anti-aliased, within the clip and at
    /// the canvas's opacity. A path with a non-finite coordinate draws nothing. Draws with cairo
    /// (`cairo_fill`).
    public func fill(_ path: Path, rule: FillRule = .nonZero, with paint: Paint) {
        guard !path.isEmpty, path.isFinite else { return }
        withCairo { cr in
            guard setSource(paint, on: cr) else { return }
            addPath(path, to: cr)
            cairo_set_fill_rule(cr, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
            cairo_fill(cr)
        }
    }

    /// Strokes `path` (user space) with `paint`: width, caps, joins, miter limit and dashes from
    /// `style`, anti-aliased, within the clip and at the canvas's opacity. Draws with cairo
    /// (`cairo_stroke`); the stroke's width scales with the transform.
    public func stroke(_ path: Path, style: StrokeStyle, with paint: Paint) {
        guard !path.isEmpty, path.isFinite, style.lineWidth > 0, style.lineWidth.isFinite else { return }
        withCairo { cr in
            guard setSource(paint, on: cr) else { return }
            addPath(path, to: cr)
            cairo_set_line_width(cr, style.lineWidth)
            let cap: cairo_line_cap_t = switch style.lineCap {
                case .butt: CAIRO_LINE_CAP_BUTT
                case .round: CAIRO_LINE_CAP_ROUND
                case .square: CAIRO_LINE_CAP_SQUARE
            }
            let join: cairo_line_join_t = switch style.lineJoin {
                case .miter: CAIRO_LINE_JOIN_MITER
                case .round: CAIRO_LINE_JOIN_ROUND
                case .bevel: CAIRO_LINE_JOIN_BEVEL
            }
            cairo_set_line_cap(cr, cap)
            cairo_set_line_join(cr, join)
            cairo_set_miter_limit(cr, style.miterLimit.isFinite ? max(1, style.miterLimit) : 10)
            if let dashes = usableDashes(style, path: path) {
                cairo_set_dash(cr, dashes, Int32(dashes.count), style.dashPhase.isFinite ? style.dashPhase : 0)
            }
            cairo_stroke(cr)
        }
    }

    /// The dash pattern when it is valid and makes at most `StrokeStyle.maximumDashCount` dashes.
    private func usableDashes(_ style: StrokeStyle, path: Path) -> [Double]? {
        guard !style.dashes.isEmpty, style.dashes.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        let period = style.dashes.reduce(0, +) * (style.dashes.count % 2 == 1 ? 2 : 1)
        guard period > 0 else { return nil }
        let t = state.transform
        let s = max(abs(t.a) + abs(t.c), abs(t.b) + abs(t.d))
        let dashesAlong = path.lengthBound(under: t) / (period * s) * Double(style.dashes.count)
        guard dashesAlong.isFinite, dashesAlong <= Double(StrokeStyle.maximumDashCount) else { return nil }
        return style.dashes
    }

    /// Runs `body` with a cairo context over the bitmap, set to the canvas's transform and clip.
    /// Nothing is drawn when the bitmap's format has no cairo equivalent or the transform is
    /// singular.
    func withCairo(_ body: (OpaquePointer) -> Void) {
        let format: cairo_format_t = switch bitmap.format {
            case .argb32: CAIRO_FORMAT_ARGB32
            case .xrgb32: CAIRO_FORMAT_RGB24
            case .rgb565: CAIRO_FORMAT_RGB16_565
            case .a8: CAIRO_FORMAT_A8
        }
        let t = state.transform
        var m = cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
        var check = m
        guard cairo_matrix_invert(&check) == CAIRO_STATUS_SUCCESS else { return }
        let clip = (state.clip ?? bitmap.bounds).intersection(bitmap.bounds)
        guard !clip.isEmpty else { return }
        guard let surface = cairo_image_surface_create_for_data(bitmap.data.assumingMemoryBound(to: UInt8.self), format,
                                                                Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.stride))
        else { return }
        defer { cairo_surface_finish(surface); cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else { return }
        defer { cairo_destroy(cr) }
        cairo_rectangle(cr, clip.minX, clip.minY, clip.width, clip.height)
        cairo_clip(cr)
        cairo_set_matrix(cr, &m)
        body(cr)
        cairo_surface_flush(surface)
    }

    /// Sets `paint` as the source, at the canvas's opacity; gradients are set in user space.
    private func setSource(_ paint: Paint, on cr: OpaquePointer) -> Bool {
        let alpha = state.opacity
        guard alpha > 0 else { return false }
        func addStops(_ pattern: OpaquePointer, _ stops: [GradientStop]) {
            for s in stops.filter({ $0.offset.isFinite }).sorted(by: { $0.offset < $1.offset }) {
                let c = s.color
                cairo_pattern_add_color_stop_rgba(pattern, clamp01(s.offset), c.red, c.green, c.blue, clamp01(c.alpha) * alpha)
            }
        }
        switch paint {
        case let .color(c):
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, clamp01(c.alpha) * alpha)
        case let .linearGradient(g):
            guard !g.stops.isEmpty, g.start.x.isFinite, g.start.y.isFinite, g.end.x.isFinite, g.end.y.isFinite,
                  let pattern = cairo_pattern_create_linear(g.start.x, g.start.y, g.end.x, g.end.y) else { return false }
            defer { cairo_pattern_destroy(pattern) }
            addStops(pattern, g.stops)
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
            cairo_set_source(cr, pattern)
        case let .radialGradient(g):
            guard !g.stops.isEmpty, g.radius > 0, g.radius.isFinite, g.center.x.isFinite, g.center.y.isFinite,
                  let pattern = cairo_pattern_create_radial(g.center.x, g.center.y, 0, g.center.x, g.center.y, g.radius)
            else { return false }
            defer { cairo_pattern_destroy(pattern) }
            addStops(pattern, g.stops)
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
            cairo_set_source(cr, pattern)
        }
        return true
    }

    private func addPath(_ path: Path, to cr: OpaquePointer) {
        var current = Point.zero
        for e in path.elements {
            switch e {
            case let .move(p): cairo_move_to(cr, p.x, p.y); current = p
            case let .line(p): cairo_line_to(cr, p.x, p.y); current = p
            case let .quadCurve(p, c):
                // A quadratic is the cubic with control points 2/3 of the way to its control.
                let c1 = Point(x: current.x + 2 / 3 * (c.x - current.x), y: current.y + 2 / 3 * (c.y - current.y))
                let c2 = Point(x: p.x + 2 / 3 * (c.x - p.x), y: p.y + 2 / 3 * (c.y - p.y))
                cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y); current = p
            case let .curve(p, c1, c2): cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y); current = p
            case let .arc(c, r, a0, a1, clockwise):
                if clockwise { cairo_arc(cr, c.x, c.y, r, a0, a1) } else { cairo_arc_negative(cr, c.x, c.y, r, a0, a1) }
                var x = 0.0, y = 0.0
                cairo_get_current_point(cr, &x, &y); current = Point(x: x, y: y)
            case .close:
                cairo_close_path(cr)
                var x = 0.0, y = 0.0
                cairo_get_current_point(cr, &x, &y); current = Point(x: x, y: y)
            }
        }
    }
}
