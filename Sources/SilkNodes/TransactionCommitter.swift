import Foundation
import SilkSystem

/// Publishes completed transactions on the main thread, in completion order (Texture's
/// `_ASAsyncTransactionGroup` commit on the main run loop). Each window's `NodePass` owns one
/// (`NodePass.committer`); the window hooks it into the main loop as the last node-level
/// `.beforeWaiting` observer (`ObserverOrder.transactionCommit`). Display queues report finished
/// transactions from any thread; only `commit()` touches nodes and layers, on the main thread.
public final class TransactionCommitter: @unchecked Sendable {
    /// Only a `NodePass` makes one: a committer serves exactly one pass's transactions.
    init() {}

    private let lock = Lock()
    private var completed: [AsyncTransaction] = []
    /// Called (any thread) when a transaction completes, to wake the main loop. Set through
    /// `NodePass.wakeUp`, which sets the scheduler's too.
    var wakeUp: (@Sendable () -> Void)? {
        get { lock.withLock { _wakeUp } }
        set { lock.withLock { _wakeUp = newValue } }
    }
    private var _wakeUp: (@Sendable () -> Void)?

    /// Counters since the committer was created, for benchmarks, logs and tests: a result is one
    /// display job's bitmap (or failure) for one node.
    public struct Statistics: Sendable {
        /// Results whose sentinel was still current at commit: applied to their node's layer.
        public var committedResults = 0
        /// Results dropped because their node's sentinel moved on (redrawn, removed, out of range).
        public var cancelledResults = 0
        /// Transactions published (each one job, or a transaction container's whole subtree).
        public var transactions = 0
        /// Results that made themselves stale: applying them moved their node's sentinel on the
        /// applying (main) thread — a hook redrawing what it was just given. Must stay 0 (the
        /// benchmark's stale-frame check reads it). A result stale before it is applied is
        /// dropped (`cancelledResults`), never applied.
        public var staleApplied = 0
        /// Results whose node another thread invalidated while the result was being applied (an
        /// image arriving for that node): shown for one frame, redrawn at the next pass. Not an
        /// error; counted so the race stays visible.
        public var invalidatedWhileApplying = 0
        /// Current results whose job failed (threw, or could not allocate its bitmap): the node
        /// shows nothing or its placeholder and `DisplayNode.lastDisplayError` says why.
        public var displayErrors = 0
        /// All zero: what a committer starts with (benchmarks use it when no pass ran).
        public init() {}
    }
    private var stats = Statistics()
    /// The counters now. Any thread.
    public var statistics: Statistics { lock.withLock { stats } }
    /// Zeroes the counters (tests).
    func resetStatistics() { lock.withLock { stats = Statistics() } }

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

    /// True when some transaction waits for `commit()`: the screen is not final yet. Any thread
    /// (tools poll it, with `Window.presentedFrames`, to know a demo is idle).
    public var hasPendingCommits: Bool { lock.withLock { !completed.isEmpty } }

    /// Applies every completed transaction's still-current results to their layers and returns
    /// how many it applied; results whose sentinel moved on are dropped. Main thread: the
    /// window's observer calls it each loop iteration; tests and tools that drive a `NodePass`
    /// themselves call it after `NodePass.run()`.
    @discardableResult
    public func commit() -> Int {
        let ready = lock.withLock { () -> [AsyncTransaction] in let r = completed; completed = []; return r }
        var applied = 0, cancelled = 0, stale = 0, raced = 0, failed = 0
        var finished: [(DisplayNode, [@Sendable () -> Void])] = []
        for t in ready {
            var appliedHere = 0
            for r in t.takeResults() {
                if r.node.displaySentinel.isCurrent(r.sentinelValue) {
                    if r.node._recordDisplayError(r.error) { failed += 1 }
                    r.node.displaySentinel.beginApply()
                    r.node._applyDisplayResult(r.contents, scale: r.scale)
                    applied += 1
                    appliedHere += 1
                    if r.node.displaySentinel.endApply() { stale += 1 }
                    else if !r.node.displaySentinel.isCurrent(r.sentinelValue) { raced += 1 }
                    finished.append((r.node, r.node._takeDisplayCompletions(satisfiedBy: r.sentinelValue)))
                } else {
                    cancelled += 1
                }
            }
            // Hooks run after the whole transaction is on its layers, so a hook that reads a
            // sibling's layer sees it too; a container whose results were all stale has not
            // finished (its subtree draws again).
            for (node, completions) in finished {
                node.displayDidFinish()
                for c in completions { c() }
            }
            finished.removeAll()
            if appliedHere > 0, let container = t.container { container.hierarchyDisplayDidFinish() }
        }
        lock.withLock {
            stats.committedResults += applied
            stats.cancelledResults += cancelled
            stats.transactions += ready.count
            stats.staleApplied += stale
            stats.invalidatedWhileApplying += raced
            stats.displayErrors += failed
        }
        return applied
    }
}
