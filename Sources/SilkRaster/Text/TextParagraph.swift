import CHarfBuzz
import SilkGeometry

// One paragraph on its way to lines, in named steps:
//
//   STEP 1  bidi: FriBidi resolves an embedding level per scalar (Bidi.swift).
//   STEP 2  itemize: split where the attribute run, the chosen font (per-character fallback),
//           the bidi level or the script changes.
//   STEP 3  shape each item with HarfBuzz, the paragraph as context (HarfBuzz.swift).
//   STEP 4  clusters: group glyphs into logical clusters (HarfBuzz merges graphemes) with widths.
//   STEP 5  break lines greedily at opportunities (LineBreaking.swift); a word wider than the
//           line is broken between clusters.
//   STEP 6  build a line: pieces in logical order → UAX #9 L2 visual order → positioned glyph runs.
//
// A ShapedParagraph lives only while TextLayout is being computed; lines copy what they need.

struct TextItem {
    var range: Range<Int>
    var selection: FontSelection
    var attributes: TextAttributes
    var level: UInt8
    var script: hb_script_t
    var glyphs: [ShapedGlyph] = []
}

struct TextCluster {
    var start: Int
    var end: Int
    var item: Int
    var width: Double
    var isWhitespace: Bool
}

/// A finished truncation token: positioned runs (x from 0) and metrics, placed as one unit.
struct TruncationTokenLine {
    var runs: [GlyphRun]
    var width: Double
    var ascent: Double
    var descent: Double
    var gap: Double
}

enum LineSegment {
    case clusters(Range<Int>)
    case token
}

/// A line before vertical placement and alignment.
struct LineDraft {
    var runs: [GlyphRun]
    var width: Double
    var ascent: Double
    var descent: Double
    var gap: Double
    var characterRange: Range<Int>
}

final class ShapedParagraph {
    /// Absolute scalar offset of the paragraph in the text.
    let start: Int
    let scalars: [UInt32]
    let levels: [UInt8]
    let rightToLeft: Bool
    let attributes: TextAttributes
    // Constants once built: `let` keeps Swift's dynamic exclusivity checks off the hot loops.
    let items: [TextItem]
    let clusters: [TextCluster]
    let breaks: [Bool]
    /// For each scalar that starts a cluster, where that cluster ends (O(1) lookups in makeLine).
    private let clusterEnds: [Int]
    /// Metrics for a line with no glyphs (an empty paragraph).
    let emptyMetrics: (ascent: Double, descent: Double, gap: Double)

