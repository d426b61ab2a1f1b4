import Foundation
import SilkGeometry
import SilkLayout
import SilkRaster
import SilkRender
import SilkSystem

/// One window's node runtime: its pass, run on the main loop as a `.beforeWaiting` observer at
/// `ObserverOrder.nodePass`, and its `TransactionCommitter` (`ObserverOrder.transactionCommit`),
/// both before the window's layer commit. A window owns exactly one; tests and tools may create
/// one over any layer and call `run()` and `committer.commit()` themselves.
///
/// In order: (1) blocks queued for the pass thread run; (2) if anything invalidated layout, the
/// root is laid out for the window size (cached per node, so unchanged subtrees cost a lookup)
/// and frames are applied — with `automaticallyManagesSubnodes`, subnodes follow the spec;
/// (3) the tree is walked: layers are created and ordered, node state is copied to them, and
/// nodes that need display and are in the display state get a display job — on a display queue,
/// or right here when drawing synchronously. Jobs under a transaction container share one
/// transaction; `neverShowPlaceholders` waits for its subtree's jobs before returning.
public final class NodePass {
    /// The tree's root: laid out to fill `size`, its layer added to `hostLayer`.
    public let rootNode: DisplayNode
    /// The layer the root node's layer is added to (the window's root layer). Main thread, like
    /// every layer.
    public let hostLayer: Layer
    /// The size the root node is laid out at, in points; a change relayouts the tree at the next
    /// pass. Pass thread.
    public var size: Size { didSet { if size != oldValue { NodeScheduler.shared.setNeedsLayout(root: rootNode) } } }
    /// Device pixels per point that display jobs draw at (`DisplayNode.displayScale` reads it).
    /// Pass thread; after a change, redraw the tree (`Window.resize(to:scale:)` does).
    public var scale: Double
    /// Publishes this tree's finished display work (`commit()` on the pass thread).
    public let committer = TransactionCommitter()
    /// How work reported from any thread (a dirty node, a finished transaction) asks the
    /// pass's loop for another iteration. The window sets it to wake the main loop.
    public var wakeUp: (@Sendable () -> Void)? {
        didSet { NodeScheduler.shared.wakeUp = wakeUp; committer.wakeUp = wakeUp }
    }
    /// Draws every display job on the pass thread during the pass instead of the display queues
    /// (the benchmark's `--sync` mode, and golden snapshots, like Texture's snapshot tests).
    /// Pass thread.
    public var synchronousDisplay = NodeScheduler.shared.synchronousDisplay

    /// Counters of what the pass did, for benchmarks, logs and tests.
    public struct Statistics: Sendable {
        /// Passes that found work (dirty nodes, layout or queued blocks).
        public var passes = 0
        /// Layouts of the root (the tree was invalidated or the size changed).
        public var layouts = 0
        /// Display jobs started, on the display queues or synchronously.
        public var jobsStarted = 0
        /// Of those, jobs drawn on the pass thread (`synchronousDisplay`).
        public var synchronousDraws = 0
        /// The last layout failure (a tree too deep to lay out), if any; the tree then keeps its
        /// previous frames.
        public var lastLayoutError: String?
    }
    /// What this pass has done so far. Pass thread.
    public private(set) var statistics = Statistics()
    /// The thread this pass last ran on (`run()` and `init` record it): work for its nodes runs
    /// inline there only (`NodeScheduler.isOnPassThread(for:)`). Locked: other threads read it
    /// to decide whether to queue.
    let thread = Locked<pthread_t>(pthread_self())

    /// Shows `rootNode` in `hostLayer` at `size` points and `scale`: creates the root's layer,
    /// gives the tree every interface state, asks for a layout, and makes the calling thread the
    /// pass thread. A `Window` creates one in `setRootNode`; tests and tools create their own and
    /// call `run()`. Main (pass) thread.
    public init(rootNode: DisplayNode, hostLayer: Layer, size: Size, scale: Double) {
        self.rootNode = rootNode
        self.hostLayer = hostLayer
        self.size = size
        self.scale = scale
        NodeScheduler.shared.adoptCurrentThreadAsPassThread(for: self)
        let layer = rootNode.loadLayer()
        rootNode.loadedBy = self
        hostLayer.addSublayer(layer)
        rootNode.frame = Rect(size: size)
        rootNode.setInterfaceState(.inHierarchy)
        NodeScheduler.shared.setNeedsLayout(root: rootNode)
    }

