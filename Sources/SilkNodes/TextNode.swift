import Foundation
import SilkGeometry
import SilkLayout
import SilkRaster

/// Shows attributed text, measured and drawn off the main thread (Texture's ASTextNode).
///
/// Measurement (`calculateSizeThatFits`, any thread) lays the text out with HarfBuzz; the
/// resulting `TextLayout` is kept and reused by the display job when the node ends up at the
/// measured width, so text is shaped once per size.
open class TextNode: DisplayNode, @unchecked Sendable {
    /// A soft shadow under the text: the glyphs in one colour, blurred and offset, drawn in the
    /// same display job (no extra layer).
    public struct Shadow: Sendable, Hashable {
        /// The shadow's colour, alpha included (default black at 50 %).
        public var color: Color
        /// Where the shadow sits relative to the text, in points (default 1 pt down).
        public var offset: Point
        /// Blur radius in points (0: a sharp copy). The shadow is drawn inside the node's bounds,
        /// so leave room for the offset and blur (an inset around the text) or they are cut off.
        public var radius: Double
        /// Creates a shadow; the defaults are a subtle drop shadow (black at 50 %, 1 pt down, 2 pt
        /// blur).
        public init(color: Color = Color(white: 0, alpha: 0.5), offset: Point = Point(x: 0, y: 1), radius: Double = 2) {
            self.color = color; self.offset = offset; self.radius = radius
        }
    }

    private var _text = AttributedText()
    private var _truncationToken: AttributedText?
    private var _maximumLines = 0
    private var _truncationMode: TruncationMode = .tail
    private var _shadow: Shadow?
    private var _measured: TextLayout?
    private var _linkTapped: (@Sendable (String) -> Void)?
    private var _linkLongPressed: (@Sendable (String) -> Void)?
    private var _shouldHighlightLink: (@Sendable (String) -> Bool)?
    private var _highlightedRange: Range<Int>?

    /// Creates a text node with no text (it measures zero). Any thread.
    public override init() {
        super.init()
        lock.withLock { _accessibility.isElement = true; _accessibility.role = .label }
    }
    /// Creates a text node showing `text`. Any thread.
    public convenience init(_ text: AttributedText) { self.init(); attributedText = text }

    /// True: text nodes draw in display jobs.
    open override class var drawsContent: Bool { true }

    /// The text with its attributes (font, size, colour, links, paragraph style). Setting it
    /// invalidates the measured layout, the node's layout and its contents. Any thread.
    public var attributedText: AttributedText {
        get { lock.withLock { _text } }
        set {
            lock.withLock { _text = newValue; _measured = nil }
            setNeedsLayout()
            setNeedsDisplay()
            setDefaultAccessibilityLabel(newValue.string.isEmpty ? nil : newValue.string)
        }
    }
    /// Shown at the end (or start, middle) of truncated text; nil: "…" in the text's attributes.
    /// Any thread.
    public var truncationAttributedText: AttributedText? {
        get { lock.withLock { _truncationToken } }
        set { lock.withLock { _truncationToken = newValue; _measured = nil }; setNeedsLayout(); setNeedsDisplay() }
    }
    /// The most lines shown; text beyond them is truncated with the truncation token. 0 (default):
    /// as many lines as the text needs. Any thread.
    public var maximumNumberOfLines: Int {
        get { lock.withLock { _maximumLines } }
        set { lock.withLock { _maximumLines = max(0, newValue); _measured = nil }; setNeedsLayout(); setNeedsDisplay() }
    }
    /// Where text that does not fit `maximumNumberOfLines` is cut and the truncation token shown
    /// (default `.tail`). Any thread.
    public var truncationMode: TruncationMode {
        get { lock.withLock { _truncationMode } }
        set { lock.withLock { _truncationMode = newValue; _measured = nil }; setNeedsLayout(); setNeedsDisplay() }
    }
    /// A shadow drawn under the text; nil (default) draws none. Any thread.
    public var shadow: Shadow? {
        get { lock.withLock { _shadow } }
        set { lock.withLock { _shadow = newValue }; setNeedsDisplay() }
    }
    /// Called with the link's value (its URL string) when a link is tapped (main thread). While it
    /// or `linkLongPressed` is set, touches on links belong to the link. Any thread may set it.
    public var linkTapped: (@Sendable (String) -> Void)? {
        get { lock.withLock { _linkTapped } }
        set { lock.withLock { _linkTapped = newValue } }
    }
    /// Called with the link's value when a link is held for the long-press duration (main thread);
    /// lifting the finger afterwards does nothing. Any thread may set it.
    public var linkLongPressed: (@Sendable (String) -> Void)? {
        get { lock.withLock { _linkLongPressed } }
        set { lock.withLock { _linkLongPressed = newValue } }
    }
    /// Whether touching a link highlights it (default: yes). Called on the main thread; any thread
    /// may set it.
    public var shouldHighlightLink: (@Sendable (String) -> Bool)? {
        get { lock.withLock { _shouldHighlightLink } }
        set { lock.withLock { _shouldHighlightLink = newValue } }
    }

    /// The layout at the current bounds (measuring if needed). Any thread.
    public var textLayout: TextLayout { layout(forWidth: bounds.width > 0 ? bounds.width : .infinity) }
    /// Whether the text at the current width was cut to fit `maximumNumberOfLines`. Measures if
    /// needed; any thread.
    public var isTruncated: Bool { textLayout.isTruncated }
    /// Lines the text takes at the current width (after truncation). Measures if needed; any
    /// thread.
    public var lineCount: Int { textLayout.lineCount }

