import Foundation
import SilkRaster

/// A group of display results published together on the main thread.
///
/// Display jobs run on display queues and add their finished bitmap to a transaction; nothing
/// reaches a layer until the transaction's last job finished *and* the main loop's committer runs
/// (the last node-level `.beforeWaiting` observer). A node that is a transaction container (a
/// cell, a card) gathers its whole subtree's jobs into one transaction, so its content appears
/// in one frame; other nodes get a transaction each and may appear piecewise.
///
/// A result carries the sentinel value its job started with: if the node was redrawn, removed or
/// left the display range meanwhile, the result is dropped at commit (counted as cancelled) —
/// a stale bitmap is never shown.
public final class AsyncTransaction: @unchecked Sendable {
    public struct Result {
        let node: DisplayNode
        let sentinelValue: UInt64
        let contents: Bitmap?
        let scale: Double
        /// Why the job produced no contents (nil when it drew, or was cancelled).
        var error: String? = nil
    }

    private let lock = NodeLock()
    private var pending = 0
    private var sealed = false
    private var results: [Result] = []
    private var completion = DispatchGroup()
    let id: UInt64
    nonisolated(unsafe) private static var ids: UInt64 = 0
    private static let idLock = NodeLock()

    /// The window's committer that publishes this transaction once its jobs are done.
    private let committer: TransactionCommitter

    init(committer: TransactionCommitter) {
        id = AsyncTransaction.idLock.withLock { AsyncTransaction.ids += 1; return AsyncTransaction.ids }
        self.committer = committer
        completion.enter()
        committer.transactionOpened()
    }

    private var hadOperations = false

    /// Registers one more job (main thread, before `seal`).
    func addOperation() { lock.withLock { pending += 1; hadOperations = true } }

    /// Records a finished job (any thread).
    func complete(_ result: Result) {
        let done = lock.withLock { () -> Bool in
            results.append(result)
            pending -= 1
            return sealed && pending == 0
        }
        if done { finish() }
    }

    /// No more jobs will be added (main thread); the transaction may now complete.
    func seal() {
        let done = lock.withLock { () -> Bool in
            sealed = true
            return pending == 0
        }
        if done { finish() }
    }

    private func finish() {
        // Hand the results to the committer before waking waiters: a `neverShowPlaceholders`
        // pass waits for this and commits right after, and must find them there. A container's
        // transaction that got no job (its subtree is drawn already) has nothing to publish.
        committer.transactionFinished(self, publish: lock.withLock { hadOperations })
        completion.leave()
    }

    /// Blocks until every job finished or `timeout` passed (for `neverShowPlaceholders`).
    func wait(timeout: Double) -> Bool {
        completion.wait(timeout: .now() + timeout) == .success
    }

    func takeResults() -> [Result] { lock.withLock { let r = results; results = []; return r } }
}

/// Publishes completed transactions on the main thread, in completion order. Each window's
/// `NodePass` owns one; the window hooks it into the main loop as the last node-level
/// `.beforeWaiting` observer (`ObserverOrder.transactionCommit`).
public final class TransactionCommitter: @unchecked Sendable {
    public init() {}

    private let lock = NodeLock()
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
