// EventLoop: Silk's run loop — one epoll instance per thread that runs one, plus timers, observers,
// cross-thread blocks, the libdispatch main queue (main loop) and SIGINT/SIGTERM (signalfd).
//
// Named `EventLoop` rather than `RunLoop` so that it never collides with Foundation.RunLoop in a
// file that imports both.
//
// ONE ITERATION (`runOnce`), in this order — docs/runloop.md explains the choices:
//   1. timers     — fire every timer due at the start of the step, by deadline then scheduling order
//   2. perform    — run the blocks queued by `perform` before this step, FIFO
//   3. main queue — (main loop only) drain DispatchQueue.main, i.e. also @MainActor jobs
//   4. observers  — `.beforeWaiting`, by ascending order (the committer runs last)
//   5. wait       — epoll_wait; timeout 0 if work is already pending (blocks queued, a timer due,
//                   stop requested), else until a descriptor, the timerfd or the `run` bound
//   6. observers  — `.afterWaiting`, by ascending order
//   7. sources    — call the handlers of the ready descriptors, in the order epoll reported them
//   8. exit       — if `stop()` was called or a termination signal read: `.exit` observers in
//                   order, then the `run` call returns the reason
// Everything that can change state (timers, blocks, main-queue work, input from sources) happens
// before the next `.beforeWaiting`, so the committer always sees a whole iteration's changes.
import CSilkLinux
import Glibc
import SilkSystem
import Synchronization

/// A single-thread event loop on epoll.
///
/// **Threads.** A loop belongs to one thread: the one that created it (`EventLoop.main`: the
/// process's main thread). Adding sources, timers and observers, running and advancing the
/// virtual clock happen on that thread (checked by `assertOnLoopThread()` in debug builds).
/// `perform(_:)`, `wakeUp()` and `stop()` may be called from any thread.
///
/// `@unchecked Sendable` because a loop reference is handed to other threads for those three
/// calls. Invariant: the loop-thread state below is only touched on the owning thread; the state
/// other threads touch (`inbox`, `virtualNanoseconds`, the eventfd) is behind a pthread mutex,
/// an `Atomic` and a kernel object.
public final class EventLoop: @unchecked Sendable {
    /// The loop of the process's main thread, the one the UI runs on. It drains
    /// `DispatchQueue.main` and, after `installSignalHandling()`, turns SIGINT/SIGTERM into an
    /// orderly exit. May be first touched from any thread; it can only be *run* on the main thread.
    public static let main: EventLoop = {
        do {
            return try EventLoop(clock: .monotonic, ownerThread: getpid(), isMain: true)
        } catch {
            fatalError("cannot create the main event loop: \(error)")
        }
    }()

    /// The clock timers are scheduled on.
    public let clock: LoopClock
    /// Whether this is `EventLoop.main`.
    public let isMain: Bool

    // MARK: Immutable after init
    let ownerThread: pid_t
    private let epoll: Epoll
    private let wakeUpFD: EventFD
    private let timerFD: TimerFD?
    private let mainQueue: MainQueueDrain?

    // MARK: Shared with other threads
    private struct Inbox {
        var blocks: [@Sendable () -> Void] = []
        var stopRequested = false
    }
    private let inbox = Locked(Inbox())
    /// A virtual loop's `now`; atomic so that any thread may read the time.
    let virtualNanoseconds = Atomic<Int64>(0)

    // MARK: Loop thread only
    private struct Source {
        let fd: Int32
        var events: SourceEvents
        let handler: (SourceEvents) -> Void
    }
    private var sources: [UInt64: Source] = [:]
    var timerQueue = TimerQueue()
    var observerList = ObserverList()
    var isFiringTimers = false
    private var signalFD: SignalFD?
    private var pendingSignal: TerminationSignal?
    private var hasDrainedMainQueue = false
    private var isRunning = false
    private var nextKey: UInt64 = Key.firstUserKey

