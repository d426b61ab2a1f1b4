import Foundation
import Testing
import SilkGeometry
import SilkInput
import SilkLayout
import SilkRender
import SilkSystem
@testable import SilkNodes

/// Transition ends fired by hand: `fire()` runs the ones still scheduled.
final class ManualTimer: @unchecked Sendable {
    private var pending: [(id: Int, body: () -> Void)] = []
    private var next = 0
    var timer: TransitionTimer {
        TransitionTimer { [self] _, body in
            next += 1
            let id = next
            pending.append((id, body))
            return { [self] in pending.removeAll { $0.id == id } }
        }
    }
    var count: Int { pending.count }
    func fire() {
        let due = pending
        pending = []
        for p in due { p.body() }
    }
}

/// A screen that records its appearance calls in a shared log.
final class LoggedScreen: NodeController, @unchecked Sendable {
    let log: Locked<[String]>
    init(_ name: String, log: Locked<[String]>, node: DisplayNode = DisplayNode()) {
        self.log = log
        super.init(node: node)
        title = name
        node.name = name
    }
    override func willAppear(animated: Bool) { log.withLock { $0.append("\(title!).willAppear") } }
    override func didAppear(animated: Bool) { log.withLock { $0.append("\(title!).didAppear") } }
    override func willDisappear(animated: Bool) { log.withLock { $0.append("\(title!).willDisappear") } }
    override func didDisappear(animated: Bool) { log.withLock { $0.append("\(title!).didDisappear") } }
}

/// A navigation stack shown as a window root would be, with a manual timer.
struct NavigationHarness {
    let nav: NavigationController
    let timer = ManualTimer()
    let harness: Harness
    let dispatcher: InputDispatcher
    let log = Locked<[String]>([])

    init(root: NodeController? = nil, size: Size = Size(width: 100, height: 60)) {
        let r = root ?? LoggedScreen("A", log: log)
        nav = NavigationController(root: r)
        nav.timer = timer.timer
        harness = Harness(root: nav.node, size: size)
        dispatcher = InputDispatcher(rootNode: nav.node)
        nav.beginAppearanceTransition(true, animated: false)
        nav.endAppearanceTransition(animated: false)
        harness.iterate()
        log.withLock { $0 = [] }
    }

    func screen(_ name: String) -> LoggedScreen { LoggedScreen(name, log: log) }
    var events: [String] { log.withLock { $0 } }
    func clearLog() { log.withLock { $0 = [] } }

    /// Every screen at rest: the top shown at offset zero and opacity 1, the others hidden and
    /// holding only the measure state; no transition animation left on a layer.
    func expectAtRest(_ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let c = nav.container
        #expect(!nav.isTransitioning, comment, sourceLocation: sourceLocation)
        #expect(c.isUserInteractionEnabled, comment, sourceLocation: sourceLocation)
        for ctrl in nav.controllers {
            let top = ctrl === nav.topController
            #expect(c.offset(of: ctrl.node) == .zero, comment, sourceLocation: sourceLocation)
            #expect(ctrl.node.opacity == 1, comment, sourceLocation: sourceLocation)
            #expect(ctrl.node.isHidden == !top, comment, sourceLocation: sourceLocation)
            #expect(ctrl.node.interfaceState == (top ? .inHierarchy : [.measureLayout]), comment, sourceLocation: sourceLocation)
            #expect(ctrl.appearanceState == (top ? .appeared : .disappeared), comment, sourceLocation: sourceLocation)
            #expect(ctrl.node.layer.map { $0.snapshot().animations.isEmpty } ?? true, comment, sourceLocation: sourceLocation)
        }
        #expect(c.subnodes.count == nav.controllers.count, "no screen left behind", sourceLocation: sourceLocation)
    }
}

@Suite(.serialized) struct NavigationTests {
    init() { NodeScheduler.shared.synchronousDisplay = true }

