import SilkGeometry

// Silk's attributed string: a `String` plus runs of `TextAttributes` that cover it end to end.
//
// Indices: every character index in the text stack (`AttributedText` ranges, `TextLayout` hit
// testing, `rects(for:)`) counts **Unicode scalars** of `string` — `string.unicodeScalars`
// offsets — not UTF-16 units and not grapheme clusters. `AttributedText.scalarOffset(of:)` and
// `stringIndex(ofScalarOffset:)` convert to and from `String.Index`.
//
// Named `AttributedText` so it never clashes with Foundation's `AttributedString`.

/// A font weight on the OpenType scale (100 thin … 400 regular … 700 bold … 900 black).
public struct FontWeight: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The weight on the OpenType scale, 1…1000.
    public var value: Double
    /// A weight of `value`, clamped to 1…1000 (non-finite values become 400, regular).
    public init(_ value: Double) { self.value = min(1000, max(1, value.isFinite ? value : 400)) }
    /// Thin (100), the lightest named weight; few families have a face this light.
    public static let thin = FontWeight(100)
    /// Light (300).
    public static let light = FontWeight(300)
    /// Regular (400), the default for body text.
    public static let regular = FontWeight(400)
    /// Medium (500): slightly heavier than regular, for emphasis without bold.
    public static let medium = FontWeight(500)
    /// Semibold (600), common for titles and buttons.
    public static let semibold = FontWeight(600)
    /// 700; synthesized (emboldened) when the family has no face this heavy.
    public static let bold = FontWeight(700)
    /// Heavy (800), also called extra bold.
    public static let heavy = FontWeight(800)
    /// Black (900), the heaviest named weight.
    public static let black = FontWeight(900)
    public static func < (a: FontWeight, b: FontWeight) -> Bool { a.value < b.value }
    public var description: String { "w\(Int(value))" }
}

/// How a line is drawn under (or through) text.
public enum UnderlineStyle: Hashable, Sendable {
    case none, single, double, dotted
}

/// Horizontal placement of each line inside the layout width.
public enum TextAlignment: Hashable, Sendable {
    /// Left for left-to-right paragraphs, right for right-to-left ones.
    case natural
    case left, center, right
    /// Stretches the spaces of every line but a paragraph's last one to fill the width.
    case justified
}

/// The base direction of a paragraph (the bidi algorithm's paragraph level).
public enum WritingDirection: Hashable, Sendable {
    /// From the paragraph's first strong character (Unicode bidi rules P2–P3); LTR when none.
    case natural
    case leftToRight, rightToLeft
}

/// Where the truncation token replaces text on the last visible line.
public enum TruncationMode: Hashable, Sendable {
    case head, middle, tail
}

/// The look of a run of text. Paragraph-level values (`alignment`, `baseWritingDirection`,
/// `lineHeightMultiple`) are taken from the first character of each paragraph.
public struct TextAttributes: Hashable, Sendable {
    /// A fontconfig family name ("DejaVu Sans", "serif", "monospace", …). Characters the family
    /// lacks fall back per character to other installed fonts, then to the built-in DejaVu Sans.
    public var fontFamily: String
    /// Font size in points.
    public var fontSize: Double
    /// The weight; the nearest face of the family is used, bold synthesized when none is heavy enough.
    public var fontWeight: FontWeight
    /// Italic (or a synthetic oblique when the family has no italic face).
    public var italic: Bool
    /// The glyphs' colour (colour emoji keep their own colours).
    public var color: Color
    /// The underline drawn under the run (``UnderlineStyle/none`` by default).
    public var underline: UnderlineStyle
    /// Underline colour; the text colour when nil.
    public var underlineColor: Color?
    /// Draws a line through the run at the font's strikeout position.
    public var strikethrough: Bool
    /// Filled behind the glyphs of the run, line height tall.
    public var backgroundColor: Color?
    /// A link target (URL or any string the app understands), reported by `TextLayout.link(at:)`.
    public var link: String?
    /// Extra space in points added after every character (tracking); ligatures are disabled when ≠ 0.
    public var kerning: Double
    /// Multiplies the natural line height (ascent + descent + line gap); the extra is split above and below.
    public var lineHeightMultiple: Double
    /// How lines of the paragraph are placed in the width (read from the paragraph's first character).
    public var alignment: TextAlignment
    /// The paragraph's base direction for the bidi algorithm (read from its first character).
    public var baseWritingDirection: WritingDirection
    /// BCP 47 language tag given to the shaper (e.g. "ja", "zh-Hans", "ar"); nil: from the script.
    public var language: String?

