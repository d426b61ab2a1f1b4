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

    public override init() {
        super.init()
        isTransactionContainer = true
    }

    public var isSelected: Bool {
        get { lock.withLock { _isSelected } }
        set {
            let changed = lock.withLock { () -> Bool in defer { _isSelected = newValue }; return _isSelected != newValue }
            if changed { stateDidChange() }
        }
    }
    public var isHighlighted: Bool {
        get { lock.withLock { _isHighlighted } }
        set {
            let changed = lock.withLock { () -> Bool in defer { _isHighlighted = newValue }; return _isHighlighted != newValue }
            if changed { stateDidChange() }
        }
    }

    /// Called after `isSelected` or `isHighlighted` changed, on the thread that changed it.
    open func stateDidChange() {}

    /// The container showing this cell, while it is attached.
    public var container: CollectionNode? { lock.withLock { _container } }
    func setContainer(_ c: CollectionNode?) { lock.withLock { _container = c } }

    /// The cell's current item path in its container (main thread), nil when detached.
    public var itemPath: ItemPath? { container?.itemPath(for: self) }

    // MARK: Touches (main thread)

    open override func touchesBegan(_ touches: [Touch], with event: InputEvent) -> Bool {
        guard let t = touches.first, let c = container, c.allowsSelection, touchSource == nil else { return false }
        touchSource = t.source
        isHighlighted = true
        return true
    }
    open override func touchesMoved(_ touches: [Touch], with event: InputEvent) {
        guard let t = touches.first(where: { $0.source == touchSource }) else { return }
        isHighlighted = bounds.contains(t.location(in: self))
    }
    open override func touchesEnded(_ touches: [Touch], with event: InputEvent) {
        guard let t = touches.first(where: { $0.source == touchSource }) else { return }
        touchSource = nil
        isHighlighted = false
        if bounds.contains(t.location(in: self)), let c = container, let path = c.itemPath(for: self) {
            c.selectItem(at: path, notifyingDelegate: true)
        }
    }
    open override func touchesCancelled(_ touches: [Touch], with event: InputEvent?) {
        touchSource = nil
        isHighlighted = false
    }
}

/// A cell that shows a text node (the simplest table row).
public final class TextCellNode: CellNode, @unchecked Sendable {
    public let textNode = TextNode()
    public var insets = EdgeInsets(top: 10, left: 16, bottom: 10, right: 16)

    public init(text: AttributedText) {
        super.init()
        textNode.attributedText = text
        textNode.isUserInteractionEnabled = false
        addSubnode(textNode)
    }

    public override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        InsetLayoutSpec(insets: insets, child: textNode)
    }
}
