import Foundation
import SilkSystem

/// Publishes completed transactions on the main thread, in completion order. Each window's
/// `NodePass` owns one; the window hooks it into the main loop as the last node-level
/// `.beforeWaiting` observer (`ObserverOrder.transactionCommit`).
public final class TransactionCommitter: @unchecked Sendable {
    public init() {}

    private let lock = Lock()
    private var completed: [AsyncTransaction] = []
    /// Called (any thread) when a transaction completes, to wake the main loop.
    public var wakeUp: (@Sendable () -> Void)? {
        get { lock.withLock { _wakeUp } }
        set { lock.withLock { _wakeUp = newValue } }
    }
    private var _wakeUp: (@Sendable () -> Void)?

    public struct Statistics: Sendable {
        public var committedResults = 0
        /// Results dropped because their node's sentinel moved on (redrawn, removed, out of range).
        public var cancelledResults = 0
        public var transactions = 0
        /// Results applied although their sentinel had moved on: must stay 0 (the benchmark's
        /// stale-frame check reads it).
        public var staleApplied = 0
        /// Current results whose job failed (threw, or could not allocate its bitmap): the node
        /// shows nothing or its placeholder and `DisplayNode.lastDisplayError` says why.
        public var displayErrors = 0
        public init() {}
    }
    private var stats = Statistics()
    public var statistics: Statistics { lock.withLock { stats } }
    public func resetStatistics() { lock.withLock { stats = Statistics() } }

    private var open = 0
    /// A transaction was created: its jobs are in flight until it finishes (any thread).
    func transactionOpened() { lock.withLock { open += 1 } }
    /// A transaction's last job finished (any thread); `publish` when it has results.
    func transactionFinished(_ t: AsyncTransaction, publish: Bool) {
        let wake = lock.withLock { () -> (@Sendable () -> Void)? in
            open -= 1
            guard publish else { return nil }
            completed.append(t)
            return _wakeUp
        }
        wake?()
    }

    /// Transactions whose display jobs are still running (any thread).
    public var transactionsInFlight: Int { lock.withLock { open } }

    /// True when some transaction waits for `commit()`.
    public var hasPendingCommits: Bool { lock.withLock { !completed.isEmpty } }

    /// Applies every completed transaction's still-current results to their layers (main thread).
    @discardableResult
    public func commit() -> Int {
        let ready = lock.withLock { () -> [AsyncTransaction] in let r = completed; completed = []; return r }
        var applied = 0, cancelled = 0, stale = 0, failed = 0
        for t in ready {
            for r in t.takeResults() {
                if r.node.displaySentinel.isCurrent(r.sentinelValue) {
                    if r.node._recordDisplayError(r.error) { failed += 1 }
                    r.node._applyDisplayResult(r.contents, scale: r.scale)
                    applied += 1
                    if !r.node.displaySentinel.isCurrent(r.sentinelValue) { stale += 1 }
                } else {
                    cancelled += 1
                }
            }
        }
        lock.withLock {
            stats.committedResults += applied
            stats.cancelledResults += cancelled
            stats.transactions += ready.count
            stats.staleApplied += stale
            stats.displayErrors += failed
        }
        return applied
    }
}
