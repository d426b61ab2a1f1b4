import SilkGeometry
import SilkNodes
import SilkRender
import SilkRunLoop

extension Window {
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
        loop.addObserver(.beforeWaiting, order: NodePass.observerOrder) { _ in pass.run() }
        loop.addObserver(.beforeWaiting, order: TransactionCommitter.observerOrder) { _ in
            TransactionCommitter.shared.commit()
        }
    }
}
