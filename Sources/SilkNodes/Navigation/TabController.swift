import Foundation
import SilkGeometry
import SilkLayout
import SilkRaster

/// Screens side by side behind a tab bar along the bottom (UIKit's `UITabBarController`): one
/// tab's screen is shown, the others are hidden and release their contents (see
/// `NodeController`). The bar has one button per tab, titled with the tab controller's `title`;
/// tapping one — or `select(_:)` — switches, with `transition` (default `.instant`).
///
/// Main thread only (see `NodeController`).
public final class TabController: NodeController, @unchecked Sendable {
    /// The tabs' controllers, in bar order. Main thread.
    public let tabs: [NodeController]
    /// The index of the tab shown. Main thread.
    public private(set) var selectedIndex: Int
    /// The transition used by `select` when it names none, and by the bar's buttons (default
    /// `NoTransition()`). Main thread.
    public var defaultTransition: any TransitionAnimator = NoTransition()
    /// How transitions wait for their end (the main loop's timers; tests pass their own). Main
    /// thread.
    public var timer: TransitionTimer {
        get { runner.timer }
        set { runner.timer = newValue }
    }
    /// The tab bar's buttons, one per tab (style them freely: titles, colours). Main thread.
    public let buttons: [ButtonNode]
    /// Height of the tab bar in points (default 56). Main thread.
    public var barHeight: Double = 56 {
        didSet { bar.style.height = .points(barHeight.isFinite ? max(0, barHeight) : 56) }
    }
    /// Colour of the selected tab's title. Main thread.
    public var selectedTitleColor = Color(red: 0.1, green: 0.35, blue: 0.75) { didSet { updateButtons() } }
    /// Colour of the other tabs' titles. Main thread.
    public var titleColor = Color(white: 0.35) { didSet { updateButtons() } }

    let content = ScreenContainerNode()
    let bar = DisplayNode()
    private let runner = TransitionRunner(timer: .mainLoop)

    /// Tabs for `tabs` (at least one), showing `selectedIndex` (clamped) first. An empty list gets
    /// one empty screen, so the controller is always usable; the error is logged. Main thread.
    public init(tabs: [NodeController], selectedIndex: Int = 0) {
        var list = tabs
        if list.isEmpty {
            logger.error("TabController needs at least one tab; showing an empty screen")
            list = [NodeController(node: DisplayNode())]
        }
        self.tabs = list
        self.selectedIndex = min(max(0, selectedIndex), list.count - 1)
        buttons = list.map { _ in ButtonNode() }
        let root = DisplayNode()
        root.name = "tabs"
        super.init(node: root)
        content.name = "tab content"
        content.owner = self
        content.style.flexGrow = 1
        content.style.flexShrink = 1
        content.style.flexBasis = .points(0)
        bar.name = "tab bar"
        bar.backgroundColor = Color(white: 0.97)
        bar.borderColor = Color(white: 0.85)
        bar.borderWidth = 1
        root.addSubnode(content)
        root.addSubnode(bar)
        for (i, tab) in list.enumerated() {
            adopt(tab)
            content.add(tab.node, shown: i == self.selectedIndex)
            let button = buttons[i]
            button.name = "tab \(tab.title ?? String(i))"
            button.style.flexGrow = 1
            button.style.flexBasis = .points(0)
            bar.addSubnode(button)
            button.addTarget(for: .touchUpInside) { [weak self] _, _ in
                self?.select(i)
            }
        }
        let buttons = self.buttons
        bar.layoutSpecBlock = { _, _ in
            StackLayoutSpec(direction: .horizontal, alignItems: .stretch, children: buttons)
        }
        bar.style.height = .points(barHeight)
        root.layoutSpecBlock = { node, _ in
            StackLayoutSpec(direction: .vertical, alignItems: .stretch, children: node.subnodes)
        }
        updateButtons()
    }

    /// The selected tab receives this controller's appearance calls.
    public override var visibleChildren: [NodeController] { [tabs[selectedIndex]] }

    /// The controller of the tab shown. Main thread.
    public var selectedController: NodeController { tabs[selectedIndex] }

    /// Shows tab `index` with `transition` (default `defaultTransition`). Returns false — and logs
    /// — for an index out of range; selecting the shown tab does nothing. A running switch is
    /// finished first. Main thread.
    @discardableResult
    public func select(_ index: Int, transition: (any TransitionAnimator)? = nil) -> Bool {
        guard tabs.indices.contains(index) else {
            logger.error("select tab \(index): out of range 0..<\(tabs.count); ignored")
            return false
        }
        runner.finishNow()
        guard index != selectedIndex else { return true }
        let from = tabs[selectedIndex], to = tabs[index]
        selectedIndex = index
        updateButtons()
        let animator = transition ?? defaultTransition
        let duration = TransitionRunner.clamp(animator.duration)
        let forwards = appearanceState != .disappeared
        if forwards {
            from.beginAppearanceTransition(false, animated: duration > 0)
            to.beginAppearanceTransition(true, animated: duration > 0)
        }
        content.moveSubnode(to.node, to: Int.max)
        content.setShown(to.node, true)
        let context = TransitionContext(operation: .select, from: from, to: to, duration: duration, container: content)
        runner.run(animator, context: context) { [weak self] in
            guard let self else { return }
            for tab in self.tabs {
                self.content.setOffset(tab.node, .zero)
                tab.node.opacity = 1
                self.content.setShown(tab.node, tab === self.selectedController)
            }
            if forwards {
                from.endAppearanceTransition(animated: duration > 0)
                to.endAppearanceTransition(animated: duration > 0)
            }
        }
        return true
    }

    private func updateButtons() {
        for (i, button) in buttons.enumerated() {
            let selected = i == selectedIndex
            button.isSelected = selected
            button.setTitle(tabs[i].title ?? "Tab \(i + 1)",
                            attributes: TextAttributes(fontSize: 17, color: selected ? selectedTitleColor : titleColor))
        }
    }
}
