import Foundation
import SilkRaster
import SilkSystem

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
///
/// Internal (Texture's `_ASAsyncTransaction` is private too): a `NodePass` creates them and its
/// `TransactionCommitter` publishes them; apps see only the committer's statistics.
final class AsyncTransaction: @unchecked Sendable {
    /// One display job's outcome: the bitmap for `node` at `scale` device pixels per point, and
    /// the sentinel value the job started with. Made on a display queue (or the pass thread when
    /// drawing synchronously), applied on the main thread by the committer.
    struct Result {
        let node: DisplayNode
        let sentinelValue: UInt64
        let contents: Bitmap?
        let scale: Double
        /// Why the job produced no contents (nil when it drew, or was cancelled).
        var error: String? = nil
    }

    private let lock = Lock()
    private var pending = 0
    private var sealed = false
    private var results: [Result] = []
    private var completion = DispatchGroup()
    let id: UInt64
    nonisolated(unsafe) private static var ids: UInt64 = 0
    private static let idLock = Lock()

    /// The window's committer that publishes this transaction once its jobs are done. Weak: the
    /// committer keeps finished transactions until its next commit, so a strong reference back
    /// would be a cycle that outlives a closed window's pass (LeakSanitizer found it). A
    /// transaction that finishes after its window is gone has nowhere to go, which is right.
    private weak var committer: TransactionCommitter?

    /// The transaction container whose subtree this transaction gathers (nil: one node's job);
    /// the committer calls its `hierarchyDisplayDidFinish()` after publishing.
    let container: DisplayNode?

    init(committer: TransactionCommitter, container: DisplayNode? = nil) {
        self.container = container
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
        committer?.transactionFinished(self, publish: lock.withLock { hadOperations })
        completion.leave()
    }

    /// Blocks until every job finished or `timeout` passed (for `neverShowPlaceholders`).
    func wait(timeout: Double) -> Bool {
        completion.wait(timeout: .now() + timeout) == .success
    }

    func takeResults() -> [Result] { lock.withLock { let r = results; results = []; return r } }
}
