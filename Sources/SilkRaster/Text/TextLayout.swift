import SilkGeometry

// TextLayout: attributed text broken into positioned lines of glyphs — an immutable value.
//
// API used by Canvas and TextNode (all units points, y down, origin at the layout's top-left):
//
//     let layout = TextLayout(text: attributed, constrainedTo: Size(width: 300, height: .infinity),
//                             maximumLines: 2, truncationToken: nil, truncationMode: .tail)
//     layout.size            // size that fits (see `size`)
//     layout.lineCount, layout.isTruncated, layout.firstBaseline, layout.lastBaseline
//     layout.lines           // [TextLine]: rect, baseline, characterRange
//     layout.characterIndex(at: point)  -> Int?          (TextHitTesting.swift)
//     layout.link(at: point)            -> TextLink?     (also a linked "… more" token)
//     layout.isTruncationToken(at: point) -> Bool
//     layout.rects(for: 3..<10)         -> [Rect]
//     layout.draw(into: bitmap, at: originInPoints, scale: 2, clip: deviceRect, opacity: 1,
//                 colorOverride: nil)                            (TextRenderer.swift)
//
// Character indices count Unicode scalars (see AttributedText.swift).
//
// Threading: a TextLayout is a Sendable value: compute it on any thread, draw it on another,
// draw it on many at once. Fonts, shaping and the glyph cache are safe for concurrent use.
//
// Limits: text longer than `TextLayout.maximumLength` scalars is cut there (isTruncated is
// then true); font sizes are clamped to 0.5…2048 pt; NaN or negative constraints mean unbounded.

/// A positioned run of glyphs of one font and one set of attributes, in visual order.
public struct GlyphRun: Sendable {
    let selection: FontSelection
    /// The attributes of the text the run shows.
    public let attributes: TextAttributes
    /// True when the run's bidi level is odd (glyphs run right to left).
    public let isRightToLeft: Bool
    let glyphs: [UInt32]
    /// Pen x of each glyph from the line's left edge (points).
    private(set) var penX: [Double]
    /// HarfBuzz offsets from the pen position (y down).
    let offsets: [Point]
    let advances: [Double]
    /// Absolute scalar range of the cluster each glyph belongs to.
    private(set) var clusterStarts: [Int]
    private(set) var clusterEnds: [Int]
    /// Left edge and width of the run within the line (points).
    public private(set) var x: Double
    /// The run's advance width in points.
    public let width: Double
    /// The scalars the run shows (for a truncation token: the hidden text it stands for).
    public private(set) var characterRange: Range<Int>
    /// True for the ellipsis (or custom token) that replaces truncated text.
    public let isTruncationToken: Bool

    init(selection: FontSelection, attributes: TextAttributes, isRightToLeft: Bool, glyphs: [UInt32],
         penX: [Double], offsets: [Point], advances: [Double], clusterStarts: [Int], clusterEnds: [Int],
         x: Double, width: Double, characterRange: Range<Int>, isTruncationToken: Bool) {
        self.selection = selection; self.attributes = attributes; self.isRightToLeft = isRightToLeft
        self.glyphs = glyphs; self.penX = penX; self.offsets = offsets; self.advances = advances
        self.clusterStarts = clusterStarts; self.clusterEnds = clusterEnds; self.x = x; self.width = width
        self.characterRange = characterRange; self.isTruncationToken = isTruncationToken
    }

    /// The font size in points the run was shaped at (clamped to 0.5…2048).
    public var fontSize: Double { attributes.effectiveFontSize }
    /// How many glyphs the run draws.
    public var glyphCount: Int { glyphs.count }
    /// The face the run is drawn with (after per-character fallback).
    public var font: FontFace { selection.face }

    /// Moves a token run to `dx` and makes its glyphs stand for `cluster` (the hidden text).
    mutating func shift(by dx: Double, cluster: Range<Int>) {
        x += dx
        for i in penX.indices { penX[i] += dx }
        clusterStarts = Array(repeating: cluster.lowerBound, count: glyphs.count)
        clusterEnds = Array(repeating: cluster.upperBound, count: glyphs.count)
        characterRange = cluster
    }
}

