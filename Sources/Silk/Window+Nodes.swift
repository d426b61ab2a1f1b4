import SilkGeometry
import SilkNodes
import SilkRender
import SilkRunLoop

extension Window {
    /// Delivers an input event from a presenter to the node tree (main thread), and re-arms the
    /// one timer that serves the dispatcher's next gesture deadline (long press, key repeat).
    @MainActor
    public func handle(_ event: InputEvent) {
        guard let dispatcher = inputDispatcher as? InputDispatcher else { return }
        dispatcher.handle(event)
        armInputDeadline(dispatcher)
    }

    /// One pending timer at most: each event replaces the previous deadline's timer.
    @MainActor
    private func armInputDeadline(_ dispatcher: InputDispatcher) {
        let loop = EventLoop.main
        if let token = inputDeadlineTimer as? TimerToken { loop.cancelTimer(token) }
        inputDeadlineTimer = nil
        guard let deadline = dispatcher.nextDeadline else { return }
        let delay = max(0, deadline - InputClock.now)
        inputDeadlineTimer = loop.addTimer(after: .nanoseconds(Int64(delay * 1e9))) { [weak self] in
            dispatcher.tick(now: InputClock.now)
            MainActor.assumeIsolated {
                self?.inputDeadlineTimer = nil
                self?.armInputDeadline(dispatcher)
            }
        }
    }

    /// Lays the node tree out at the window's new size; at a new scale every node redraws, so
    /// text and images are rasterized at the new device pixels.
    func resizeNodes(scaleChanged: Bool) {
        guard let pass = nodePass as? NodePass else { return }
        pass.size = size
        pass.scale = scale
        guard scaleChanged else { return }
        func redraw(_ node: DisplayNode) {
            node.setNeedsDisplay()
            for n in node.subnodes { redraw(n) }
        }
        redraw(pass.rootNode)
    }

    /// Shows `node` filling the window. The node tree then drives the layer tree: the main loop
    /// runs the node pass (`NodePass.observerOrder`), then the transaction committer
    /// (`TransactionCommitter.observerOrder`), then the window's layer commit.
    @MainActor
    public func setRootNode(_ node: DisplayNode) {
        let loop = EventLoop.main
        let wake: @Sendable () -> Void = { loop.wakeUp() }
        NodeScheduler.shared.wakeUp = wake
        TransactionCommitter.shared.wakeUp = wake
        let pass = NodePass(rootNode: node, hostLayer: rootLayer, size: size, scale: scale)
        nodePass = pass
        // Input: presenters hand their events to `inputDispatcher`; its gesture deadlines
        // (long press, key repeat) are served by a loop timer armed after each event.
        inputDispatcher = InputDispatcher(rootNode: node)
        loop.addObserver(.beforeWaiting, order: NodePass.observerOrder) { _ in pass.run() }
        loop.addObserver(.beforeWaiting, order: TransactionCommitter.observerOrder) { _ in
            TransactionCommitter.shared.commit()
        }
    }
}
