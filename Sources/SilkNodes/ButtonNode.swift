import Foundation
import SilkGeometry
import SilkLayout
import SilkRaster

/// A button: a title, an image and a background, each chosen by control state, laid out in a
/// stack (Texture's ASButtonNode).
///
/// It composes three subnodes — `titleNode` (a TextNode), `imageNode` and
/// `backgroundImageNode` (ImageNodes) — with `automaticallyManagesSubnodes`: only the parts
/// that have content are in the layout, and so in the tree. The subnodes do not take touches,
/// so the whole button is one hit target. A state change (touch, `isSelected`, `isEnabled`)
/// swaps the title, image, background image and background colour for the new state; each
/// swap only marks what changed, and the next node pass relayouts and redraws it.
///
/// For each part, the value for a combined state is looked up as: the exact state, then
/// `.disabled`, `.highlighted`, `.selected` (when in the state), then `.normal`.
open class ButtonNode: ControlNode, @unchecked Sendable {
    /// Where content sits along an axis of the button.
    public enum ContentAlignment: Hashable, Sendable {
        /// At the leading edge (left, or top), inside `contentEdgeInsets`.
        case start
        /// Centred (the default on both axes).
        case center
        /// At the trailing edge (right, or bottom), inside `contentEdgeInsets`.
        case end
    }
    /// Whether the image comes before or after the title.
    public enum ImagePosition: Hashable, Sendable {
        /// The image left of the title (above it when stacked vertically); the default.
        case beforeTitle
        /// The image right of the title (below it when stacked vertically).
        case afterTitle
    }

    /// Shows the title for the current state. Configure its other properties (maximum lines,
    /// truncation) directly; its text is replaced on every state change.
    public let titleNode = TextNode()
    /// Shows the image for the current state, aspect-fitted, without a placeholder.
    public let imageNode = ImageNode()
    /// Shows the background image for the current state, stretched over the whole button (upscaled
    /// if needed), behind the content.
    public let backgroundImageNode = ImageNode()

    private var _titles: [ControlState: AttributedText] = [:]
    private var _images: [ControlState: Bitmap] = [:]
    private var _backgroundImages: [ControlState: Bitmap] = [:]
    private var _backgroundColors: [ControlState: Color] = [:]
    private var _contentSpacing = 8.0
    private var _laysOutHorizontally = true
    private var _contentHorizontalAlignment: ContentAlignment = .center
    private var _contentVerticalAlignment: ContentAlignment = .center
    private var _contentEdgeInsets: EdgeInsets = .zero
    private var _imagePosition: ImagePosition = .beforeTitle
    /// What the subnodes show now (so unchanged parts are not invalidated).
    private var _shown = Shown()

    private struct Shown {
        var title: AttributedText?
        var image: Bitmap?
        var background: Bitmap?
        var backgroundColor: Color?
        var hasAppliedColor = false
    }

    /// Creates an empty button; give it a title or an image per state, and listen with
    /// `addTarget(for:_:)` (usually `.primaryActionTriggered`). Any thread.
    public override init() {
        super.init()
        for n in [titleNode, imageNode, backgroundImageNode] as [DisplayNode] { n.isUserInteractionEnabled = false }
        titleNode.style.flexShrink = 1
        imageNode.placeholderEnabled = false
        imageNode.contentMode = .aspectFit
        backgroundImageNode.placeholderEnabled = false
        backgroundImageNode.contentMode = .scaleToFill
        backgroundImageNode.forceUpscaling = true
        automaticallyManagesSubnodes = true
    }

    // MARK: Content per state

    /// Sets the title shown in `state` (nil removes it, and the state falls back: `.disabled`,
    /// `.highlighted`, `.selected` when in them, then `.normal`). Any thread.
    public func setAttributedTitle(_ title: AttributedText?, for state: ControlState = .normal) {
        lock.withLock { _titles[state] = title }
        updateContent()
    }
    /// Sets a plain title in `attributes` (default: 16 pt, black). Any thread.
    public func setTitle(_ title: String?, attributes: TextAttributes = TextAttributes(), for state: ControlState = .normal) {
        setAttributedTitle(title.map { AttributedText($0, attributes: attributes) }, for: state)
    }
    /// The title set for exactly `state`, without the fallback lookup (see `currentAttributedTitle`
    /// for what is shown).
    public func attributedTitle(for state: ControlState) -> AttributedText? { lock.withLock { _titles[state] } }

    /// Sets the image shown in `state`, beside the title (nil removes it). Any thread.
    public func setImage(_ image: Bitmap?, for state: ControlState = .normal) {
        lock.withLock { _images[state] = image }
        updateContent()
    }
    /// The image set for exactly `state`, without the fallback lookup.
    public func image(for state: ControlState) -> Bitmap? { lock.withLock { _images[state] } }

    /// An image stretched over the whole button. Any thread.
    public func setBackgroundImage(_ image: Bitmap?, for state: ControlState = .normal) {
        lock.withLock { _backgroundImages[state] = image }
        updateContent()
    }
    /// The background image set for exactly `state`, without the fallback lookup.
    public func backgroundImage(for state: ControlState) -> Bitmap? { lock.withLock { _backgroundImages[state] } }

    /// The button's `backgroundColor` per state (a layer colour: no drawing). Once any is set, the
    /// state's colour replaces whatever `backgroundColor` was. Any thread.
    public func setBackgroundColor(_ color: Color?, for state: ControlState = .normal) {
        lock.withLock { _backgroundColors[state] = color }
        updateContent()
    }
    /// The background colour set for exactly `state`, without the fallback lookup.
    public func backgroundColor(for state: ControlState) -> Color? { lock.withLock { _backgroundColors[state] } }