    /// Removes the tree from the host layer and forgets it: the window's root node was replaced.
    /// The nodes keep their state and can be shown again by another pass. Pass thread.
    public func detach() {
        unloadRecursively(rootNode)
        rootNode.loadedBy = nil
        rootNode.setInterfaceState([])
    }

    /// Whether everything this tree asked for is on its layers: no pass work (dirty nodes,
    /// layout, queued pass blocks, containers preparing items), no display job running and no
    /// finished transaction waiting for `committer.commit()`. Pass thread.
    public var isDisplayComplete: Bool {
        let scheduler = NodeScheduler.shared
        return !scheduler.hasWork(for: rootNode) && scheduler.pendingBackgroundWork == 0
            && committer.transactionsInFlight == 0 && !committer.hasPendingCommits
    }

    /// Whether `run()` has something to do: dirty nodes of this tree, layout, or queued pass
    /// blocks. Any thread.
    public var hasPendingWork: Bool { NodeScheduler.shared.hasWork(for: rootNode) }

    /// Declares the calling thread the pass thread: `performOnPassThread` work then runs inline
    /// on it (a test or tool driving nodes on its own thread; a window's pass does this itself
    /// on the main loop, and every pass again when it runs).
    public static func adoptCurrentThreadAsPassThread() {
        NodeScheduler.shared.adoptCurrentThreadAsPassThread()
    }

    /// Runs one pass if anything changed. Returns whether it did any work. Pass thread: the
    /// window's observer calls it each loop iteration.
    @discardableResult
    public func run() -> Bool {
        NodeScheduler.shared.adoptCurrentThreadAsPassThread(for: self)
        let work = NodeScheduler.shared.takeWork(root: rootNode, pass: self)
        guard !work.dirty.isEmpty || work.needsLayout || !work.blocks.isEmpty else { return false }
        statistics.passes += 1
        for block in work.blocks { block() }
        if work.needsLayout || rootNode.frame.size != size {
            layout()
        }
        // The blocks and the layout just run dirtied more nodes (items attached, frames moved):
        // they are this pass's work too.
        let dirty = work.dirty + NodeScheduler.shared.takeDirty(root: rootNode, pass: self)
        // Nodes that left this tree drop their layers.
        for node in dirty where node.rootNode !== rootNode && node.layer != nil {
            unloadRecursively(node)
        }
        walkDirty(dirty)
        return true
    }

    // MARK: Layout

    private func layout() {
        statistics.layouts += 1
        rootNode.frame = Rect(size: size)
        do {
            // The tree's default direction is the app's (LayoutDirection.applicationDefault).
            let layout = try rootNode.layoutThatFits(SizeRange(exactly: size),
                                                     context: LayoutContext(direction: .applicationDefault))
            NodePass.apply(layout, to: rootNode)
        } catch {
            // A tree too deep to lay out keeps its previous frames; the error is reported once.
            statistics.lastLayoutError = error.description
            logger.error("layout of \(rootNode.debugName) failed: \(error)")
        }
    }

    /// Sets the frames of `node`'s child nodes from its layout, then recurses into them.
    /// Containers call it for the items they position themselves. Main thread.
    static func apply(_ layout: Layout, to node: DisplayNode) {
        let children = layoutChildren(layout, of: node)
        if node.automaticallyManagesSubnodes {
            let wanted = children.map(\.0)
            // Subnodes a layout transition is fading out stay until it completes.
            // A scroll node's indicator is in no spec; it stays (above the content, which goes first).
            for existing in node.subnodes where !wanted.contains(where: { $0 === existing }) && !existing.isLeavingInTransition
                && !(existing is ScrollIndicatorNode) {
                existing.removeFromSupernode()
            }
            for (i, child) in wanted.enumerated() {
                if child.supernode !== node { node.insertSubnode(child, at: i) } else { node.moveSubnode(child, to: i) }
            }
        }
        for (child, sub, origin) in children {
            child.frame = Rect(origin: origin, size: sub.size)
            apply(sub, to: child)
        }
        node.layoutDidApply(layout)   // internal: containers place their items
        node.layoutDidFinish()        // public override point (editing, keyboard avoidance)
    }

