import SilkGeometry

// Caret geometry on a finished TextLayout, for editing: where the caret before a character is
// drawn, and which caret position (a boundary between characters) a point is nearest to.
// Indices count Unicode scalars, like the rest of the text stack; they are expected on cluster
// boundaries (an index inside a ligature is placed proportionally across it).

extension TextLayout {
    /// The line a caret at `index` sits on: the line containing it, or the one it ends (at the
    /// end of a paragraph); nil for an empty layout.
    public func lineIndex(forCaret index: Int) -> Int? {
        guard !lines.isEmpty else { return nil }
        for (i, line) in lines.enumerated() {
            let r = line.characterRange
            if index < r.lowerBound { return max(0, i - 1) }
            if index < r.upperBound { return i }
            // At a line's end: this line, unless the next one starts right here (a wrap).
            if index == r.upperBound && (i + 1 == lines.count || lines[i + 1].characterRange.lowerBound > index) { return i }
        }
        return lines.count - 1
    }

    /// A zero-width rectangle, line-height tall, where the caret before character `index` is
    /// drawn (layout coordinates). After a final line break the caret goes below the last line.
    /// Nil for an empty layout (the caller knows the font: see `TextLayout.emptyLineMetrics`).
    public func caretRect(at index: Int) -> Rect? {
        guard let li = lineIndex(forCaret: index), let last = lines.last else { return nil }
        if index > last.characterRange.upperBound, index <= text.scalarCount {
            // After the final line break: an empty last paragraph has no line of its own.
            let x = last.isRightToLeft && constrainedSize.width.isFinite ? constrainedSize.width : 0
            return Rect(x: x, y: last.rect.maxY, width: 0, height: last.rect.height)
        }
        let line = lines[li]
        return Rect(x: line.rect.minX + caretOffset(in: line, at: index), y: line.rect.minY, width: 0, height: line.rect.height)
    }

    /// The caret position (scalar index of a boundary) nearest to `point`: on the nearest line,
    /// before a glyph when the point is in its leading half, after it in its trailing half.
    public func caretIndex(at point: Point) -> Int {
        guard point.x.isFinite, point.y.isFinite else { return 0 }
        guard let li = lineIndex(atY: point.y) else { return 0 }
        if point.y >= (lines.last?.rect.maxY ?? 0), let last = lines.last, last.characterRange.upperBound < text.scalarCount,
           text.string.unicodeScalars.last.map({ $0 == "\n" || $0 == "\r" }) == true {
            return text.scalarCount   // below a final line break
        }
        return caretIndex(onLine: li, x: point.x)
    }

    /// The caret position on line `li` nearest to `x` (layout coordinates).
    public func caretIndex(onLine li: Int, x: Double) -> Int {
        let line = lines[max(0, min(li, lines.count - 1))]
        let lx = x - line.rect.minX
        var best: (index: Int, distance: Double)?
        func consider(_ index: Int, _ edge: Double) {
            let d = abs(edge - lx)
            if best == nil || d < best!.distance { best = (index, d) }
        }
        for run in line.runs where !run.isTruncationToken {
            for g in run.glyphs.indices {
                let x0 = run.penX[g], x1 = x0 + run.advances[g]
                let start = run.clusterStarts[g], end = run.clusterEnds[g]
                // A ligature's glyph stands for several characters: its boundaries are spread
                // evenly across it.
                let n = max(1, end - start)
                for k in 0...n {
                    let f = Double(k) / Double(n)
                    let edge = run.isRightToLeft ? x1 - f * (x1 - x0) : x0 + f * (x1 - x0)
                    consider(start + min(k, end - start), edge)
                }
            }
        }
        guard let best else { return line.characterRange.lowerBound }
        // The end of a wrapped line is the next line's start; keep the caret on this line.
        let r = line.characterRange
        if best.index == r.upperBound, li + 1 < lines.count, lines[li + 1].characterRange.lowerBound == r.upperBound, r.upperBound > r.lowerBound {
            return r.upperBound - 1
        }
        return min(max(best.index, r.lowerBound), r.upperBound)
    }

    /// x of the caret before `index` from the line's left edge.
    private func caretOffset(in line: TextLine, at index: Int) -> Double {
        var trailing: Double?
        for run in line.runs where !run.isTruncationToken {
            for g in run.glyphs.indices {
                let x0 = run.penX[g], x1 = x0 + run.advances[g]
                let start = run.clusterStarts[g], end = run.clusterEnds[g]
                let lead = run.isRightToLeft ? x1 : x0, trail = run.isRightToLeft ? x0 : x1
                if start == index { return lead }
                if start < index && index < end {
                    let f = Double(index - start) / Double(end - start)
                    return lead + f * (trail - lead)
                }
                if end == index { trailing = trail }
            }
        }
        if let trailing { return trailing }
        // Past the glyphs (trailing spaces that hang, an empty line): the line's visual end.
        return line.isRightToLeft ? 0 : line.rect.width
    }

    /// Line height, ascent and descent a line of `attributes` has, for a caret in empty text.
    public static func emptyLineMetrics(_ attributes: TextAttributes, fonts: FontDatabase = .shared) -> (height: Double, baseline: Double) {
        let probe = TextLayout(text: AttributedText("X", attributes: attributes),
                               constrainedTo: Size(width: .infinity, height: .infinity), fonts: fonts)
        guard let line = probe.lines.first else { return (attributes.effectiveFontSize * 1.2, attributes.effectiveFontSize) }
        return (line.rect.height, line.baseline)
    }
}
