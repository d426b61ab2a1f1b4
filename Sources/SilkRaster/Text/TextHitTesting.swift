import SilkGeometry

// Hit testing on a finished TextLayout. Points and rects are in the layout's coordinates
// (points, origin at its top-left); indices count Unicode scalars.

extension TextLayout {
    /// The line nearest to `y` (the first above, the last below), nil when there are no lines.
    public func lineIndex(atY y: Double) -> Int? {
        guard !lines.isEmpty else { return nil }
        if y < lines[0].rect.minY { return 0 }
        for (i, line) in lines.enumerated() where y < line.rect.maxY { return i }
        return lines.count - 1
    }

    /// The index of the character drawn at `point`, or of the nearest character on the nearest
    /// line when the point falls between glyphs or beyond a line's ends. Nil outside the layout's
    /// bounds or when nothing is drawn. A point on the truncation token gives the first hidden character.
    public func characterIndex(at point: Point) -> Int? {
        guard point.x.isFinite, point.y.isFinite,
              Rect(size: size).insetBy(dx: -0.5, dy: -0.5).contains(point),
              let li = lineIndex(atY: point.y) else { return nil }
        return glyphHit(line: li, x: point.x, exact: false)?.cluster ?? lines[li].characterRange.lowerBound
    }

    /// The link under `point` (the glyph itself must be hit, on its line), or nil. A truncation
    /// token whose attributes carry a link (a "… more" token) reports that link with the range
    /// of the hidden text.
    public func link(at point: Point) -> TextLink? {
        guard point.x.isFinite, point.y.isFinite, let li = lineIndex(atY: point.y),
              lines[li].rect.minY <= point.y, point.y < lines[li].rect.maxY,
              let hit = glyphHit(line: li, x: point.x, exact: true) else { return nil }
        if hit.isToken {
            return hit.tokenLink.map { TextLink(url: $0, range: hit.tokenRange) }
        }
        return links.first { $0.range.contains(hit.cluster) }
    }

    /// True when `point` hits the glyphs of the truncation token.
    public func isTruncationToken(at point: Point) -> Bool {
        guard point.x.isFinite, point.y.isFinite, let li = lineIndex(atY: point.y),
              lines[li].rect.minY <= point.y, point.y < lines[li].rect.maxY else { return false }
        return glyphHit(line: li, x: point.x, exact: true)?.isToken ?? false
    }

    /// The link covering character `index`, if any.
    public func link(atCharacter index: Int) -> TextLink? {
        links.first { $0.range.contains(index) }
    }

    /// Boxes covering the glyphs of `range`, one or more per line (merged where adjacent), in
    /// visual order; line-height tall. Empty when nothing of the range is visible.
    public func rects(for range: Range<Int>) -> [Rect] {
        guard !range.isEmpty else { return [] }
        var out: [Rect] = []
        for line in lines {
            var spans: [(Double, Double)] = []
            for run in line.runs {
                for i in run.glyphs.indices where run.clusterStarts[i] < range.upperBound && run.clusterEnds[i] > range.lowerBound {
                    let x0 = line.rect.minX + run.penX[i], x1 = x0 + run.advances[i]
                    if let last = spans.last, abs(last.1 - x0) < 0.01 {
                        spans[spans.count - 1].1 = x1
                    } else {
                        spans.append((x0, x1))
                    }
                }
            }
            for s in spans where s.1 > s.0 {
                out.append(Rect(x: s.0, y: line.rect.minY, width: s.1 - s.0, height: line.rect.height))
            }
        }
        return out
    }

    private struct GlyphHit {
        var cluster: Int
        var isToken: Bool
        var tokenLink: String?
        var tokenRange: Range<Int>
    }

    private func glyphHit(line li: Int, x: Double, exact: Bool) -> GlyphHit? {
        let line = lines[li]
        let lx = x - line.rect.minX
        var best: (hit: GlyphHit, distance: Double)? = nil
        for run in line.runs {
            for i in run.glyphs.indices {
                let x0 = run.penX[i], x1 = x0 + run.advances[i]
                let hit = GlyphHit(cluster: run.clusterStarts[i], isToken: run.isTruncationToken,
                                   tokenLink: run.isTruncationToken ? run.attributes.link : nil,
                                   tokenRange: run.characterRange)
                if lx >= x0 && lx < x1 { return hit }
                let d = lx < x0 ? x0 - lx : lx - x1
                if best == nil || d < best!.distance { best = (hit, d) }
            }
        }
        if exact { return nil }
        return best?.hit
    }
}