    @Test func pushAndPopDeliverAppearanceInOrderAndEndAtRest() {
        let h = NavigationHarness()
        let b = h.screen("B")
        h.nav.push(b)
        #expect(h.events == ["A.willDisappear", "B.willAppear"])
        #expect(h.nav.isTransitioning)
        // During the slide both screens are shown; B's model is at rest, its layer animates.
        #expect(!h.nav.controllers[0].node.isHidden && !b.node.isHidden)
        #expect(b.node.layer?.snapshot().animations.isEmpty == false)
        h.harness.iterate()
        h.timer.fire()
        #expect(h.events == ["A.willDisappear", "B.willAppear", "A.didDisappear", "B.didAppear"])
        h.expectAtRest()
        h.clearLog()
        #expect(h.nav.pop() === b)
        h.timer.fire()
        #expect(h.events == ["B.willDisappear", "A.willAppear", "B.didDisappear", "A.didAppear"])
        #expect(b.node.supernode == nil && b.parent == nil && b.node.interfaceState == [])
        h.expectAtRest()
    }

    @Test func popOnARootOnlyStackIsANoOp() {
        let h = NavigationHarness()
        #expect(h.nav.pop() == nil)
        #expect(h.nav.popToRoot().isEmpty)
        #expect(h.nav.handleBack() == false)
        #expect(h.events.isEmpty)
        h.nav.replace(with: [])                       // refused, logged
        let a = h.nav.topController
        h.nav.push(a)                                 // already on the stack: refused
        #expect(h.nav.controllers.count == 1)
        h.expectAtRest()
    }