/// One laid-out line.
public struct TextLine: Sendable {
    /// Scalars on the line (white space at its end included, a paragraph separator excluded).
    public let characterRange: Range<Int>
    /// The line box: x and width of the visible glyphs (after alignment), y and height of the line.
    public internal(set) var rect: Rect
    /// y of the baseline from the top of the layout.
    public internal(set) var baseline: Double
    /// The line's ascent in points: the tallest run's extent above the baseline.
    public let ascent: Double
    /// The line's descent in points: the deepest run's extent below the baseline.
    public let descent: Double
    /// The paragraph's resolved direction.
    public let isRightToLeft: Bool
    /// True for the line that ends with the truncation token.
    public let isTruncated: Bool
    /// Runs in visual order, x relative to `rect.minX`.
    public let runs: [GlyphRun]
}

/// A link found by `TextLayout.link(at:)`: its target and the whole range carrying it.
public struct TextLink: Hashable, Sendable {
    /// The link target (``TextAttributes/link``).
    public let url: String
    /// The whole range of scalars carrying the link.
    public let range: Range<Int>
}

/// Text shaped and broken into lines for a constrained size: HarfBuzz shaping, fontconfig
/// fallback per character, Unicode bidi and line breaking, truncation. Measure and draw it from
/// any thread; it is an immutable value.
public struct TextLayout: Sendable {
    /// Longest text laid out, in Unicode scalars (1 Mi); longer text is cut and marked truncated.
    public static let maximumLength = 1 << 20
    /// Glyphs larger than this many device pixels (font size × scale) are not drawn, so a huge
    /// size cannot allocate gigabytes of glyph images.
    public static let maximumGlyphPixelSize = 2048
    /// Scalars shaped at a time in a long paragraph (see the paragraph loop in `init`).
    static let shapingWindow = 4096

    /// The text laid out (cut at ``maximumLength``).
    public let text: AttributedText
    /// The size the text was laid out in (infinite extents: unbounded).
    public let constrainedSize: Size
    /// The lines, top to bottom.
    public let lines: [TextLine]
    /// The size that fits: the widest line (or the constrained width when some line is centred,
    /// right-aligned, justified or right-to-left in a finite width) by the sum of line heights.
    public let size: Size
    /// The width a view that sizes itself to the text takes (a `TextNode`): the widest line, or
    /// the constrained width when some paragraph is explicitly centred, right-aligned or justified
    /// in a finite width. Natural alignment hugs the lines whatever the direction, so a
    /// right-to-left title is not widened to its container (the view is drawn again at its final
    /// width, where natural alignment places the lines).
    public let fittingWidth: Double
    /// The inline direction of the context the text sits in, which decides where
    /// ``TextAlignment/natural`` puts lines (see ``init(text:constrainedTo:maximumLines:truncationToken:truncationMode:keepsTrailingWhitespace:layoutDirection:fonts:)``).
    public let layoutDirection: WritingDirection
    /// True when lines, height or `maximumLength` hid some of the text.
    public let isTruncated: Bool
    let links: [TextLink]

    /// How many lines are shown (after truncation).
    public var lineCount: Int { lines.count }
    /// Baseline of the first line from the top (0 for empty text with no lines).
    public var firstBaseline: Double { lines.first?.baseline ?? 0 }
    /// Baseline of the last line from the top.
    public var lastBaseline: Double { lines.last?.baseline ?? 0 }

