import Foundation
import SilkGeometry
import SilkInput
import SilkLayout

/// Owns one screen: a root node and the appearance calls that go with showing and hiding it
/// (Texture's `ASDKViewController`). Containers — `NavigationController`, `TabController`,
/// `RootController` — own child controllers, place their nodes and forward appearance to the
/// children they show.
///
/// **Appearance.** `willAppear(animated:)`, `didAppear(animated:)`, `willDisappear(animated:)`
/// and `didDisappear(animated:)` run on the main loop, in that UIKit order, when a container
/// that is itself visible shows or hides the controller; an animated change brackets its
/// transition (will… when it starts, did… when it ends or is interrupted).
///
/// **Hidden screens release their contents.** A controller its container does not show is
/// hidden and its node tree keeps only the `measureLayout` interface state: display jobs are
/// cancelled and bitmaps released, preloading stops (network images cancel), and collection
/// and table nodes in it drop to the minimum range mode with empty ranges. Showing it again
/// gives the tree its states back and it redraws (during the transition that shows it).
///
/// **Threads.** Main thread only (the main loop's), like layers: create controllers anywhere,
/// but call every method and read every property on the main thread. The root node itself is an
/// ordinary node (configure it from any thread).
open class NodeController: @unchecked Sendable, CustomStringConvertible {
    /// The screen's root node: placed and sized by the container that shows the controller.
    public let node: DisplayNode
    /// A short name for the screen (tab bar items show it; logs and descriptions use it).
    public var title: String?

    /// Where the controller is in its appearance cycle.
    public enum AppearanceState: String, Hashable, Sendable {
        /// Not shown (initially, and after `didDisappear`).
        case disappeared
        /// Between `willAppear` and `didAppear`.
        case appearing
        /// Shown (after `didAppear`).
        case appeared
        /// Between `willDisappear` and `didDisappear`.
        case disappearing
    }
    /// The appearance state now. Main thread.
    public private(set) var appearanceState: AppearanceState = .disappeared
    /// Whether the controller is on screen or coming on screen (`appearing` or `appeared`). Main
    /// thread.
    public var isVisible: Bool { appearanceState == .appearing || appearanceState == .appeared }

    /// The container controller this one is a child of (nil for the window's root and for a
    /// controller in no container). Main thread.
    public internal(set) weak var parent: NodeController?
    /// The child controllers a container owns (empty for a plain screen). Main thread.
    public internal(set) var children: [NodeController] = []

    /// A controller for `node`. Any thread; use it on the main thread from then on.
    public init(node: DisplayNode) {
        self.node = node
    }

    // MARK: Override points (main thread)

    /// Main thread: the screen is about to come on screen (an animated transition starts now
    /// when `animated`).
    open func willAppear(animated: Bool) {}
    /// Main thread: the screen is on screen (its transition ended or was interrupted).
    open func didAppear(animated: Bool) {}
    /// Main thread: the screen is about to leave the screen.
    open func willDisappear(animated: Bool) {}
    /// Main thread: the screen left the screen; its node tree is hidden and has released its
    /// contents.
    open func didDisappear(animated: Bool) {}

    /// Main thread: the user tapped the backdrop outside this controller while it is the top
    /// presented modal (and `RootController.dismissesOnTapOutside` is true). Return true when the
    /// controller handled it itself (it dismisses itself as it sees fit); false lets the root
    /// controller dismiss it. Default false; an `AlertController` chooses its `.cancel` action.
    open func handleTapOutside() -> Bool { false }

    /// Main thread: the Back action (Escape, the Back key, a back button) reached this controller.
    /// Return true when it did something. Default: offers it to the children shown, topmost
    /// first. Navigation controllers pop; the root controller dismisses its top modal.
    open func handleBack() -> Bool {
        for child in visibleChildren.reversed() where child.handleBack() { return true }
        return false
    }

    /// The children a container shows now, which receive its appearance calls (default: none —
    /// a plain screen has no children). Main thread.
    open var visibleChildren: [NodeController] { [] }

    // MARK: Relations

    /// The nearest navigation controller this controller is in (itself when it is one). Main
    /// thread.
    public var navigationController: NavigationController? {
        var c: NodeController? = self
        while let current = c {
            if let nav = current as? NavigationController { return nav }
            c = current.parent
        }
        return nil
    }

