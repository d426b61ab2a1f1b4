import SilkSystem
import Glibc

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
    /// The thread applying a result of this node (the committer), between `beginApply` and
    /// `endApply`, and whether that thread moved the sentinel meanwhile.
    private var applyingThread: pthread_t?
    private var bumpedWhileApplying = false
    /// The value now (any thread).
    var current: UInt64 { lock.withLock { value } }
    /// Cancels whatever is running and returns the new value.
    @discardableResult
    func increment() -> UInt64 {
        lock.withLock {
            value += 1
            if let t = applyingThread, pthread_equal(t, pthread_self()) != 0 { bumpedWhileApplying = true }
            return value
        }
    }
    /// The committer is about to put a result of this node on its layer (main thread).
    func beginApply() { lock.withLock { applyingThread = pthread_self(); bumpedWhileApplying = false } }
    /// The result is on the layer: whether applying it moved the sentinel on the applying thread
    /// itself — the result made itself stale (a hook that redraws what it was just given), which
    /// must not happen. Moves by other threads meanwhile (an image arriving) are not counted:
    /// their redraw comes at the next pass.
    func endApply() -> Bool {
        lock.withLock {
            defer { applyingThread = nil; bumpedWhileApplying = false }
            return bumpedWhileApplying
        }
    }
    /// Whether nothing bumped the sentinel since a job read `v`: its result may still be shown.
    /// Any thread; the committer asks just before applying a result.
    func isCurrent(_ v: UInt64) -> Bool { lock.withLock { value == v } }
}
