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

    private let prioritized = Locked(PriorityJobs())

    /// Runs `work` on a display queue, before every waiting job of lower `priority` (equal
    /// priorities run in submission order): each submission queues one "run the most urgent
    /// waiting job" block, so the queues' count still bounds concurrency while the order follows
    /// the priorities (`DisplayNode.drawingPriority`). Any thread.
    public func async(priority: Int, _ work: @escaping @Sendable () -> Void) {
        prioritized.withLock { $0.push(priority: priority, work) }
        next().async { [prioritized] in
            prioritized.withLock { $0.pop() }?()
        }
    }
}

/// Waiting prioritized jobs: a binary max-heap on (priority, then earlier submission).
struct PriorityJobs {
    private var heap: [(priority: Int, sequence: UInt64, work: @Sendable () -> Void)] = []
    private var sequence: UInt64 = 0

    var count: Int { heap.count }

    private func before(_ a: Int, _ b: Int) -> Bool {
        heap[a].priority != heap[b].priority ? heap[a].priority > heap[b].priority : heap[a].sequence < heap[b].sequence
    }

    mutating func push(priority: Int, _ work: @escaping @Sendable () -> Void) {
        sequence &+= 1
        heap.append((priority, sequence, work))
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard before(i, parent) else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> (@Sendable () -> Void)? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var best = i
            if l < heap.count && before(l, best) { best = l }
            if r < heap.count && before(r, best) { best = r }
            if best == i { break }
            heap.swapAt(i, best)
            i = best
        }
        return top.work
    }
}
