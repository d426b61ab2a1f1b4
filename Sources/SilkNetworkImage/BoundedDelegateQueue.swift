import Foundation
import SilkNodes

/// The delegate queue of `ImageDownloader`: a serial `OperationQueue` that makes the network
/// wait for the delegate, so a body can be bounded however fast it arrives.
///
/// Every chunk libcurl delivers (up to 16 KiB, after inflating) is handed to the queue with
/// `addOperation` on the client's thread. When bytes arrive faster than the delegate takes them
/// — loopback, or a compression bomb inflating at gigabytes a second — queued chunks would pile
/// up long before the delegate saw the count pass its limit (with FoundationNetworking, which
/// never waited, a gzip bomb queued 1.5 GB against a 4 MiB limit). Here at most `capacity`
/// operations wait; adding another blocks until the delegate has taken one, which pauses that
/// client's transfers (backpressure), so the backlog stays under `capacity` × 16 KiB.
/// `peakPending` records the most operations that ever waited (tests).
///
/// The wait is bounded (`maximumWait`) and never happens on the queue's own thread, so a
/// delegate that adds to its own queue stalls for at most that long; it cannot deadlock.
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