    /// Lays out `text` in `constrainedTo` (width `.infinity`: one line per paragraph; height
    /// `.infinity`: no vertical limit). `maximumLines` 0 means unlimited. When text is hidden the
    /// last line ends (tail), starts (head) or is split (middle) with `truncationToken`, by
    /// default "…" in the attributes of the last visible character. `keepsTrailingWhitespace`:
    /// spaces at the end of a paragraph take room on its last line (for editing).
    /// `layoutDirection` is the inline direction of the context (a view's layout direction):
    /// paragraphs aligned ``TextAlignment/natural`` (and the last lines of justified ones) go to
    /// the left in `.leftToRight` and to the right in `.rightToLeft`, as CSS `text-align: start`
    /// follows `direction`; with `.natural` (the default, no context) each follows its own bidi
    /// direction. Explicit `left`, `right` and `center` stay as given, and the paragraphs' bidi
    /// base direction still comes from ``TextAttributes/baseWritingDirection``.
    public init(text: AttributedText, constrainedTo constraint: Size, maximumLines: Int = 0,
                truncationToken: AttributedText? = nil, truncationMode: TruncationMode = .tail,
                keepsTrailingWhitespace: Bool = false, layoutDirection: WritingDirection = .natural,
                fonts: FontDatabase = .shared) {
        var text = text
        var cutByLength = false
        if text.scalarCount > TextLayout.maximumLength {
            text = text.prefix(scalars: TextLayout.maximumLength)
            cutByLength = true
        }
        self.text = text
        constrainedSize = constraint
        self.layoutDirection = layoutDirection
        let maxWidth = constraint.width >= 0 && constraint.width.isFinite ? constraint.width : .infinity
        let maxHeight = constraint.height >= 0 && constraint.height.isFinite ? constraint.height : .infinity
        let lineLimit = maximumLines > 0 ? maximumLines : Int.max

        // Paragraphs: split at LF, CR, CRLF, NEL, VT, FF, U+2028 and U+2029. Controls are drawn
        // as U+FFFD (tabs as spaces) so binary input shows where it is broken.
        var scalars: [UInt32] = []
        scalars.reserveCapacity(text.scalarCount)
        for s in text.string.unicodeScalars { scalars.append(s.value) }
        var paragraphs: [Range<Int>] = []
        var pStart = 0
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            if c == 0x0A || c == 0x0D || c == 0x85 || c == 0x0B || c == 0x0C || c == 0x2028 || c == 0x2029 {
                paragraphs.append(pStart..<i)
                if c == 0x0D && i + 1 < scalars.count && scalars[i + 1] == 0x0A { i += 1 }
                pStart = i + 1
            } else if c == 0x09 {
                scalars[i] = 0x20
            } else if c < 0x20 || (c >= 0x7F && c < 0xA0) {
                scalars[i] = 0xFFFD
            }
            i += 1
        }
        paragraphs.append(pStart..<scalars.count)
        if scalars.isEmpty { paragraphs = [] }  // empty text: no lines, size zero