    /// epoll keys of the loop's own descriptors; user sources, timers and observers count up
    /// from `firstUserKey` (never reused, so a stale token cannot hit a new registration).
    private enum Key {
        static let wakeUp: UInt64 = 0
        static let timer: UInt64 = 1
        static let signals: UInt64 = 2
        static let mainQueue: UInt64 = 3
        static let firstUserKey: UInt64 = 16
    }

    /// Creates a loop owned by the calling thread.
    ///
    /// - Parameter clock: `.monotonic` for real time; `.virtual` for tests (see `advance(by:)`).
    public convenience init(clock: LoopClock = .monotonic) throws(SystemCallError) {
        try self.init(clock: clock, ownerThread: silk_current_thread_id(), isMain: false)
    }

    private init(clock: LoopClock, ownerThread: pid_t, isMain: Bool) throws(SystemCallError) {
        self.clock = clock
        self.ownerThread = ownerThread
        self.isMain = isMain
        epoll = try Epoll()
        wakeUpFD = try EventFD()
        try epoll.add(fd: wakeUpFD.fd, events: SourceEvents.readable.epollMask, key: Key.wakeUp)
        if clock == .monotonic {
            let timerFD = try TimerFD()
            try epoll.add(fd: timerFD.fd, events: SourceEvents.readable.epollMask, key: Key.timer)
            self.timerFD = timerFD
        } else {
            timerFD = nil
        }
        mainQueue = isMain ? MainQueueDrain() : nil
        if let mainQueue {
            try epoll.add(fd: mainQueue.handle, events: SourceEvents.readable.epollMask, key: Key.mainQueue)
        }
    }

    // MARK: - Time

    /// Now on this loop's clock. Any thread.
    public var now: LoopInstant {
        switch clock {
        case .monotonic: .monotonicNow
        case .virtual: LoopInstant(nanoseconds: virtualNanoseconds.load(ordering: .relaxed))
        }
    }

    // MARK: - Threads

    /// Whether the calling thread owns this loop.
    public var isOnLoopThread: Bool { silk_current_thread_id() == ownerThread }

    /// Traps in debug builds when called off the loop's thread (like Texture's
    /// `ASDisplayNodeAssertMainThread`). Free in release builds.
    @inline(__always)
    public func assertOnLoopThread(file: StaticString = #fileID, line: UInt = #line) {
        assert(isOnLoopThread, "must be called on the thread of its EventLoop", file: file, line: line)
    }

    func takeKey() -> UInt64 {
        defer { nextKey += 1 }
        return nextKey
    }

    // MARK: - Cross-thread entry points

    /// Runs `block` on the loop thread in step 2 of an upcoming iteration, after the blocks queued
    /// before it. Any thread. Blocks queued by a block run in the next iteration.
    public func perform(_ block: @escaping @Sendable () -> Void) {
        let wasEmpty = inbox.withLock { inbox in
            inbox.blocks.append(block)
            return inbox.blocks.count == 1
        }
        // Only the first block of a batch rings: the loop takes the whole batch at once.
        if wasEmpty { wakeUp() }
    }

    /// Makes the loop's current or next wait return at once, so it runs another iteration (and
    /// its observers). Any thread. Writes the loop's eventfd.
    public func wakeUp() {
        do { try wakeUpFD.signal() } catch {
            preconditionFailure("EventLoop.wakeUp: \(error)")
        }
    }

    /// Asks the loop to finish its current iteration (or its next one, if it is not running),
    /// run the `.exit` observers and return `.stopped` from `run`. Any thread.
    public func stop() {
        inbox.withLock { $0.stopRequested = true }
        wakeUp()
    }

    // MARK: - Descriptor sources

    /// Calls `handler` on the loop thread (step 7) whenever `fd` is ready for any of `events`
    /// (level-triggered: again every iteration until the condition is consumed). `.error` and
    /// `.hangup` may be reported even if not asked for. The loop does not own `fd`: remove the
    /// source *before* closing it. Loop thread only. Calls `epoll_ctl(EPOLL_CTL_ADD)`.
    public func addSource(fd: Int32, events: SourceEvents,
                          handler: @escaping (SourceEvents) -> Void) throws(SystemCallError) -> SourceToken {
        assertOnLoopThread()
        let key = takeKey()
        try epoll.add(fd: fd, events: events.epollMask, key: key)
        sources[key] = Source(fd: fd, events: events, handler: handler)
        return SourceToken(id: key)
    }