    /// Shapes `scalars` (text positions `start…`). `paragraphAttributes` and `bidi` come from
    /// the whole paragraph when this is one window of a long one (see TextLayout).
    init(scalars: [UInt32], start: Int, text: AttributedText, paragraphAttributes: TextAttributes,
         bidi: (levels: ArraySlice<UInt8>, rightToLeft: Bool), fonts: FontDatabase,
         lists: inout [FontDescriptor: FontFallbackList]) {
        self.start = start
        self.scalars = scalars
        let paraAttributes = paragraphAttributes
        attributes = paraAttributes
        func list(_ a: TextAttributes) -> FontFallbackList {
            if let l = lists[a.fontDescriptor] { return l }
            let l = fonts.fallbackList(for: a.fontDescriptor)
            lists[a.fontDescriptor] = l
            return l
        }
        let size = paraAttributes.effectiveFontSize
        if let p = list(paraAttributes).primary {
            emptyMetrics = (p.face.ascender * size, p.face.descender * size, p.face.lineGap * size)
        } else {
            emptyMetrics = (0.93 * size, 0.24 * size, 0)
        }

        // STEP 1: bidi levels (resolved by the caller over the whole paragraph).
        levels = Array(bidi.levels)
        rightToLeft = bidi.rightToLeft
        guard !scalars.isEmpty else {
            self.items = []; self.clusters = []; self.breaks = [false]; self.clusterEnds = []
            return
        }
        var items: [TextItem] = []
        var clusters: [TextCluster] = []

        // STEP 2: itemize.
        var scripts = scalars.map(Shaper.script(of:))
        let neutral = scripts.map(Shaper.isNeutral)
        var lastReal: hb_script_t? = nil
        for i in scripts.indices {
            if Shaper.isNeutral(scripts[i]) { if let r = lastReal { scripts[i] = r } } else { lastReal = scripts[i] }
        }
        if let firstReal = scripts.first(where: { !Shaper.isNeutral($0) }) {
            for i in scripts.indices where Shaper.isNeutral(scripts[i]) { scripts[i] = firstReal }
        }
        var runIndex = 0
        let runs = text.runs
        while runIndex + 1 < runs.count && runs[runIndex].range.upperBound <= start { runIndex += 1 }
        // The item being grown (kept in locals: copying a TextItem per character is costly).
        var currentRun = -1, currentStart = 0, currentEnd = 0
        var currentSelection: FontSelection? = nil
        var currentAttributes = paraAttributes
        var currentLevel: UInt8 = 0
        var currentScript = HB_SCRIPT_COMMON
        var listRun = -1
        var runList = list(paraAttributes)
        var attrs = paraAttributes
        for i in scalars.indices {
            let abs = start + i
            while runIndex + 1 < runs.count && runs[runIndex].range.upperBound <= abs { runIndex += 1 }
            if listRun != runIndex, !runs.isEmpty {
                // Font lists are looked up once per attribute run, not per character.
                attrs = runs[runIndex].attributes
                runList = list(attrs)
                listRun = runIndex
            }
            let c = scalars[i]
            let next = i + 1 < scalars.count ? scalars[i + 1] : 0
            let emoji = next == 0xFE0F || (c >= 0x231A && (Unicode.Scalar(c)?.properties.isEmojiPresentation ?? false))
            var selection: FontSelection? = nil
            if let cur = currentSelection {
                if LineBreaking.isAttaching(c) {
                    // Marks, joiners, variation selectors, skin tones: stay with the base character.
                    selection = cur
                } else if !emoji, currentRun == runIndex, !cur.face.hasColorGlyphs,
                          neutral[i], cur.face.covers(c) {
                    // Spaces, punctuation and digits stay in the surrounding font.
                    selection = cur
                }
            }
            if selection == nil {
                selection = runList.selection(for: c, preferColor: emoji)
            }
            guard let sel = selection else { continue }
            if currentRun == runIndex, currentSelection == sel, currentLevel == levels[i], currentScript == scripts[i],
               currentEnd == i {
                currentEnd = i + 1
            } else {
                if currentRun >= 0 {
                    items.append(TextItem(range: currentStart..<currentEnd, selection: currentSelection!, attributes: currentAttributes,
                                          level: currentLevel, script: currentScript))
                }
                currentStart = i; currentEnd = i + 1; currentSelection = sel; currentAttributes = attrs
                currentLevel = levels[i]; currentScript = scripts[i]
                currentRun = runIndex
            }
        }
        if currentRun >= 0 {
            items.append(TextItem(range: currentStart..<currentEnd, selection: currentSelection!, attributes: currentAttributes,
                                  level: currentLevel, script: currentScript))
        }

        // STEP 3: shape.
        scalars.withUnsafeBufferPointer { buf in
            for k in items.indices {
                let it = items[k]
                items[k].glyphs = Shaper.shape(buf, range: it.range, face: it.selection.face,
                                               size: it.attributes.effectiveFontSize, rightToLeft: it.level & 1 == 1,
                                               script: it.script, language: it.attributes.language,
                                               tracking: it.attributes.effectiveKerning,
                                               syntheticBold: it.selection.syntheticBold)
            }
        }

        // STEP 4: logical clusters.
        for k in items.indices {
            let it = items[k]
            let firstCluster = clusters.count
            let order: [Int] = it.level & 1 == 1 ? Array(it.glyphs.indices.reversed()) : Array(it.glyphs.indices)
            var last = -1
            for gi in order {
                let g = it.glyphs[gi]
                if g.cluster == last || (clusters.count > firstCluster && g.cluster < last) {
                    clusters[clusters.count - 1].width += g.advance
                } else {
                    clusters.append(TextCluster(start: g.cluster, end: g.cluster, item: k, width: g.advance, isWhitespace: false))
                    last = g.cluster
                }
            }
            if clusters.count == firstCluster {
                clusters.append(TextCluster(start: it.range.lowerBound, end: it.range.upperBound, item: k, width: 0, isWhitespace: false))
            }
            clusters[firstCluster].start = it.range.lowerBound
            for ci in firstCluster..<clusters.count {
                clusters[ci].end = ci + 1 < clusters.count ? clusters[ci + 1].start : it.range.upperBound
                let r = clusters[ci].start..<clusters[ci].end
                clusters[ci].isWhitespace = !r.isEmpty && r.allSatisfy { LineBreaking.isSpace(scalars[$0]) }
            }
        }
        var ends = Array(1...scalars.count)  // a scalar not starting a cluster ends after itself
        for c in clusters where c.start < ends.count { ends[c.start] = c.end }
        self.breaks = scalars.withUnsafeBufferPointer(LineBreaking.opportunities)
        self.items = items
        self.clusters = clusters
        self.clusterEnds = ends
    }

    // STEP 5: greedy line breaking. Returns cluster ranges; [0..<0] for an empty paragraph.
    func lineRanges(maxWidth: Double, stopAfter limit: Int) -> [Range<Int>] {
        guard !clusters.isEmpty else { return [0..<0] }
        var out: [Range<Int>] = []
        var lineStart = 0
        let tolerance = 1e-6
        while lineStart < clusters.count && out.count < limit {
            var width = 0.0
            var lastBreak = -1
            var i = lineStart
            var end = clusters.count
            while i < clusters.count {
                let c = clusters[i]
                if i > lineStart && breaks[c.start] { lastBreak = i }
                if !c.isWhitespace && i > lineStart && width + c.width > maxWidth + tolerance {
                    end = lastBreak > lineStart ? lastBreak : i
                    break
                }
                width += c.width
                i += 1
            }
            out.append(lineStart..<end)
            lineStart = end
        }
        return out
    }