        var lists: [FontDescriptor: FontFallbackList] = [:]
        struct Built { var draft: LineDraft; var paragraph: ShapedParagraph; var clusters: Range<Int>; var last: Bool }
        var built: [Built] = []
        var height = 0.0
        var truncated = cutByLength
        func lineHeight(_ d: LineDraft, _ p: ShapedParagraph) -> Double {
            (d.ascent + d.descent + d.gap) * p.attributes.effectiveLineHeightMultiple
        }
        // Long paragraphs in a finite width are shaped in windows of `shapingWindow` scalars:
        // the lines of a window are kept except its last, where the next window starts, so a
        // 1 MiB paragraph drawn in a small box costs a few windows, not the whole text.
        paragraphLoop: for (pi, pr) in paragraphs.enumerated() {
            if built.count >= lineLimit {
                // Only empty paragraphs left (trailing newlines) hide nothing worth a token.
                if !paragraphs[pi...].allSatisfy(\.isEmpty) { truncated = true }
                break
            }
            let paraAttributes = text.attributes(at: pr.lowerBound)
            let bidi = scalars[pr].withUnsafeBufferPointer { Bidi.resolve($0, direction: paraAttributes.baseWritingDirection) }
            var s = pr.lowerBound
            while true {
                let e = maxWidth.isFinite ? min(pr.upperBound, s + TextLayout.shapingWindow) : pr.upperBound
                let final = e == pr.upperBound
                let para = ShapedParagraph(scalars: Array(scalars[s..<e]), start: s, text: text,
                                           paragraphAttributes: paraAttributes,
                                           bidi: (bidi.levels[(s - pr.lowerBound)..<(e - pr.lowerBound)], bidi.rightToLeft),
                                           fonts: fonts, lists: &lists)
                var ranges = para.lineRanges(maxWidth: maxWidth, stopAfter: lineLimit == Int.max ? Int.max : lineLimit - built.count + 1)
                var nextStart = pr.upperBound
                if !final && ranges.count > 1 && ranges.last!.upperBound == para.clusters.count {
                    nextStart = s + para.clusters[ranges.removeLast().lowerBound].start
                } else if !final {
                    nextStart = ranges.last.map { s + ($0.upperBound < para.clusters.count ? para.clusters[$0.upperBound].start : para.scalars.count) } ?? e
                }
                for (li, r) in ranges.enumerated() {
                    if built.count >= lineLimit { truncated = true; break paragraphLoop }
                    let isLast = final && li == ranges.count - 1
                    // Trailing spaces hang outside the line, except at a paragraph's end when an
                    // editor asks to keep them (a caret after a typed space must move).
                    let visible = keepsTrailingWhitespace && isLast ? r : para.trimmingTrailingWhitespace(r)
                    var extra = 0.0
                    if para.attributes.alignment == .justified, maxWidth.isFinite, !isLast {
                        let spaces = para.whitespaceCount(visible)
                        if spaces > 0 { extra = max(0, (maxWidth - para.width(of: visible)) / Double(spaces)) }
                    }
                    var draft = para.makeLine([.clusters(visible)], token: nil, tokenCluster: 0..<0, justifyExtra: extra)
                    if !r.isEmpty {
                        draft.characterRange = (para.start + para.clusters[r.lowerBound].start)..<(para.start + para.clusters[r.upperBound - 1].end)
                    }
                    let h = lineHeight(draft, para)
                    if !built.isEmpty && height + h > maxHeight + 1e-6 { truncated = true; break paragraphLoop }
                    built.append(Built(draft: draft, paragraph: para, clusters: r, last: isLast))
                    height += h
                }
                if final || nextStart >= pr.upperBound { break }
                s = nextStart
            }
        }

        // Truncation: rebuild the last visible line around the token.
        var truncatedLine = -1
        if truncated, let lastBuilt = built.last {
            let para = lastBuilt.paragraph
            let from = lastBuilt.clusters.lowerBound
            let n = para.clusters.count
            let lastVisible = max(para.start, lastBuilt.draft.characterRange.upperBound - 1)
            var tokenAttributes = text.attributes(at: lastVisible)
            tokenAttributes.link = nil
            let tokenText = truncationToken ?? AttributedText("\u{2026}", attributes: tokenAttributes)
            let tokenLayout = TextLayout(text: tokenText, constrainedTo: Size(width: .infinity, height: .infinity),
                                         maximumLines: 1, fonts: fonts)
            let tl = tokenLayout.lines.first
            let token = TruncationTokenLine(runs: (tl?.runs ?? []).map { var r = $0; r.markAsToken(); return r },
                                            width: tl?.rect.width ?? 0, ascent: tl?.ascent ?? 0,
                                            descent: tl?.descent ?? 0, gap: 0)
            let available = maxWidth - token.width
            var segments: [LineSegment]
            var hidden: Range<Int>
            func prefix(_ budget: Double, from a: Int, to b: Int) -> Int {
                var w = 0.0, e = a
                while e < b && w + para.clusters[e].width <= budget + 1e-6 { w += para.clusters[e].width; e += 1 }
                while e > a && para.clusters[e - 1].isWhitespace { e -= 1 }
                return e
            }
            func suffix(_ budget: Double, from a: Int, to b: Int) -> Int {
                var w = 0.0, s = b
                while s > a && w + para.clusters[s - 1].width <= budget + 1e-6 { w += para.clusters[s - 1].width; s -= 1 }
                while s < b && para.clusters[s].isWhitespace { s += 1 }
                return s
            }
            func absolute(_ c: Int) -> Int { para.start + (c < n ? para.clusters[c].start : para.scalars.count) }
            switch truncationMode {
            case .tail:
                let e = prefix(available, from: from, to: n)
                segments = [.clusters(from..<e), .token]
                hidden = absolute(e)..<text.scalarCount
            case .head:
                let s = suffix(available, from: from, to: n)
                segments = [.token, .clusters(s..<n)]
                hidden = absolute(from)..<absolute(s)
            case .middle:
                let e = prefix(available / 2, from: from, to: n)
                let used = para.width(of: from..<e)
                let s = suffix(available - used, from: e, to: n)
                segments = [.clusters(from..<e), .token, .clusters(s..<n)]
                hidden = absolute(e)..<absolute(s)
            }
            var draft = para.makeLine(segments, token: token, tokenCluster: hidden, justifyExtra: 0)
            draft.characterRange = absolute(from)..<max(absolute(from), draft.characterRange.upperBound)
            let oldHeight = lineHeight(built[built.count - 1].draft, para)
            built[built.count - 1].draft = draft
            height += lineHeight(draft, para) - oldHeight
            truncatedLine = built.count - 1
        }