    /// Changes what a source waits for (e.g. `.writable` only while output is queued).
    /// Loop thread only. Calls `epoll_ctl(EPOLL_CTL_MOD)`.
    public func updateSource(_ token: SourceToken, events: SourceEvents) throws(SystemCallError) {
        assertOnLoopThread()
        guard let source = sources[token.id] else { return }
        try epoll.modify(fd: source.fd, events: events.epollMask, key: token.id)
        sources[token.id]?.events = events
    }

    /// Stops watching a source; its handler is not called again, even for events already
    /// reported in this iteration. Removing twice does nothing. Loop thread only.
    /// Calls `epoll_ctl(EPOLL_CTL_DEL)`; an error there (the descriptor was already closed, which
    /// drops it from epoll anyway) is ignored.
    public func removeSource(_ token: SourceToken) {
        assertOnLoopThread()
        guard let source = sources.removeValue(forKey: token.id) else { return }
        try? epoll.remove(fd: source.fd)
    }

    // MARK: - Signals

    /// Turns SIGINT and SIGTERM into an orderly exit of this loop's `run` (`.interrupted` /
    /// `.terminated`, after the `.exit` observers). Blocks both signals in the calling thread and
    /// watches a signalfd for them. `EventLoop.main` does this by itself on `run` once
    /// `installSignalHandling()` was called; other loops (tests) may call it directly.
    /// Signals directed at the process only reach the descriptor if *every* thread blocks them —
    /// see `installSignalHandling()`. Loop thread only; calling it again does nothing.
    public func watchTerminationSignals() throws(SystemCallError) {
        assertOnLoopThread()
        guard signalFD == nil else { return }
        let signalFD = try SignalFD()
        try epoll.add(fd: signalFD.fd, events: SourceEvents.readable.epollMask, key: Key.signals)
        self.signalFD = signalFD
    }

    // MARK: - Running

    /// Runs iterations until `stop()` or a termination signal, then returns why (after the
    /// `.exit` observers ran). Loop thread only; not re-entrant.
    @discardableResult
    public func run() -> ExitReason {
        while true {
            if let reason = runOnce(timeout: nil) { return reason }
        }
    }

    /// Runs exactly one iteration, waiting in step 5 at most `timeout` of real time (`nil`: until
    /// something happens; `.zero`: not at all). Returns the exit reason if the iteration ended
    /// the loop. Loop thread only; not re-entrant.
    @discardableResult
    public func runOnce(timeout: Duration? = .zero) -> ExitReason? {
        let limit: Int32 = timeout.map(Self.milliseconds(roundingUp:)) ?? -1
        return iterate(waitLimit: limit)
    }

    /// What ended a `run(until:timeout:)`.
    public enum RunOutcome: Equatable, Sendable {
        case conditionMet
        case timedOut
        /// The loop was stopped (`stop()`, SIGINT or SIGTERM) before the condition held.
        case exited(ExitReason)
    }

    /// Runs iterations until `condition` holds, `stop()` or a signal ends the loop, or `timeout`
    /// of real time has passed. `condition` is checked before each iteration and again just
    /// before step 5, so that an iteration whose steps 1–4 satisfied it does not block in the
    /// wait. For tests and modal waits. Loop thread only; not re-entrant.
    public func run(until condition: () -> Bool, timeout: Duration) -> RunOutcome {
        let deadline = LoopInstant.monotonicNow + timeout
        while true {
            if condition() { return .conditionMet }
            let remaining = deadline - .monotonicNow
            if remaining <= .zero { return .timedOut }
            if let reason = iterate(waitLimit: Self.milliseconds(roundingUp: remaining), skipWaitIf: condition) {
                return .exited(reason)
            }
        }
    }

    private static func milliseconds(roundingUp duration: Duration) -> Int32 {
        let nanoseconds = max(duration.clampedNanoseconds, 0)
        return Int32(clamping: (nanoseconds + 999_999) / 1_000_000)
    }