    /// The nodes `layout` places directly under `node` (through any specs in between), with
    /// their sublayouts and origins in `node`'s coordinates (what `apply` collects; a layout
    /// transition needs them before applying).
    static func layoutChildren(_ layout: Layout, of node: DisplayNode) -> [(DisplayNode, Layout, Point)] {
        var children: [(DisplayNode, Layout, Point)] = []
        func collect(_ l: Layout, _ offset: Point) {
            for sub in l.sublayouts {
                let origin = Point(x: offset.x + sub.position.x, y: offset.y + sub.position.y)
                if let child = sub.element as? DisplayNode, child !== node {
                    children.append((child, sub, origin))
                } else {
                    collect(sub, origin)
                }
            }
        }
        collect(layout, .zero)
        return children
    }

    // MARK: Layers and display

    /// What one walk visits: the dirty nodes and the nodes on the way to them from the root
    /// (Texture applies pending state to the nodes that changed, not to the whole tree).
    private struct WalkPlan {
        var dirty: Set<ObjectIdentifier> = []
        var onPath: Set<ObjectIdentifier> = []
    }

    /// The first walk applies every node (the root's layer was made before any pass).
    private var walksWholeTree = true

    /// Counts nodes whose state the last walk applied to their layers (tests check that an
    /// unchanged subtree is not visited).
    private(set) var nodesAppliedInLastWalk = 0

    /// Walks from the root to the dirty nodes of this tree, applying their state to their
    /// layers and starting their display jobs; subtrees with nothing dirty are skipped. New
    /// nodes (no layer from this pass yet) and subtrees whose rasterization changed are walked
    /// whole.
    private func walkDirty(_ dirty: [DisplayNode]) {
        var plan = WalkPlan()
        for node in dirty where node.rootNode === rootNode {
            plan.dirty.insert(ObjectIdentifier(node))
            var up = node.supernode
            while let p = up, plan.onPath.insert(ObjectIdentifier(p)).inserted { up = p.supernode }
        }
        nodesAppliedInLastWalk = 0
        walk(rootNode, transaction: nil, insideRasterized: false, whole: walksWholeTree, plan: plan)
        walksWholeTree = false
    }

    /// Visits `node`: with `whole`, or when it is dirty or new, applies its state to its layer,
    /// orders its sublayers and starts its display job; then visits the children that are dirty,
    /// on the way to a dirty node, or new (all of them with `whole`).
    private func walk(_ node: DisplayNode, transaction: AsyncTransaction?, insideRasterized: Bool, whole: Bool, plan: WalkPlan) {
        if insideRasterized {
            // The rasterizing ancestor draws this node; it has no layer of its own.
            if node.layer != nil { node.unloadLayer() }
            node.setInHierarchy(true)
            node.walkedAsRasterizing = false
            for child in node.subnodes { walk(child, transaction: nil, insideRasterized: true, whole: true, plan: plan) }
            return
        }
        let rasterizes = node.rasterizesSubtree
        let isNew = node.layer == nil || node.loadedBy !== self
        let whole = whole || isNew || rasterizes != node.walkedAsRasterizing
        let children = node.subnodes
        // A child this pass has not shown yet needs its layer among this node's sublayers.
        let applies = whole || plan.dirty.contains(ObjectIdentifier(node))
            || (!rasterizes && children.contains { $0.loadedBy !== self })
        if applies {
            nodesAppliedInLastWalk += 1
            let layer = node.loadLayer()
            node.loadedBy = self
            node.setInHierarchy(true)
            node.walkedAsRasterizing = rasterizes
            node.applyStateToLayer()
            node.applyPendingAnimations()
            let wantedSublayers: [Layer] = rasterizes ? [] : children.map { $0.loadLayer() }
            if layer.sublayers.count != wantedSublayers.count || !zip(layer.sublayers, wantedSublayers).allSatisfy({ $0 === $1 }) {
                layer.setSublayers(wantedSublayers)
            }
        }

        // A container gathers its subtree's jobs into one transaction.
        var own: AsyncTransaction? = nil
        var current = transaction
        if current == nil && (node.isTransactionContainer || node.neverShowPlaceholders) {
            own = AsyncTransaction(committer: committer, container: node)
            current = own
        }
        if applies && (type(of: node).drawsContent || rasterizes) && node.needsDisplay && node.interfaceState.contains(.display) {
            startDisplay(node, transaction: current, rasterized: rasterizes)
        }
        for child in children {
            // A child's layer was loaded above (as a sublayer); `loadedBy` says whether this
            // pass has applied it yet.
            let id = ObjectIdentifier(child)
            if whole || rasterizes || child.loadedBy !== self || plan.dirty.contains(id) || plan.onPath.contains(id) {
                walk(child, transaction: current, insideRasterized: rasterizes, whole: whole, plan: plan)
            }
        }
        if let own {
            own.seal()
            if node.neverShowPlaceholders { _ = own.wait(timeout: 2) }
        }
    }