    @Test func aSecondPushMidAnimationFinishesTheFirst() {
        let h = NavigationHarness()
        let b = h.screen("B"), c = h.screen("C")
        h.nav.push(b)
        h.harness.iterate()
        h.nav.push(c)                                 // interrupts B's slide
        #expect(h.nav.controllers[0].node.isHidden, "A is at rest, hidden")
        #expect(h.nav.container.offset(of: h.nav.controllers[0].node) == .zero)
        #expect(h.events == ["A.willDisappear", "B.willAppear", "A.didDisappear", "B.didAppear",
                             "B.willDisappear", "C.willAppear"])
        h.timer.fire()
        h.expectAtRest()
        // Interrupting a pop with a push, and popToRoot with a replace.
        h.nav.pop()
        h.nav.push(h.screen("D"))
        h.nav.popToRoot()
        h.nav.replace(with: [h.nav.controllers[0], h.screen("E")])
        h.timer.fire()
        #expect(h.nav.controllers.map(\.title) == ["A", "E"])
        h.expectAtRest()
    }

    @Test func escapeAndBackKeyPop() {
        let h = NavigationHarness()
        h.nav.push(h.screen("B"), transition: .instant)
        h.nav.push(h.screen("C"), transition: .fade)
        h.dispatcher.key(.escape, at: 1)
        h.timer.fire()
        #expect(h.nav.controllers.map(\.title) == ["A", "B"])
        h.dispatcher.key(.keysym(0x1008_FF26), at: 2)
        h.timer.fire()
        #expect(h.nav.controllers.map(\.title) == ["A"])
        h.dispatcher.key(.escape, at: 3)              // nothing left to pop
        h.expectAtRest()
    }

    /// With nothing focused, keys start at the window's root (the container): the shown screen
    /// still gets them, and the hidden one does not.
    @Test func keysReachTheShownScreenWithoutFocus() {
        final class KeyScreen: DisplayNode, @unchecked Sendable {
            let keys = Locked<[String]>([])
            override func keyDown(_ key: KeyInput) -> Bool { keys.withLock { $0.append("\(key.key)") }; return key.key == .right }
        }
        let homeNode = KeyScreen(), detailNode = KeyScreen()
        let log = Locked<[String]>([])
        let h = NavigationHarness(root: LoggedScreen("home", log: log, node: homeNode))
        let root = RootController(content: h.nav)
        let d = InputDispatcher(rootNode: root.node)
        d.key(.right, at: 1)
        #expect(homeNode.keys.withLock { $0 } == ["right"])
        h.nav.push(LoggedScreen("detail", log: log, node: detailNode), transition: .instant)
        d.key(.right, at: 2)
        #expect(detailNode.keys.withLock { $0 } == ["right"] && homeNode.keys.withLock { $0 }.count == 1)
        d.key(.escape, at: 3)
        #expect(h.nav.controllers.count == 1)
    }

    @Test func backSwipeReleasedBeforeHalfwaySlidesBackAndChangesNothing() {
        let h = NavigationHarness()
        let b = h.screen("B")
        h.nav.push(b, transition: .instant)
        h.harness.iterate()
        h.clearLog()
        let d = h.dispatcher
        d.down(3, 30, at: 1.0)
        d.move(20, 30, at: 1.05)
        #expect(h.nav.isTransitioning)
        d.move(40, 30, at: 1.10)                       // 40 % across
        #expect(h.nav.container.offset(of: b.node).x == 37)
        #expect(!h.nav.controllers[0].node.isHidden, "A shows under B during the swipe")
        d.move(42, 30, at: 1.40)                       // slow: no flick
        d.up(42, 30, at: 1.45)
        h.timer.fire()
        #expect(h.nav.controllers.map(\.title) == ["A", "B"])
        #expect(h.events == ["B.willDisappear", "A.willAppear", "A.willDisappear", "B.willAppear",
                             "A.didDisappear", "B.didAppear"])
        h.expectAtRest()
    }

    @Test func backSwipePastHalfwayPopsAndAPushMidSwipeCancelsIt() {
        let h = NavigationHarness()
        h.nav.push(h.screen("B"), transition: .instant)
        let d = h.dispatcher
        d.down(3, 30, at: 1.0)
        d.move(30, 30, at: 1.1)
        d.move(70, 30, at: 1.3)
        d.up(70, 30, at: 1.35)
        h.timer.fire()
        #expect(h.nav.controllers.map(\.title) == ["A"])
        h.expectAtRest()

        h.nav.push(h.screen("B2"), transition: .instant)
        d.down(3, 30, at: 2.0)
        d.move(30, 30, at: 2.1)
        #expect(h.nav.isTransitioning)
        h.nav.push(h.screen("C"))                      // the swipe is cancelled first
        #expect(h.nav.controllers.map(\.title) == ["A", "B2", "C"])
        d.move(60, 30, at: 2.2)                        // the finger goes on: nothing moves
        d.up(60, 30, at: 2.3)
        h.timer.fire()
        #expect(h.nav.controllers.map(\.title) == ["A", "B2", "C"])
        h.expectAtRest()
    }

    @Test func aSwipeAwayFromTheEdgeIsNotABackSwipe() {
        let h = NavigationHarness()
        h.nav.push(h.screen("B"), transition: .instant)
        let d = h.dispatcher
        d.down(50, 30, at: 1.0)
        d.move(90, 30, at: 1.1)
        d.up(90, 30, at: 1.2)
        #expect(h.nav.controllers.count == 2)
        h.expectAtRest()
    }

    /// Hidden screens shrink their collection's ranges: no item displays or preloads while the
    /// screen is covered, and they come back when it shows again.
    @Test func aHiddenControllersCollectionReleasesItsContents() {
        let log = Locked<[String]>([])
        let table = TableNode()
        let source = ModelDataSource([Array(0..<200)])
        table.dataSource = source
        table.delegate = source
        let home = LoggedScreen("home", log: log, node: table)
        let h = NavigationHarness(root: home, size: Size(width: 100, height: 100))
        func settle() {
            for _ in 0..<20 {
                h.harness.iterate()
                table.waitUntilAllUpdatesAreProcessed()
                h.harness.iterate()
                if NodeScheduler.shared.pendingBackgroundWork == 0 && !NodeScheduler.shared.hasWork(for: h.nav.node) { break }
            }
            // Display jobs run on the display queues (unless another suite made display
            // synchronous): wait for their results to be committed, not only for the pass's work.
            // Without this the check below failed once in a loaded parallel run.
            _ = h.harness.iterate(until: { h.harness.pass.isDisplayComplete })
        }
        settle()
        func displayed() -> [DisplayNode] { table.subnodes.filter { $0.interfaceState.contains(.display) } }
        func preloading() -> [DisplayNode] { table.subnodes.filter { $0.interfaceState.contains(.preload) } }
        #expect(displayed().count > 0)
        #expect(displayed().allSatisfy { $0.layer?.contents != nil })
        let shown = displayed()

        h.nav.push(h.screen("detail"), transition: .instant)
        settle()
        #expect(displayed().isEmpty && preloading().isEmpty)
        #expect(shown.allSatisfy { $0.layer?.contents == nil }, "bitmaps released")
        #expect(table.rangeController.currentMode == .minimum)

        h.nav.pop(transition: .instant)
        settle()
        #expect(displayed().count > 0)
        #expect(displayed().allSatisfy { $0.layer?.contents != nil })
    }

    @Test func tabsShowOneScreenAndRefuseBadIndices() {
        let log = Locked<[String]>([])
        let tabs = TabController(tabs: [LoggedScreen("one", log: log), LoggedScreen("two", log: log)])
        let timer = ManualTimer()
        tabs.timer = timer.timer
        let h = Harness(root: tabs.node, size: Size(width: 200, height: 100))
        tabs.beginAppearanceTransition(true, animated: false)
        tabs.endAppearanceTransition(animated: false)
        h.iterate()
        #expect(tabs.bar.frame == Rect(x: 0, y: 44, width: 200, height: 56))
        #expect(tabs.buttons.count == 2 && tabs.buttons[1].frame == Rect(x: 100, y: 0, width: 100, height: 56))
        #expect(tabs.tabs[0].node.frame == Rect(x: 0, y: 0, width: 200, height: 44))
        log.withLock { $0 = [] }
        #expect(tabs.select(1, transition: .fade))
        timer.fire()
        #expect(log.withLock { $0 } == ["one.willDisappear", "two.willAppear", "one.didDisappear", "two.didAppear"])
        #expect(tabs.tabs[0].node.isHidden && tabs.tabs[0].node.interfaceState == [.measureLayout])
        #expect(!tabs.tabs[1].node.isHidden && tabs.tabs[1].node.interfaceState == .inHierarchy)
        #expect(!tabs.select(7) && !tabs.select(-1))
        #expect(tabs.selectedIndex == 1)
        // A tap on the first tab's button switches back.
        let d = InputDispatcher(rootNode: tabs.node)
        let b = tabs.buttons[0].frame, y = tabs.bar.frame.minY + b.midY
        d.down(b.midX, y, at: 1); d.up(b.midX, y, at: 1.05)
        #expect(tabs.selectedIndex == 0)
    }

    @Test func modalsDismissByTapOutsideAndEscapeNotByTapInside() {
        let log = Locked<[String]>([])
        let nav = NavigationController(root: LoggedScreen("home", log: log))
        let root = RootController(content: nav)
        let timer = ManualTimer()
        root.timer = timer.timer
        let h = Harness(root: root.node, size: Size(width: 200, height: 100))
        root.beginAppearanceTransition(true, animated: false)
        root.endAppearanceTransition(animated: false)
        let d = InputDispatcher(rootNode: root.node)
        let dialogNode = DisplayNode()
        dialogNode.style.width = .points(80)
        dialogNode.style.height = .points(40)
        let about = LoggedScreen("about", log: log, node: dialogNode)
        #expect(nav.present(about))                   // through the root controller
        #expect(!root.present(about), "already shown: refused")
        h.iterate()
        timer.fire()
        #expect(dialogNode.frame == Rect(x: 60, y: 30, width: 80, height: 40), "centred")
        #expect(about.appearanceState == .appeared && nav.appearanceState == .appeared)
        d.down(100, 50, at: 1); d.up(100, 50, at: 1.05)   // inside: stays
        #expect(root.presentedControllers.count == 1)
        d.down(10, 10, at: 2); d.up(10, 10, at: 2.05)     // the backdrop: dismissed
        #expect(root.presentedControllers.isEmpty)
        timer.fire()
        #expect(about.appearanceState == .disappeared && dialogNode.supernode == nil)
        #expect(root.container.subnodes.count == 1, "backdrop removed")

        let sheetNode = DisplayNode()
        sheetNode.style.height = .points(30)
        let sheet = LoggedScreen("sheet", log: log, node: sheetNode)
        root.present(sheet, style: .sheet)
        h.iterate()
        root.present(LoggedScreen("over", log: log), style: .dialog)  // interrupts the slide
        #expect(root.container.offset(of: sheetNode) == .zero)
        timer.fire()
        h.iterate()
        #expect(sheetNode.frame == Rect(x: 0, y: 70, width: 200, height: 30), "along the bottom")
        d.key(.escape, at: 3)
        d.key(.escape, at: 4)
        timer.fire()
        #expect(root.presentedControllers.isEmpty)
        #expect(!root.dismiss(), "nothing to dismiss")
        d.key(.escape, at: 5)                         // no modal, nothing to pop
        #expect(nav.controllers.count == 1)
    }
}