    /// The root controller hosting this controller's tree (the one that presents modals). Main
    /// thread.
    public var rootController: RootController? {
        var c: NodeController? = self
        while let current = c {
            if let root = current as? RootController { return root }
            c = current.parent
        }
        return nil
    }

    /// The node that takes keyboard focus when this controller is presented as a modal (a
    /// dialog's default button); nil (the default): its first focusable node. Main thread.
    open var preferredFocusedNode: DisplayNode? { nil }

    /// Presents `controller` modally over the whole window, through the root controller of this
    /// controller's tree (`RootController.present`). Returns false — and logs why — when this
    /// controller is in no root controller's tree, or `controller` is already shown somewhere.
    /// Main thread.
    @discardableResult
    open func present(_ controller: NodeController, style: ModalStyle = .dialog, transition: (any TransitionAnimator)? = nil) -> Bool {
        guard let root = rootController else {
            logger.error("present \(controller): \(self) is in no RootController's tree; nothing presented")
            return false
        }
        return root.present(controller, style: style, transition: transition)
    }

    /// Dismisses this controller when it is presented modally (with its style's transition, or
    /// `transition`); on a `RootController`, its top modal. Returns false when there is nothing
    /// to dismiss. Main thread.
    @discardableResult
    open func dismiss(transition: (any TransitionAnimator)? = nil) -> Bool {
        guard let root = parent as? RootController else { return false }
        return root.dismiss(self, transition: transition)
    }

    // MARK: Appearance transitions

    /// Starts showing (`appearing` true) or hiding the controller: calls `willAppear` or
    /// `willDisappear` and forwards to the children shown. Containers call it for their children;
    /// a host showing a root controller (the window) calls it, then `endAppearanceTransition`.
    /// A call that changes nothing (appearing when already appearing) is ignored. Main thread.
    public func beginAppearanceTransition(_ appearing: Bool, animated: Bool) {
        if appearing {
            guard appearanceState == .disappeared || appearanceState == .disappearing else { return }
            appearanceState = .appearing
            willAppear(animated: animated)
        } else {
            guard appearanceState == .appeared || appearanceState == .appearing else { return }
            appearanceState = .disappearing
            willDisappear(animated: animated)
        }
        for child in visibleChildren { child.beginAppearanceTransition(appearing, animated: animated) }
    }

    /// Ends the transition `beginAppearanceTransition` started: `didAppear` or `didDisappear`,
    /// forwarded to the children shown. Main thread.
    public func endAppearanceTransition(animated: Bool = true) {
        let children = visibleChildren
        switch appearanceState {
        case .appearing:
            appearanceState = .appeared
            didAppear(animated: animated)
        case .disappearing:
            appearanceState = .disappeared
            didDisappear(animated: animated)
        case .appeared, .disappeared:
            return
        }
        for child in children { child.endAppearanceTransition(animated: animated) }
    }

    // MARK: Containment (containers)

    /// Makes `child` a child of this controller, for a container of your own that shows the
    /// child's node inside its own (UIKit's `addChild`): list it in `visibleChildren` while it is
    /// shown, and it gets this controller's appearance calls. Main thread.
    public func addChild(_ child: NodeController) { adopt(child) }

    /// Forgets `child` (UIKit's `removeFromParent`). Main thread.
    public func removeChild(_ child: NodeController) { release(child) }

    /// Makes `child` a child of this controller (removing it from a previous parent's list).
    func adopt(_ child: NodeController) {
        if let old = child.parent, old !== self { old.children.removeAll { $0 === child } }
        child.parent = self
        if !children.contains(where: { $0 === child }) { children.append(child) }
    }

    /// Forgets `child`.
    func release(_ child: NodeController) {
        children.removeAll { $0 === child }
        if child.parent === self { child.parent = nil }
    }

    /// The controller's title (or type) and its appearance state.
    open var description: String { "<\(title ?? String(describing: type(of: self))) \(appearanceState.rawValue)>" }
}

