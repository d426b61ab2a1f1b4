import Foundation
import SilkNodes
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate queue of Silk's HTTP transfers (`ImageDownloader`'s libcurl client, the feed
/// demo's URLSession): a serial `OperationQueue` that makes the network wait for the delegate,
/// so a body can be bounded however fast it arrives. (What follows is about URLSession; on
/// `HTTPClient` the same wait holds libcurl's thread, and a cancel stops the transfer at once.)
///
/// FoundationNetworking hands every chunk libcurl delivers (up to 16 KiB, after inflating) to
/// the delegate queue with `addOperation` and never waits for it. When bytes arrive faster than
/// the delegate takes them — loopback, or a compression bomb inflating at gigabytes a second —
/// the queued chunks pile up long before the delegate sees the count pass its limit: with a
/// 4 MiB limit, a gzip bomb queued 1.5 GB. Here at most `capacity` operations wait; adding
/// another, on libcurl's thread, blocks until the delegate has taken one, which pauses that
/// session's transfers (backpressure), so the backlog stays under `capacity` × 16 KiB.
/// `peakPending` records the most operations that ever waited (tests).
///
/// What it cannot do: stop libcurl. While libcurl inflates an endless compressed body it does
/// not return to the session's work queue, so `cancel()` waits until the server stops or the
/// connection breaks; meanwhile the delegate drops the chunks as fast as they come (memory stays
/// bounded, CPU does not). Delegates therefore report a refused body at once, not on completion.
///
/// Rules for delegates on this queue: never wait for the session's work queue from here
/// (`URLSessionTask.cancel()` does: dispatch it elsewhere, see `cancelSoon`). The wait is bounded
/// (`maximumWait`) and never happens on the queue's own thread, so a broken rule stalls the
/// transfer for at most that long; it cannot deadlock.
public final class BoundedDelegateQueue: OperationQueue, @unchecked Sendable {
    /// Free places for pending operations.
    private let room: DispatchSemaphore
    private let pending = Locked((now: 0, peak: 0))
    /// The most operations that were queued or running at once.
    public var peakPending: Int { pending.current.peak }
    /// How many operations may wait before `addOperation` blocks its caller (at least 1).
    public let capacity: Int
    /// The longest an `addOperation` waits for room before adding anyway.
    public static let maximumWait: DispatchTimeInterval = .seconds(2)

    /// A serial queue named `name` (thread names, debugging) that lets at most `capacity`
    /// operations wait: 64 chunks of at most 16 KiB bound a session's backlog to about 1 MiB.
    public init(name: String, capacity: Int = 64) {
        self.capacity = max(1, capacity)
        room = DispatchSemaphore(value: self.capacity)
        super.init()
        self.name = name
        maxConcurrentOperationCount = 1
    }

    /// Queues `block`, first waiting (at most `maximumWait`) for room when `capacity`
    /// operations already wait — the wait is the backpressure on libcurl's thread. Never waits on
    /// the queue's own thread.
    public override func addOperation(_ block: @escaping @Sendable () -> Void) {
        // Room is freed by this queue's operations, so its own thread must never wait for it.
        let took = OperationQueue.current !== self && room.wait(timeout: .now() + Self.maximumWait) == .success
        pending.withLock { $0.now += 1; $0.peak = max($0.peak, $0.now) }
        super.addOperation { [room, pending] in
            block()
            pending.withLock { $0.now -= 1 }
            if took { room.signal() }
        }
    }
}

extension URLSessionTask {
    /// Cancels from another thread: `cancel()` waits for the session's work queue, which may be
    /// waiting for room on a `BoundedDelegateQueue` — never wait for it from a delegate callback.
    /// Delegates using it call `URLSessionTask.didComplete(_:)` first thing in
    /// `didCompleteWithError` (see `CancelGate`).
    public func cancelSoon() {
        let id = ObjectIdentifier(self)
        CancelGate.shared.willCancel(id)
        DispatchQueue.global(qos: .utility).async { [self] in
            // The second cancel() returns only after the first one's work item (stopLoading,
            // then a failure report that looks the task up) has run on the task's work queue —
            // so the completion, held at the gate meanwhile, cannot unregister the task in between.
            CancelGate.shared.cancel(id) { cancel(); cancel() }
        }
    }

    /// Tells a pending `cancelSoon` that this task completed (call it at the start of
    /// `urlSession(_:task:didCompleteWithError:)`).
    public static func didComplete(_ task: URLSessionTask) { CancelGate.shared.completed(ObjectIdentifier(task)) }
}

/// Keeps a deferred cancel from racing its task's completion. FoundationNetworking's cancel()
/// queues a work item that stops the transfer and then looks the task up in the session's
/// registry, while the completion it causes runs on the delegate queue and unregisters the task
/// right after `didCompleteWithError` returns; when that won, the lookup trapped ("Trying to
/// access a behaviour for a task that in not in the registry", seen in the test suite). So a
/// completion waits while that task's cancel (and its work item) runs, and a cancel that comes
/// after the completion is dropped. Entries exist only while a cancel is pending.
final class CancelGate: @unchecked Sendable {
    static let shared = CancelGate()
    private let condition = NSCondition()
    private var pending = Set<ObjectIdentifier>()
    private var running = Set<ObjectIdentifier>()
    private var done = Set<ObjectIdentifier>()

    func willCancel(_ id: ObjectIdentifier) {
        condition.lock(); pending.insert(id); condition.unlock()
    }

    func cancel(_ id: ObjectIdentifier, _ body: () -> Void) {
        condition.lock()
        if done.remove(id) != nil || !pending.contains(id) {
            pending.remove(id)
            condition.unlock()
            return
        }
        running.insert(id)
        condition.unlock()
        body()
        condition.lock()
        running.remove(id)
        // Another cancelSoon for the same task may be queued: it will find nothing pending.
        pending.remove(id)
        condition.broadcast()
        condition.unlock()
    }

    func completed(_ id: ObjectIdentifier) {
        condition.lock()
        defer { condition.unlock() }
        guard pending.contains(id) else { return }
        while running.contains(id) { condition.wait() }
        if pending.contains(id) { done.insert(id) }
    }
}