    /// The title shown for the current state, after the fallback lookup. Any thread.
    public var currentAttributedTitle: AttributedText? {
        let state = self.state
        return lock.withLock { Self.resolve(_titles, in: state) }
    }

    // MARK: Layout options

    /// Space between the image and the title (points, default 8). Any thread.
    public var contentSpacing: Double {
        get { lock.withLock { _contentSpacing } }
        set { lock.withLock { _contentSpacing = newValue.isFinite ? max(0, newValue) : 0 }; setNeedsLayout() }
    }
    /// Image and title side by side (default) or stacked. Any thread.
    public var laysOutHorizontally: Bool {
        get { lock.withLock { _laysOutHorizontally } }
        set { lock.withLock { _laysOutHorizontally = newValue }; setNeedsLayout() }
    }
    /// Where the image and title sit horizontally inside `contentEdgeInsets` (default centre). Any
    /// thread.
    public var contentHorizontalAlignment: ContentAlignment {
        get { lock.withLock { _contentHorizontalAlignment } }
        set { lock.withLock { _contentHorizontalAlignment = newValue }; setNeedsLayout() }
    }
    /// Where the image and title sit vertically inside `contentEdgeInsets` (default centre). Any
    /// thread.
    public var contentVerticalAlignment: ContentAlignment {
        get { lock.withLock { _contentVerticalAlignment } }
        set { lock.withLock { _contentVerticalAlignment = newValue }; setNeedsLayout() }
    }
    /// Space between the button's edges and its content. In points. Any thread.
    public var contentEdgeInsets: EdgeInsets {
        get { lock.withLock { _contentEdgeInsets } }
        set { lock.withLock { _contentEdgeInsets = newValue }; setNeedsLayout() }
    }
    /// Whether the image comes before the title (default) or after it. Any thread.
    public var imagePosition: ImagePosition {
        get { lock.withLock { _imagePosition } }
        set { lock.withLock { _imagePosition = newValue }; setNeedsLayout() }
    }

    // MARK: State

    /// Swaps in the title, image, background image and colour of the new state. Subclasses that
    /// override it call `super`.
    open override func stateDidChange() {
        super.stateDidChange()
        updateContent()
    }

    static func resolve<T>(_ table: [ControlState: T], in state: ControlState) -> T? {
        if let v = table[state] { return v }
        for single in [ControlState.disabled, .highlighted, .selected] where state.contains(single) {
            if let v = table[single] { return v }
        }
        return table[.normal]
    }

    /// Shows the parts for the current state, touching only those that changed.
    private func updateContent() {
        setDefaultAccessibilityLabel(currentAttributedTitle.map(\.string).flatMap { $0.isEmpty ? nil : $0 })
        let state = self.state
        let (title, image, background, color, hasColors, changed) = lock.withLock {
            () -> (AttributedText?, Bitmap?, Bitmap?, Color?, Bool, (title: Bool, image: Bool, background: Bool, color: Bool)) in
            let title = Self.resolve(_titles, in: state)
            let image = Self.resolve(_images, in: state)
            let background = Self.resolve(_backgroundImages, in: state)
            let color = Self.resolve(_backgroundColors, in: state)
            let changed = (title: title != _shown.title, image: image !== _shown.image,
                           background: background !== _shown.background,
                           color: !_shown.hasAppliedColor || _shown.backgroundColor != color)
            _shown = Shown(title: title, image: image, background: background, backgroundColor: color,
                           hasAppliedColor: !_backgroundColors.isEmpty)
            return (title, image, background, color, !_backgroundColors.isEmpty, changed)
        }
        if changed.title { titleNode.attributedText = title ?? AttributedText() }
        if changed.image { imageNode.image = image }
        if changed.background { backgroundImageNode.image = background }
        if changed.color && hasColors { backgroundColor = color }
        // Parts that appear or disappear change the spec.
        if changed.title || changed.image || changed.background { setNeedsLayout() }
    }

    /// A stack of the image and title (the parts that have content), inset by `contentEdgeInsets`,
    /// over the background image.
    open override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        let o = lock.withLock {
            (title: _shown.title.map { !$0.isEmpty } ?? false, image: _shown.image != nil, background: _shown.background != nil,
             spacing: _contentSpacing, horizontal: _laysOutHorizontally, h: _contentHorizontalAlignment,
             v: _contentVerticalAlignment, insets: _contentEdgeInsets, imagePosition: _imagePosition)
        }
        var children: [any LayoutElement] = []
        if o.image { children.append(imageNode) }
        if o.title { children.append(titleNode) }
        if o.imagePosition == .afterTitle { children.reverse() }
        func justify(_ a: ContentAlignment) -> StackJustifyContent {
            switch a { case .start: .start; case .center: .center; case .end: .end }
        }
        func align(_ a: ContentAlignment) -> StackAlignItems {
            switch a { case .start: .start; case .center: .center; case .end: .end }
        }
        let stack = StackLayoutSpec(direction: o.horizontal ? .horizontal : .vertical, spacing: .points(o.spacing),
                                    justifyContent: justify(o.horizontal ? o.h : o.v),
                                    alignItems: align(o.horizontal ? o.v : o.h), children: children)
        let content = InsetLayoutSpec(insets: o.insets, child: stack)
        return o.background ? BackgroundLayoutSpec(child: content, background: backgroundImageNode) : content
    }
}