        // Vertical placement and alignment.
        let widest = built.map(\.draft.width).max() ?? 0
        let alignWidth = maxWidth.isFinite ? maxWidth : widest
        var usesFullWidth = false, explicitFullWidth = false
        var y = 0.0
        var lines: [TextLine] = []
        lines.reserveCapacity(built.count)
        for (k, b) in built.enumerated() {
            let d = b.draft, para = b.paragraph
            let natural = d.ascent + d.descent + d.gap
            let h = natural * para.attributes.effectiveLineHeightMultiple
            let baseline = y + (h - d.ascent - d.descent) / 2 + d.ascent
            // Natural alignment (and a justified paragraph's last line) starts at the context's
            // start edge, or at the paragraph's own when there is no context.
            let naturalRight: Bool
            switch layoutDirection {
            case .leftToRight: naturalRight = false
            case .rightToLeft: naturalRight = true
            case .natural: naturalRight = para.rightToLeft
            }
            var x = 0.0
            switch para.attributes.alignment {
            case .left: x = 0
            case .right: x = alignWidth - d.width
            case .center: x = (alignWidth - d.width) / 2
            case .natural, .justified: x = naturalRight ? alignWidth - d.width : 0
            }
            let explicit = para.attributes.alignment == .center || para.attributes.alignment == .right
                || (para.attributes.alignment == .justified && !b.last)
            if explicit || para.rightToLeft || naturalRight { usesFullWidth = true }
            if explicit { explicitFullWidth = true }
            lines.append(TextLine(characterRange: d.characterRange, rect: Rect(x: x, y: y, width: d.width, height: h),
                                  baseline: baseline, ascent: d.ascent, descent: d.descent,
                                  isRightToLeft: para.rightToLeft, isTruncated: k == truncatedLine, runs: d.runs))
            y += h
        }
        self.lines = lines
        size = Size(width: usesFullWidth && maxWidth.isFinite ? max(widest, maxWidth) : widest, height: y)
        fittingWidth = explicitFullWidth && maxWidth.isFinite ? max(widest, maxWidth) : widest
        isTruncated = truncated

        var links: [TextLink] = []
        for run in text.runs {
            guard let url = run.attributes.link else { continue }
            if let last = links.last, last.url == url, last.range.upperBound == run.range.lowerBound {
                links[links.count - 1] = TextLink(url: url, range: last.range.lowerBound..<run.range.upperBound)
            } else {
                links.append(TextLink(url: url, range: run.range))
            }
        }
        self.links = links
    }

    /// Convenience: the size `text` needs in `width` (points; `.infinity` for one line per paragraph).
    public static func measure(_ text: AttributedText, width: Double, maximumLines: Int = 0,
                               fonts: FontDatabase = .shared) -> Size {
        TextLayout(text: text, constrainedTo: Size(width: width, height: .infinity), maximumLines: maximumLines,
                   fonts: fonts).size
    }
}

extension GlyphRun {
    mutating func markAsToken() {
        self = GlyphRun(selection: selection, attributes: attributes, isRightToLeft: isRightToLeft, glyphs: glyphs,
                        penX: penX, offsets: offsets, advances: advances, clusterStarts: clusterStarts,
                        clusterEnds: clusterEnds, x: x, width: width, characterRange: characterRange,
                        isTruncationToken: true)
    }
}