    private func startDisplay(_ node: DisplayNode, transaction: AsyncTransaction?, rasterized: Bool) {
        let size = node.bounds.size
        guard size.width > 0, size.height > 0, size.isValidExtent else { return }
        node.displayWillStart()
        node.clearNeedsDisplay()
        let sentinelValue = node.displaySentinel.increment()
        let sentinel = node.displaySentinel
        let scale = self.scale
        let work: DisplayWork = rasterized ? .tree(RasterizedTree.capture(node)) : .single(type(of: node), node.drawParameters())
        let isCancelled: @Sendable () -> Bool = { !sentinel.isCurrent(sentinelValue) }
        let t = transaction ?? AsyncTransaction(committer: committer)
        statistics.jobsStarted += 1
        t.addOperation()
        if !node.displaysAsynchronously || synchronousDisplay || isInSynchronousSubtree(node) {
            node.displayJobInFlight = nil
            statistics.synchronousDraws += 1
            let (bitmap, error) = work.render(size: size, scale: scale, isCancelled: isCancelled)
            t.complete(.init(node: node, sentinelValue: sentinelValue, contents: bitmap, scale: scale, error: error))
        } else {
            node.displayJobInFlight = sentinelValue
            DisplayQueuePool.shared.async(priority: node.drawingPriority) {
                let (bitmap, error) = isCancelled() ? (nil, nil) : work.render(size: size, scale: scale, isCancelled: isCancelled)
                t.complete(.init(node: node, sentinelValue: sentinelValue, contents: bitmap, scale: scale, error: error))
            }
        }
        if transaction == nil { t.seal() }
    }

    private func unloadRecursively(_ node: DisplayNode) {
        node.unloadLayer()
        node.setInHierarchy(false)
        for c in node.subnodes { unloadRecursively(c) }
    }

    // MARK: Synchronous display of a subtree

    /// The subtree `displaySynchronously(_:)` is drawing; its jobs run on the pass thread.
    private var synchronousSubtree: DisplayNode?

    private func isInSynchronousSubtree(_ node: DisplayNode) -> Bool {
        guard let root = synchronousSubtree else { return false }
        return node === root || node.isDescendant(of: root)
    }

    /// `DisplayNode.recursivelyEnsureDisplaySynchronously()`: runs the pass (layout, layers, the
    /// jobs it starts in `subtree` drawn here), redraws here what is still on a display queue or
    /// without contents in `subtree`, and commits. Pass thread.
    func displaySynchronously(_ subtree: DisplayNode) {
        synchronousSubtree = subtree
        defer { synchronousSubtree = nil }
        run()
        let transaction = AsyncTransaction(committer: committer)
        func visit(_ node: DisplayNode) {
            let rasterizes = node.rasterizesSubtree
            if (type(of: node).drawsContent || rasterizes) && node.interfaceState.contains(.display) && node.layer != nil {
                let inFlight = node.displayJobInFlight.map { node.displaySentinel.isCurrent($0) } ?? false
                if node.needsDisplay || !node.hasContents || inFlight {
                    startDisplay(node, transaction: transaction, rasterized: rasterizes)
                }
            }
            if !rasterizes { for child in node.subnodes { visit(child) } }
        }
        if subtree.rasterizingAncestor() == nil { visit(subtree) }
        transaction.seal()
        committer.commit()
    }
}

