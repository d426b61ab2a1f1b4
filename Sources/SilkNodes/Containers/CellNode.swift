import Foundation
import SilkGeometry
import SilkLayout
import SilkRaster

/// One item of a `CollectionNode`, `TableNode` or `PagerNode` (Texture's ASCellNode): created
/// by the data source's node block on a background queue, measured there, and attached to the
/// container on the main thread while it is in the preload range.
///
/// A touch that begins on a cell highlights it; lifting it without scrolling selects it and
/// tells the container's delegate (`collection(_:didSelectItemAt:)`); a scroll that starts
/// under the finger cancels the highlight. Override `stateDidChange()` to show the states.
/// A cell is a transaction container: its subtree's contents appear in one frame; with
/// `neverShowPlaceholders` the pass waits for them instead of showing placeholders.
open class CellNode: DisplayNode, @unchecked Sendable {
    private var _isSelected = false
    private var _isHighlighted = false
    private weak var _container: CollectionNode?
    private var touchSource: Touch.Source?

    /// Creates a cell: a transaction container, so its subtree appears in one frame. Node blocks
    /// create cells on the container's background edit queue; any thread.
    public override init() {
        super.init()
        isTransactionContainer = true
        lock.withLock {
            _accessibility.isElement = true
            _accessibility.role = .listItem
            _accessibility.states = [.selectable]
        }
    }

    /// Whether the item is selected: set by the container (`selectItem`, `deselectItem`, a tap), or
    /// by the app. Any thread.
    public var isSelected: Bool {
        get { lock.withLock { _isSelected } }
        set {
            let changed = lock.withLock { () -> Bool in defer { _isSelected = newValue }; return _isSelected != newValue }
            if changed { setAccessibilityStates(.selected, newValue); stateDidChange() }
        }
    }
    /// Whether a touch is down on the cell; set by touch tracking on the main thread. Any thread
    /// may read it.
    public var isHighlighted: Bool {
        get { lock.withLock { _isHighlighted } }
        set {
            let changed = lock.withLock { () -> Bool in defer { _isHighlighted = newValue }; return _isHighlighted != newValue }
            if changed { stateDidChange() }
        }
    }

    /// Called after `isSelected` or `isHighlighted` changed, on the thread that changed it.
    open func stateDidChange() {}

    /// The container showing this cell, while it is attached. Any thread.
    public var container: CollectionNode? { lock.withLock { _container } }
    func setContainer(_ c: CollectionNode?) { lock.withLock { _container = c } }

    /// The cell's current item path in its container (main thread), nil when detached.
    public var itemPath: ItemPath? { container?.itemPath(for: self) }

    // MARK: Touches (main thread)

    /// Takes the touch and highlights the cell when its container allows selection.
    open override func touchesBegan(_ touches: [Touch], with event: InputEvent) -> Bool {
        guard let t = touches.first, let c = container, c.allowsSelection, touchSource == nil else { return false }
        touchSource = t.source
        isHighlighted = true
        return true
    }
    /// Highlighted while the finger is within the cell's bounds.
    open override func touchesMoved(_ touches: [Touch], with event: InputEvent) {
        guard let t = touches.first(where: { $0.source == touchSource }) else { return }
        isHighlighted = bounds.contains(t.location(in: self))
    }
    /// Lifting within the bounds selects the item and tells the container's delegate.
    open override func touchesEnded(_ touches: [Touch], with event: InputEvent) {
        guard let t = touches.first(where: { $0.source == touchSource }) else { return }
        touchSource = nil
        isHighlighted = false
        if bounds.contains(t.location(in: self)), let c = container, let path = c.itemPath(for: self) {
            c.selectItem(at: path, notifyingDelegate: true)
        }
    }
    /// Drops the highlight (a scroll took the touch over).
    open override func touchesCancelled(_ touches: [Touch], with event: InputEvent?) {
        touchSource = nil
        isHighlighted = false
    }
}

/// A cell that shows a text node (the simplest table row).
public final class TextCellNode: CellNode, @unchecked Sendable {
    /// Shows the row's text; configure it (maximum lines, truncation) directly.
    public let textNode = TextNode()
    /// Space around the text in points (default 10 top and bottom, 16 at the sides). Set it before
    /// the cell is measured: it is not locked, and changing it does not relayout.
    public var insets = EdgeInsets(top: 10, left: 16, bottom: 10, right: 16)

    /// Creates a row showing `text`. Any thread (node blocks run on a background queue).
    public init(text: AttributedText) {
        super.init()
        textNode.attributedText = text
        textNode.isUserInteractionEnabled = false
        addSubnode(textNode)
    }

    /// The text node inset by `insets`.
    public override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        InsetLayoutSpec(insets: insets, child: textNode)
    }
}
