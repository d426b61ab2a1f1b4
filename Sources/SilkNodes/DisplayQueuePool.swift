import Foundation
import SilkSystem

/// The serial queues display jobs run on: one per core but one, at least one, at most four
/// (Texture's and YYAsyncLayer's design: serial queues keep each queue's working set warm and
/// bound concurrency, so a burst of cells cannot start hundreds of threads). One core is left
/// to the main and render threads, which must never wait for drawing. Jobs go round-robin.
public final class DisplayQueuePool: @unchecked Sendable {
    /// The pool every display job and network-image decode uses: one for the process, so all
    /// windows share the cores.
    public static let shared = DisplayQueuePool()

    /// Upper bound on queues (more than 4 rarely helps on the boards Silk targets).
    public static let maximumQueues = 4
    let queues: [DispatchQueue]
    private let counter = Locked(0)

    init(count: Int = min(DisplayQueuePool.maximumQueues, max(1, ProcessInfo.processInfo.activeProcessorCount - 1))) {
        queues = (0..<max(1, count)).map { DispatchQueue(label: "silk.display.\($0)", qos: .utility) }
    }

    /// The next queue in round-robin order, for work that must stay on one queue (a network image's
    /// successive decodes). Any thread.
    public func next() -> DispatchQueue {
        let i = counter.withLock { c -> Int in c += 1; return c }
        return queues[i % queues.count]
    }

    /// Runs `work` on the next display queue. Any thread.
    public func async(_ work: @escaping @Sendable () -> Void) {
        next().async(execute: work)
    }
}
