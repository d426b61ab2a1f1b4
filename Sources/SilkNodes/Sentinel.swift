import SilkSystem

/// A node's display sentinel: a counter bumped whenever the node's pending display becomes
/// stale (redraw, removal, leaving the display range, `preventOrCancelDisplay`). A display job
/// captures the value when it starts; `isCancelled` is "the value moved on". (Texture's
/// ASSentinel.) Any thread: `setNeedsDisplay` and `preventOrCancelDisplay` bump it wherever they
/// are called, the pass bumps it when it starts a job, jobs read it on the display queues, and
/// the committer checks it on the main thread.
///
/// Internal: only `DisplayNode`, `NodePass` and `TransactionCommitter` use it.
final class Sentinel: @unchecked Sendable {
    private let lock = Lock()
    private var value: UInt64 = 0
    /// The value now (any thread).
    var current: UInt64 { lock.withLock { value } }
    /// Cancels whatever is running and returns the new value.
    @discardableResult
    func increment() -> UInt64 { lock.withLock { value += 1; return value } }
    /// Whether nothing bumped the sentinel since a job read `v`: its result may still be shown.
    /// Any thread; the committer asks just before applying a result.
    func isCurrent(_ v: UInt64) -> Bool { lock.withLock { value == v } }
}
