import Foundation

/// Collects what changed between node passes: dirty nodes, trees that need layout, and work
/// that must run on the pass thread. Any thread may report; the pass thread (the main loop's,
/// or a test's) drains it. Reports wake the loop through `wakeUp`, so repeated changes coalesce
/// into one pass (YYTransaction's idea).
public final class NodeScheduler: @unchecked Sendable {
    public static let shared = NodeScheduler()

    private let lock = NodeLock()
    private var dirty: [ObjectIdentifier: DisplayNode] = [:]
    private var layoutRoots: [ObjectIdentifier: DisplayNode] = [:]
    private var passBlocks: [@Sendable () -> Void] = []
    private var passThread: pthread_t?
    private var _wakeUp: (@Sendable () -> Void)?
    private var _synchronousDisplay = false

    /// Called when there is work for a pass (set by the window to wake its event loop).
    public var wakeUp: (@Sendable () -> Void)? {
        get { lock.withLock { _wakeUp } }
        set { lock.withLock { _wakeUp = newValue } }
    }

    /// Forces every display job to run on the pass thread (the benchmark's `--sync` mode, and
    /// golden tests, like Texture's snapshot tests).
    public var synchronousDisplay: Bool {
        get { lock.withLock { _synchronousDisplay } }
        set { lock.withLock { _synchronousDisplay = newValue } }
    }

    /// Declares the calling thread the pass thread (the window does this on the main loop).
    public func adoptCurrentThreadAsPassThread() { lock.withLock { passThread = pthread_self() } }

    public var isOnPassThread: Bool {
        lock.withLock { passThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    func markDirty(_ node: DisplayNode) {
        let wake = lock.withLock { () -> (@Sendable () -> Void)? in
            let isNew = dirty.updateValue(node, forKey: ObjectIdentifier(node)) == nil
            return isNew ? _wakeUp : nil
        }
        wake?()
    }

    func setNeedsLayout(root: DisplayNode) {
        let wake = lock.withLock { () -> (@Sendable () -> Void)? in
            layoutRoots[ObjectIdentifier(root)] = root
            return _wakeUp
        }
        wake?()
    }

    func performOnPassThread(_ body: @escaping @Sendable () -> Void) {
        if isOnPassThread { body(); return }
        let wake = lock.withLock { () -> (@Sendable () -> Void)? in passBlocks.append(body); return _wakeUp }
        wake?()
    }

    /// True when a pass has something to do.
    public var hasWork: Bool { lock.withLock { !dirty.isEmpty || !layoutRoots.isEmpty || !passBlocks.isEmpty } }

    func takeWork() -> (dirty: [DisplayNode], layoutRoots: [DisplayNode], blocks: [@Sendable () -> Void]) {
        lock.withLock {
            defer { dirty = [:]; layoutRoots = [:]; passBlocks = [] }
            return (Array(dirty.values), Array(layoutRoots.values), passBlocks)
        }
    }
}