    /// Attributes with the given values: 16 pt DejaVu Sans, regular, black, left-aligned in
    /// left-to-right paragraphs, unless given.
    public init(fontFamily: String = TextAttributes.defaultFontFamily, fontSize: Double = 16,
                fontWeight: FontWeight = .regular, italic: Bool = false, color: Color = .black,
                underline: UnderlineStyle = .none, underlineColor: Color? = nil, strikethrough: Bool = false,
                backgroundColor: Color? = nil, link: String? = nil, kerning: Double = 0,
                lineHeightMultiple: Double = 1, alignment: TextAlignment = .natural,
                baseWritingDirection: WritingDirection = .natural, language: String? = nil) {
        self.fontFamily = fontFamily; self.fontSize = fontSize; self.fontWeight = fontWeight
        self.italic = italic; self.color = color; self.underline = underline
        self.underlineColor = underlineColor; self.strikethrough = strikethrough
        self.backgroundColor = backgroundColor; self.link = link; self.kerning = kerning
        self.lineHeightMultiple = lineHeightMultiple; self.alignment = alignment
        self.baseWritingDirection = baseWritingDirection; self.language = language
    }

    /// The family used when none is given: shipped in `assets/fonts`, so it exists on every machine.
    public static let defaultFontFamily = "DejaVu Sans"

    /// The size clamped to what the rasterizer accepts (0.5…2048 pt; NaN → 16).
    var effectiveFontSize: Double {
        fontSize.isFinite ? min(2048, max(0.5, fontSize)) : 16
    }
    var effectiveLineHeightMultiple: Double {
        lineHeightMultiple.isFinite && lineHeightMultiple > 0 ? min(lineHeightMultiple, 100) : 1
    }
    var effectiveKerning: Double { kerning.isFinite ? max(-1000, min(1000, kerning)) : 0 }

    /// The attributes that change shaping (font and tracking); runs equal in these shape together.
    var fontDescriptor: FontDescriptor {
        FontDescriptor(family: fontFamily, weight: fontWeight, italic: italic)
    }
}