/// How a modal controller is shown over the window (`RootController.present`).
public enum ModalStyle: Hashable, Sendable {
    /// Centred at the size its layout asks for (at most 90 % of the window each way), over a
    /// dimmed backdrop; fades in. A tap on the backdrop or Escape dismisses it.
    case dialog
    /// Full width along the bottom edge at the height its layout asks for (at most 90 % of the
    /// window), over a dimmed backdrop; slides up. A tap above it or Escape dismisses it.
    case sheet
    /// A popover: at the size its layout asks for (at least `anchor`'s width), just below
    /// `anchor` — a rect in window coordinates, such as a dropdown's box — or above it when there
    /// is no room below, kept inside the window (`PopoverPlacement`). The backdrop is clear and
    /// fades in with it; a tap outside or Escape dismisses it.
    case popover(anchor: Rect)
}

/// The node of a container controller: it places each child screen's node itself (filling the
/// container, centred, or along the bottom), moved by the offset a transition gives it, and keeps
/// screens its controller does not show hidden with only the `measureLayout` interface state —
/// so they release their bitmaps and stop preloading. Escape and the Back key go to its
/// controller's `handleBack()`. Created by the container controllers; its placement methods are
/// main-thread only.
public final class ScreenContainerNode: DisplayNode, @unchecked Sendable {
    /// Where a child screen sits in the container.
    public enum Placement: Hashable, Sendable {
        /// The whole container (navigation and tab screens, a modal's backdrop).
        case fill
        /// Centred, at its layout's size up to 90 % of the container (a dialog).
        case centred
        /// Full width along the bottom edge, at its layout's height up to 90 % (a sheet).
        case bottom
        /// Under (or over) `anchor`, a rect in window coordinates, at its layout's size — at
        /// least the anchor's width — inside the container (a popover; `PopoverPlacement`).
        case anchored(Rect)
    }

    struct Slot {
        var placement: Placement
        var offset: Point = .zero
        var isShown: Bool
    }

    /// Guarded by `lock` (interface states may be set from any thread; placement is main-thread).
    private var slots: [ObjectIdentifier: Slot] = [:]
    /// The controller that handles Back and the edge swipe. Main thread.
    weak var owner: NodeController?

    override init() {
        super.init()
        clipsToBounds = true
    }

    /// Adds `child` on top, placed by `placement`, shown or hidden. Main thread.
    func add(_ child: DisplayNode, placement: Placement = .fill, shown: Bool) {
        lock.withLock { slots[ObjectIdentifier(child)] = Slot(placement: placement, isShown: shown) }
        child.isHidden = !shown
        if child.supernode !== self { addSubnode(child) }
        child.setInterfaceState(state(for: child))
        place(child)
    }

    /// Removes `child`: it leaves every interface state and releases its contents. Main thread.
    func remove(_ child: DisplayNode) {
        lock.withLock { _ = slots.removeValue(forKey: ObjectIdentifier(child)) }
        if child.supernode === self { child.removeFromSupernode() }
    }

    /// Shows or hides `child`; a hidden child keeps only `measureLayout`. Main thread.
    func setShown(_ child: DisplayNode, _ shown: Bool) {
        let changed = lock.withLock { () -> Bool in
            guard var slot = slots[ObjectIdentifier(child)], slot.isShown != shown else { return false }
            slot.isShown = shown
            slots[ObjectIdentifier(child)] = slot
            return true
        }
        child.isHidden = !shown
        if changed { child.setInterfaceState(state(for: child)) }
    }

    /// Whether `child` is shown. Main thread.
    func isShown(_ child: DisplayNode) -> Bool { lock.withLock { slots[ObjectIdentifier(child)]?.isShown ?? false } }

    /// The transition offset of `child` (zero at rest). Main thread.
    func offset(of child: DisplayNode) -> Point { lock.withLock { slots[ObjectIdentifier(child)]?.offset ?? .zero } }

    /// Moves `child` by `offset` from its resting place (a transition's model value). Main thread.
    func setOffset(_ child: DisplayNode, _ offset: Point) {
        let changed = lock.withLock { () -> Bool in
            guard var slot = slots[ObjectIdentifier(child)], slot.offset != offset else { return false }
            slot.offset = offset
            slots[ObjectIdentifier(child)] = slot
            return true
        }
        if changed { place(child) }
    }