    /// One iteration: the eight steps listed at the top of this file.
    private func iterate(waitLimit: Int32, skipWaitIf shouldSkipWait: () -> Bool = { false }) -> ExitReason? {
        precondition(isOnLoopThread, "an EventLoop runs only on the thread that owns it")
        precondition(!isRunning, "EventLoop iterations cannot be nested")
        isRunning = true
        defer { isRunning = false }
        if isMain, signalFD == nil, signalHandlingInstalled.load(ordering: .acquiring) {
            do { try watchTerminationSignals() } catch {
                preconditionFailure("EventLoop.main cannot watch SIGINT/SIGTERM: \(error)")
            }
        }

        // 1. Timers due now.
        fireTimers(dueBy: now, movingVirtualClock: false)

        // 2. Blocks from `perform`, taken as one batch.
        let blocks = inbox.withLock { inbox in
            defer { inbox.blocks.removeAll(keepingCapacity: true) }
            return inbox.blocks
        }
        for block in blocks { block() }

        // 3. DispatchQueue.main (and @MainActor jobs).
        // The handle is read here rather than when epoll reports it, so that work enqueued
        // while steps 1–2 ran is drained in this iteration, not after another trip through the
        // wait. The first drain is unconditional: work may predate the handle's creation.
        if let mainQueue, mainQueue.clearWakeUp() || !hasDrainedMainQueue {
            hasDrainedMainQueue = true
            mainQueue.drain()
        }

        // 4. Before waiting.
        notifyObservers(.beforeWaiting)

        // 5. Wait.
        let readyCount = waitForEvents(limit: shouldSkipWait() ? 0 : waitLimit)

        // 6. After waiting.
        notifyObservers(.afterWaiting)

        // 7. Ready descriptors.
        for index in 0..<readyCount {
            let (key, events) = epoll.ready(index)
            dispatchReady(key: key, events: events)
        }

        // 8. Exit.
        // A signal wins over a simultaneous stop(); either way both requests are consumed, so
        // the next `run` starts afresh.
        let signalled = pendingSignal != nil
        let exiting = inbox.withLock { inbox in
            let exiting = signalled || inbox.stopRequested
            if exiting { inbox.stopRequested = false }
            return exiting
        }
        guard exiting else { return nil }
        let reason = pendingSignal.map(ExitReason.init) ?? .stopped
        pendingSignal = nil
        notifyObservers(.exit(reason))
        return reason
    }

    private func waitForEvents(limit: Int32) -> Int {
        let nextDeadline = timerQueue.earliestDeadline()
        let workPending = inbox.withLock { !$0.blocks.isEmpty || $0.stopRequested }
            || pendingSignal != nil
            || nextDeadline.map { $0 <= now } == true
        do {
            try timerFD?.arm(at: nextDeadline)
            return try epoll.wait(timeoutMilliseconds: workPending ? 0 : limit)
        } catch {
            // Only EBADF/EFAULT/EINVAL are possible here: the loop's own descriptors are broken.
            preconditionFailure("EventLoop wait: \(error)")
        }
    }

    private func dispatchReady(key: UInt64, events: UInt32) {
        do {
            switch key {
            case Key.wakeUp:
                try wakeUpFD.clear()
            case Key.timer:
                try timerFD?.clear()  // the due timers fire in step 1 of the next iteration
            case Key.mainQueue:
                break  // only a wake-up: step 3 of the next iteration reads the handle and drains
            case Key.signals:
                while let signal = try signalFD?.next() {
                    if pendingSignal == nil { pendingSignal = signal }
                }
            default:
                // Looked up per event: an earlier handler may have removed this source.
                guard let source = sources[key] else { return }
                source.handler(SourceEvents(epollEvents: events))
            }
        } catch {
            preconditionFailure("EventLoop: \(error)")
        }
    }
}

/// Identifies a descriptor source for `updateSource(_:events:)` and `removeSource(_:)`.
public struct SourceToken: Hashable, Sendable {
    let id: UInt64
}