    /// The link under `point` (node coordinates), if any. Any thread.
    public func link(at point: Point) -> String? { textLayout.link(at: point)?.url }

    /// What a layout is computed from, captured under the lock (a value: safe on any thread).
    struct LayoutInputs: Sendable {
        let text: AttributedText
        let token: AttributedText?
        let maximumLines: Int
        let mode: TruncationMode
        /// The node's layout direction: where `natural` paragraphs are aligned.
        let direction: WritingDirection

        func layout(width: Double) -> TextLayout {
            TextLayout(text: text, constrainedTo: Size(width: width, height: .infinity), maximumLines: maximumLines,
                       truncationToken: token, truncationMode: mode, layoutDirection: direction)
        }
    }

    /// The inputs and, when it was measured at `width` in the node's direction, the cached layout.
    private func layoutInputs(width: Double) -> (LayoutInputs, cached: TextLayout?) {
        let direction: WritingDirection = layoutDirection == .rtl ? .rightToLeft : .leftToRight
        return lock.withLock {
            let inputs = LayoutInputs(text: _text, token: _truncationToken, maximumLines: _maximumLines, mode: _truncationMode,
                                      direction: direction)
            return (inputs, _measured.flatMap { $0.constrainedSize.width == width && $0.layoutDirection == direction ? $0 : nil })
        }
    }

    func layout(forWidth width: Double) -> TextLayout {
        let (inputs, cached) = layoutInputs(width: width)
        if let cached { return cached }
        let layout = inputs.layout(width: width)
        lock.withLock { if _text == inputs.text { _measured = layout } }
        return layout
    }

    /// Measures the text at the constrained width and keeps the layout, so the display job reuses
    /// it when the node ends at that width; the size is rounded up to whole points. The width hugs
    /// the lines (`TextLayout.fittingWidth`) unless a paragraph is explicitly centred,
    /// right-aligned or justified: natural alignment in either direction does not widen the node
    /// (a right-to-left title in a button stays centred).
    open override func calculateSizeThatFits(_ constrainedSize: Size) -> Size {
        let layout = layout(forWidth: constrainedSize.width)
        return Size(width: min(layout.fittingWidth.rounded(.up), constrainedSize.width), height: layout.size.height.rounded(.up))
    }

    /// The text's first and last baselines at `width` (the measured layout, reused).
    open override func layoutBaselines(forWidth width: Double) -> LayoutBaselines? {
        let layout = layout(forWidth: width)
        return LayoutBaselines(first: layout.firstBaseline, last: layout.lastBaseline)
    }

    /// Distance from the top to the first line's baseline at the current width, in points (for
    /// `alignItems: .baselineFirst` in a stack). Any thread.
    public var firstBaseline: Double { textLayout.firstBaseline }
    /// Distance from the top to the last line's baseline at the current width, in points (for
    /// `alignItems: .baselineLast`). Any thread.
    public var lastBaseline: Double { textLayout.lastBaseline }

    struct Parameters: Sendable {
        /// The layout measured at the drawn width, or nil: the display job lays the text out
        /// from `inputs` (text is never shaped on the main thread for drawing).
        let prepared: TextLayout?
        let inputs: LayoutInputs
        let width: Double
        let shadow: Shadow?
        let highlight: [Rect]
    }

    /// Captures the measured layout (when it matches the node's width), the text inputs, the shadow
    /// and a touched link's highlight.
    open override func drawParameters() -> (any Sendable)? {
        let width = bounds.width
        let (inputs, cached) = layoutInputs(width: width)
        // A touched link's highlight needs its rects now; that is the only case measured here.
        let highlight = lock.withLock { _highlightedRange }.map { layout(forWidth: width).rects(for: $0) } ?? []
        return Parameters(prepared: cached, inputs: inputs, width: width, shadow: shadow, highlight: highlight)
    }

    /// Draws the link highlight, the shadow and the text, laying the text out here when no measured
    /// layout matched the width.
    open override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        guard let p = parameters as? Parameters else { return }
        let layout = p.prepared ?? p.inputs.layout(width: p.width)
        for r in p.highlight {
            context.canvas.fillRoundedRect(r.insetBy(dx: -2, dy: -1), cornerRadius: 3, with: .color(Color(white: 0, alpha: 0.15)))
        }
        if let s = p.shadow {
            // The shadow: the text in the shadow colour, blurred, offset.
            let pad = ceil(s.radius * 2)
            let size = Size(width: context.bounds.width + 2 * pad, height: context.bounds.height + 2 * pad)
            let layer = try Bitmap(size: size, scale: context.scale)
            // The same layout (truncation and all) in one colour.
            layout.draw(into: layer, at: Point(x: pad, y: pad), scale: context.scale, colorOverride: s.color)
            if isCancelled() { throw RasterError.cancelled }
            let blurred = s.radius > 0 ? try layer.blurred(radius: s.radius * context.scale, isCancelled: isCancelled) : layer
            context.canvas.draw(blurred, in: Rect(x: s.offset.x - pad, y: s.offset.y - pad, width: size.width, height: size.height),
                                contentMode: .scaleToFill, filter: .bilinear, imageScale: context.scale)
        }
        if isCancelled() { throw RasterError.cancelled }
        context.canvas.draw(layout, at: .zero)
    }

    /// Highlights the link range under a touch (set by the input model).
    func setHighlightedRange(_ range: Range<Int>?) {
        lock.withLock { _highlightedRange = range }
        setNeedsDisplay()
    }
}