    /// Where `child` sits at `offset`: its resting frame moved by the offset. Main thread.
    func frame(for child: DisplayNode, offset: Point? = nil) -> Rect {
        guard let slot = lock.withLock({ slots[ObjectIdentifier(child)] }) else { return child.frame }
        let size = bounds.size
        let off = offset ?? slot.offset
        switch slot.placement {
        case .fill:
            return Rect(origin: off, size: size)
        case let .anchored(windowAnchor):
            let m = PopoverPlacement.defaultMargin
            let maxSize = Size(width: max(0, size.width - 2 * m), height: max(0, size.height - 2 * m))
            // The anchor in the container's coordinates (the container may sit anywhere).
            let o = convert(windowAnchor.origin, from: nil)
            let anchor = Rect(origin: o, size: windowAnchor.size)
            let minWidth = anchor.width.isFinite ? min(max(0, anchor.width), maxSize.width) : 0
            let measured = (try? child.layoutThatFits(SizeRange(min: Size(width: minWidth, height: 0), max: maxSize),
                                                       context: LayoutContext(direction: layoutDirection)).size) ?? maxSize
            let placed = PopoverPlacement(size: measured, anchor: anchor, bounds: Rect(size: size),
                                          rightToLeft: layoutDirection == .rtl).frame
            return placed.offsetBy(dx: off.x, dy: off.y)
        case .centred, .bottom:
            let maxSize = Size(width: size.width * (slot.placement == .bottom ? 1 : 0.9), height: size.height * 0.9)
            let minSize = Size(width: slot.placement == .bottom ? maxSize.width : 0, height: 0)
            let measured = (try? child.layoutThatFits(SizeRange(min: minSize, max: maxSize), context: LayoutContext(direction: layoutDirection)).size) ?? maxSize
            let s = Size(width: min(measured.width, maxSize.width), height: min(measured.height, maxSize.height))
            let x = slot.placement == .bottom ? 0 : (size.width - s.width) / 2
            let y = slot.placement == .bottom ? size.height - s.height : (size.height - s.height) / 2
            return Rect(x: x + off.x, y: y + off.y, width: s.width, height: s.height)
        }
    }

    /// Gives `child` its frame and lays its tree out for it.
    private func place(_ child: DisplayNode) {
        guard bounds.width > 0, bounds.height > 0 else { return }
        let f = frame(for: child)
        child.frame = f
        if let layout = try? child.layoutThatFits(SizeRange(exactly: f.size), context: LayoutContext(direction: layoutDirection)) { NodePass.apply(layout, to: child) }
    }

    /// The interface state `child` gets: the container's own, or only `measureLayout` when hidden.
    private func state(for child: DisplayNode) -> InterfaceState {
        let own = interfaceState
        let shown = lock.withLock { slots[ObjectIdentifier(child)]?.isShown ?? true }
        return shown ? own : own.intersection(.measureLayout)
    }

    /// The container's own state applies to itself; each screen gets it, or only
    /// `measureLayout` when hidden (a range controller's rule for screens).
    override public func setInterfaceState(_ new: InterfaceState, recursively: Bool = true) {
        super.setInterfaceState(new, recursively: false)
        guard recursively else { return }
        for child in subnodes { child.setInterfaceState(state(for: child), recursively: true) }
    }

    /// Fills the room offered (like a scroll container; give it a bounded size).
    public override func calculateSizeThatFits(_ constrainedSize: Size) -> Size {
        Size(width: constrainedSize.width.isFinite ? constrainedSize.width : 0,
             height: constrainedSize.height.isFinite ? constrainedSize.height : 0)
    }

    override func layoutDidApply(_ layout: Layout) {
        for child in subnodes { place(child) }
        super.layoutDidApply(layout)
    }

    /// Escape and the Back key (XF86Back) go to the controller's `handleBack()`. Other keys are
    /// offered to the topmost shown screen: with no focused node, keys start at the window's root
    /// (this container) and go up, so without this a screen that handles keys itself (arrows on
    /// a dashboard) would never see them inside a container.
    public override func keyDown(_ key: KeyInput) -> Bool {
        if !key.isRepeat, key.key == .escape || key.key == .keysym(0x1008_FF26), owner?.handleBack() == true { return true }
        guard let top = subnodes.last(where: { isShown($0) }) else { return false }
        return top.keyDown(key)
    }

    /// Key releases follow the same path as `keyDown(_:)`.
    public override func keyUp(_ key: KeyInput) -> Bool {
        guard let top = subnodes.last(where: { isShown($0) }) else { return false }
        return top.keyUp(key)
    }
}