/// What a display job draws: one node, or a whole rasterized subtree.
enum DisplayWork: @unchecked Sendable {
    case single(DisplayNode.Type, (any Sendable)?)
    case tree(RasterizedTree)

    /// The drawn bitmap, or nil and why: a failure (the bitmap could not be allocated, the
    /// node's `draw` threw) is described for the committer to report; cancellation is silent.
    func render(size: Size, scale: Double, isCancelled: () -> Bool) -> (Bitmap?, failure: String?) {
        do {
            // Contents that need no drawing (an image already at the node's pixels) are shown
            // as they are: no second bitmap of the same pixels.
            if case let .single(drawer, params) = self, let ready = drawer.readyContents(parameters: params, size: size, scale: scale) {
                return (isCancelled() ? nil : ready, nil)
            }
            let bitmap = try Bitmap(size: size, scale: scale)
            let canvas = Canvas(bitmap: bitmap, scale: scale)
            switch self {
            case let .single(drawer, params):
                try drawer.draw(parameters: params, in: DrawContext(canvas: canvas, bounds: Rect(size: size), scale: scale),
                                isCancelled: isCancelled)
            case let .tree(tree):
                try tree.draw(in: canvas, scale: scale, isCancelled: isCancelled)
            }
            return (isCancelled() ? nil : bitmap, nil)
        } catch {
            // A job that throws shows nothing (or the placeholder); the next setNeedsDisplay
            // tries again. Cancellation is not a failure.
            if isCancelled() || (error as? RasterError) == .cancelled { return (nil, nil) }
            return (nil, "\(error)")
        }
    }
}

/// An immutable capture of a subtree for one rasterizing job (taken on the pass thread).
struct RasterizedTree: @unchecked Sendable {
    let frame: Rect
    let drawer: DisplayNode.Type
    let parameters: (any Sendable)?
    let backgroundColor: Color?
    let borderColor: Color?
    let borderWidth: Double
    let cornerRadius: Double
    let opacity: Double
    let clipsToBounds: Bool
    let isHidden: Bool
    let children: [RasterizedTree]

    static func capture(_ node: DisplayNode, isRoot: Bool = true) -> RasterizedTree {
        let f = node.frame
        return RasterizedTree(
            frame: isRoot ? Rect(size: f.size) : f, drawer: type(of: node),
            parameters: type(of: node).drawsContent ? node.drawParameters() : nil,
            backgroundColor: node.backgroundColor, borderColor: node.borderColor, borderWidth: node.borderWidth,
            cornerRadius: node.cornerRadius, opacity: isRoot ? 1 : node.opacity, clipsToBounds: node.clipsToBounds,
            isHidden: node.isHidden, children: node.subnodes.map { capture($0, isRoot: false) })
    }

    func draw(in canvas: Canvas, scale: Double, isCancelled: () -> Bool) throws {
        guard !isHidden, opacity > 0 else { return }
        if isCancelled() { throw RasterError.cancelled }
        try canvas.withSavedState {
            canvas.translate(x: frame.minX, y: frame.minY)
            canvas.multiplyOpacity(opacity)
            let bounds = Rect(size: frame.size)
            if let bg = backgroundColor {
                if cornerRadius > 0 { canvas.fillRoundedRect(bounds, cornerRadius: cornerRadius, with: .color(bg)) }
                else { canvas.fill(bounds, with: .color(bg)) }
            }
            if clipsToBounds { canvas.clip(to: bounds) }
            if drawer.drawsContent {
                try drawer.draw(parameters: parameters, in: DrawContext(canvas: canvas, bounds: bounds, scale: scale),
                                isCancelled: isCancelled)
            }
            for child in children { try child.draw(in: canvas, scale: scale, isCancelled: isCancelled) }
            if let bc = borderColor, borderWidth > 0 {
                canvas.strokeRoundedRect(bounds.insetBy(dx: borderWidth / 2, dy: borderWidth / 2),
                                         cornerRadius: max(0, cornerRadius - borderWidth / 2), lineWidth: borderWidth, with: .color(bc))
            }
        }
    }
}