/// An immutable-by-value attributed string: `string` plus attribute runs covering every scalar.
public struct AttributedText: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// A range of scalars (see the file header) and its attributes.
    public struct Run: Hashable, Sendable {
        /// The scalars the run covers.
        public var range: Range<Int>
        /// The run's attributes.
        public var attributes: TextAttributes
    }

    /// The plain text.
    public private(set) var string: String
    /// Contiguous, non-empty, sorted runs covering `0..<scalarCount` (empty when the text is).
    public private(set) var runs: [Run]
    /// `string.unicodeScalars.count`, stored.
    public private(set) var scalarCount: Int

    /// `string` with one set of attributes throughout.
    public init(_ string: String = "", attributes: TextAttributes = TextAttributes()) {
        self.string = string
        scalarCount = string.unicodeScalars.count
        runs = scalarCount == 0 ? [] : [Run(range: 0..<scalarCount, attributes: attributes)]
    }

    /// A string literal with default attributes: `let title: AttributedText = "Hello"`.
    public init(stringLiteral value: String) { self.init(value) }

    /// Text decoded from arbitrary bytes: invalid UTF-8 becomes U+FFFD, never a crash.
    public init(utf8Bytes bytes: some Sequence<UInt8>, attributes: TextAttributes = TextAttributes()) {
        self.init(String(decoding: Array(bytes), as: UTF8.self), attributes: attributes)
    }

    /// True when the text has no characters.
    public var isEmpty: Bool { scalarCount == 0 }
    public var description: String { string }

    /// Appends `other`, keeping its attributes.
    public mutating func append(_ other: AttributedText) {
        guard !other.isEmpty else { return }
        let base = scalarCount
        string += other.string
        scalarCount += other.scalarCount
        for run in other.runs {
            appendRun(Run(range: (run.range.lowerBound + base)..<(run.range.upperBound + base), attributes: run.attributes))
        }
    }

    /// Appends `string` with `attributes`.
    public mutating func append(_ string: String, attributes: TextAttributes) {
        append(AttributedText(string, attributes: attributes))
    }

    /// `a` followed by `b`, each keeping its attributes.
    public static func + (a: AttributedText, b: AttributedText) -> AttributedText {
        var r = a
        r.append(b)
        return r
    }

    /// Changes the attributes of `range` (clamped to the text) with `change`.
    public mutating func modifyAttributes(in range: Range<Int>, _ change: (inout TextAttributes) -> Void) {
        let lo = max(0, min(range.lowerBound, scalarCount)), hi = max(lo, min(range.upperBound, scalarCount))
        guard lo < hi else { return }
        var out: [Run] = []
        out.reserveCapacity(runs.count + 2)
        for run in runs {
            let r = run.range
            if r.upperBound <= lo || r.lowerBound >= hi { out.append(run); continue }
            if r.lowerBound < lo { out.append(Run(range: r.lowerBound..<lo, attributes: run.attributes)) }
            var changed = run.attributes
            change(&changed)
            out.append(Run(range: max(lo, r.lowerBound)..<min(hi, r.upperBound), attributes: changed))
            if r.upperBound > hi { out.append(Run(range: hi..<r.upperBound, attributes: run.attributes)) }
        }
        runs = []
        for run in out { appendRun(run) }
    }

    /// Replaces the attributes of `range` (clamped to the text).
    public mutating func setAttributes(_ attributes: TextAttributes, range: Range<Int>) {
        modifyAttributes(in: range) { $0 = attributes }
    }

    /// The attributes at scalar `index` (clamped); the defaults for empty text.
    public func attributes(at index: Int) -> TextAttributes {
        guard !runs.isEmpty else { return TextAttributes() }
        let i = max(0, min(index, scalarCount - 1))
        var lo = 0, hi = runs.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if runs[mid].range.lowerBound <= i { lo = mid } else { hi = mid - 1 }
        }
        return runs[lo].attributes
    }

    /// The scalar offset of a `String.Index` of `string`.
    public func scalarOffset(of index: String.Index) -> Int {
        string.unicodeScalars.distance(from: string.unicodeScalars.startIndex, to: index)
    }

    /// The `String.Index` of a scalar offset (clamped to the text).
    public func stringIndex(ofScalarOffset offset: Int) -> String.Index {
        let s = string.unicodeScalars
        return s.index(s.startIndex, offsetBy: max(0, min(offset, scalarCount)))
    }

    /// The first `count` scalars as attributed text (used to enforce `TextLayout.maximumLength`).
    func prefix(scalars count: Int) -> AttributedText {
        guard count < scalarCount else { return self }
        var r = self
        let end = stringIndex(ofScalarOffset: count)
        r.string = String(string.unicodeScalars[..<end])
        r.scalarCount = count
        r.runs = runs.compactMap { run in
            run.range.lowerBound >= count ? nil
                : Run(range: run.range.lowerBound..<min(run.range.upperBound, count), attributes: run.attributes)
        }
        return r
    }

    private mutating func appendRun(_ run: Run) {
        guard !run.range.isEmpty else { return }
        if let last = runs.last, last.attributes == run.attributes, last.range.upperBound == run.range.lowerBound {
            runs[runs.count - 1].range = last.range.lowerBound..<run.range.upperBound
        } else {
            runs.append(run)
        }
    }
}