    func width(of range: Range<Int>) -> Double {
        var w = 0.0
        for i in range { w += clusters[i].width }
        return w
    }

    /// `range` without trailing white-space clusters (they hang outside the line, UAX #9 L1).
    func trimmingTrailingWhitespace(_ range: Range<Int>) -> Range<Int> {
        var end = range.upperBound
        while end > range.lowerBound && clusters[end - 1].isWhitespace { end -= 1 }
        return range.lowerBound..<end
    }

    // STEP 6: one line from segments (logical order), positioned from x = 0.
    /// `tokenCluster` is the absolute range of hidden text the token stands for (hit testing).
    func makeLine(_ segments: [LineSegment], token: TruncationTokenLine?, tokenCluster: Range<Int>,
                  justifyExtra: Double) -> LineDraft {
        enum Piece { case item(Int, Range<Int>), token }
        var pieces: [Piece] = []
        var pieceLevels: [UInt8] = []
        var lo = Int.max, hi = Int.min
        for seg in segments {
            switch seg {
            case .token:
                if token != nil { pieces.append(.token); pieceLevels.append(rightToLeft ? 1 : 0) }
            case .clusters(let r):
                guard !r.isEmpty else { continue }
                let s = clusters[r.lowerBound].start, e = clusters[r.upperBound - 1].end
                lo = min(lo, s); hi = max(hi, e)
                for k in clusters[r.lowerBound].item...clusters[r.upperBound - 1].item {
                    let ir = items[k].range.clamped(to: s..<e)
                    if !ir.isEmpty { pieces.append(.item(k, ir)); pieceLevels.append(items[k].level) }
                }
            }
        }
        var runs: [GlyphRun] = []
        var pen = 0.0
        var ascent = 0.0, descent = 0.0, gap = 0.0
        for p in Bidi.visualOrder(levels: pieceLevels) {
            switch pieces[p] {
            case .token:
                guard let token else { continue }
                for var run in token.runs {
                    run.shift(by: pen, cluster: tokenCluster)
                    runs.append(run)
                }
                pen += token.width
                ascent = max(ascent, token.ascent); descent = max(descent, token.descent); gap = max(gap, token.gap)
            case .item(let k, let r):
                let it = items[k]
                let size = it.attributes.effectiveFontSize
                ascent = max(ascent, it.selection.face.ascender * size)
                descent = max(descent, it.selection.face.descender * size)
                gap = max(gap, it.selection.face.lineGap * size)
                var ids: [UInt32] = [], pens: [Double] = [], offsets: [Point] = [], advances: [Double] = []
                var cStarts: [Int] = [], cEnds: [Int] = []
                let expected = min(it.glyphs.count, r.count + 8)
                ids.reserveCapacity(expected); pens.reserveCapacity(expected); offsets.reserveCapacity(expected)
                advances.reserveCapacity(expected); cStarts.reserveCapacity(expected); cEnds.reserveCapacity(expected)
                let runX = pen
                // Glyph clusters are monotonic (rising for LTR items, falling for RTL): find the slice.
                let rtl = it.level & 1 == 1
                var lo = 0, hi = it.glyphs.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    let c = it.glyphs[mid].cluster
                    if rtl ? c >= r.upperBound : c < r.lowerBound { lo = mid + 1 } else { hi = mid }
                }
                var gi = lo
                while gi < it.glyphs.count && r.contains(it.glyphs[gi].cluster) {
                    let g = it.glyphs[gi]
                    gi += 1
                    var adv = g.advance
                    if justifyExtra > 0 && LineBreaking.isSpace(scalars[g.cluster]) { adv += justifyExtra }
                    ids.append(g.id); pens.append(pen); offsets.append(Point(x: g.dx, y: g.dy)); advances.append(adv)
                    cStarts.append(start + g.cluster); cEnds.append(start + clusterEnds[g.cluster])
                    pen += adv
                }
                runs.append(GlyphRun(selection: it.selection, attributes: it.attributes, isRightToLeft: it.level & 1 == 1,
                                     glyphs: ids, penX: pens, offsets: offsets, advances: advances,
                                     clusterStarts: cStarts, clusterEnds: cEnds, x: runX, width: pen - runX,
                                     characterRange: (start + r.lowerBound)..<(start + r.upperBound),
                                     isTruncationToken: false))
            }
        }
        if runs.isEmpty || (ascent == 0 && descent == 0) {
            ascent = emptyMetrics.ascent; descent = emptyMetrics.descent; gap = emptyMetrics.gap
        }
        let range = lo <= hi ? (start + lo)..<(start + hi) : (start..<start)
        return LineDraft(runs: runs, width: pen, ascent: ascent, descent: descent, gap: gap, characterRange: range)
    }

    /// Number of white-space clusters inside `range` (justification spreads extra space over them).
    func whitespaceCount(_ range: Range<Int>) -> Int {
        var n = 0
        for i in range where clusters[i].isWhitespace { n += 1 }
        return n
    }
}
