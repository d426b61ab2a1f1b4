// Loop timers: a binary min-heap of deadlines per loop. Real loops arm one timerfd for the earliest
// deadline (TimerFD.swift); virtual loops fire from `advance(by:)` (VirtualClock.swift).
//
// Cancellation is lazy: a cancelled timer leaves its heap entry behind, and an entry only counts
// while `timers[id].generation` still matches it. Rescheduling a repeating timer pushes a new entry
// with a new generation, so a stale copy can never fire twice.

/// Identifies a timer for `cancelTimer(_:)`. Cancelling a fired one-shot timer does nothing.
public struct TimerToken: Hashable, Sendable {
    let id: UInt64
}

struct TimerQueue {
    private struct Timer {
        var deadline: LoopInstant
        /// Period in nanoseconds, or nil for a one-shot timer.
        var interval: Int64?
        var generation: UInt64
        let handler: () -> Void
    }

    private struct Entry {
        var deadline: LoopInstant
        /// Also the tie-breaker: among equal deadlines, the entry pushed first fires first.
        var generation: UInt64
        var id: UInt64

        func precedes(_ other: Entry) -> Bool {
            (deadline, generation) < (other.deadline, other.generation)
        }
    }

    private var timers: [UInt64: Timer] = [:]
    private var heap: [Entry] = []
    private var nextGeneration: UInt64 = 0

    var count: Int { timers.count }

    mutating func schedule(id: UInt64, deadline: LoopInstant, interval: Int64?, handler: @escaping () -> Void) {
        let generation = takeGeneration()
        timers[id] = Timer(deadline: deadline, interval: interval, generation: generation, handler: handler)
        push(Entry(deadline: deadline, generation: generation, id: id))
    }

    mutating func cancel(id: UInt64) {
        timers[id] = nil
        if timers.isEmpty { heap.removeAll(keepingCapacity: true) }
    }

    /// The earliest live deadline (drops stale entries from the top on the way).
    mutating func earliestDeadline() -> LoopInstant? {
        dropStaleTop()
        return heap.first?.deadline
    }

    /// The generation the next schedule will get: a pass that fires only entries older than this
    /// cannot be extended forever by handlers that keep scheduling zero-delay timers.
    var generationMark: UInt64 { nextGeneration }

    /// Removes the earliest live timer if it is due by `limit` (and older than `olderThan`),
    /// reschedules it if it repeats, and returns its deadline and handler for the caller to run
    /// outside this mutation. A repeating timer's next deadline is one period later, or — when
    /// `skipMissedPeriods` and the loop fell behind — the first period boundary after `now`
    /// (missed periods are coalesced into one call, like CFRunLoopTimer).
    mutating func popDue(by limit: LoopInstant, olderThan generationLimit: UInt64 = .max,
                         now: LoopInstant, skipMissedPeriods: Bool) -> (deadline: LoopInstant, handler: () -> Void)? {
        dropStaleTop()
        guard let top = heap.first, top.deadline <= limit, top.generation < generationLimit,
              var timer = timers[top.id] else { return nil }
        popTop()
        let fired = timer.deadline
        if let interval = timer.interval {
            var next = fired.nanoseconds &+ interval
            if skipMissedPeriods, next <= now.nanoseconds {
                let missed = (now.nanoseconds - fired.nanoseconds) / interval
                next = fired.nanoseconds &+ (missed + 1) &* interval
            }
            timer.deadline = LoopInstant(nanoseconds: next)
            timer.generation = takeGeneration()
            timers[top.id] = timer
            push(Entry(deadline: timer.deadline, generation: timer.generation, id: top.id))
        } else {
            timers[top.id] = nil
        }
        return (fired, timer.handler)
    }

    // MARK: heap plumbing

    private mutating func takeGeneration() -> UInt64 {
        defer { nextGeneration += 1 }
        return nextGeneration
    }

    private func isLive(_ entry: Entry) -> Bool {
        timers[entry.id]?.generation == entry.generation
    }

    private mutating func dropStaleTop() {
        while let top = heap.first, !isLive(top) { popTop() }
    }

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popTop() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
            if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}

extension EventLoop {
    /// Schedules `handler` on the loop thread `after` a delay on this loop's clock, then every
    /// `repeating` period if given (which must be positive).
    ///
    /// Real clock: fires in step 1 of the first iteration at or after the deadline; when the loop
    /// falls behind, a repeating timer fires once and skips the periods it missed. Virtual clock:
    /// fires from `advance(by:)` (every period), or in step 1 if already due.
    /// Timers due together fire in deadline order, then in the order they were scheduled.
    ///
    /// Loop thread only (from elsewhere: `perform { loop.addTimer(…) }`).
    @discardableResult
    public func addTimer(after delay: Duration, repeating period: Duration? = nil,
                         handler: @escaping () -> Void) -> TimerToken {
        assertOnLoopThread()
        let interval = period.map(\.clampedNanoseconds)
        if let interval { precondition(interval > 0, "a repeating timer needs a positive period") }
        let id = takeKey()
        timerQueue.schedule(id: id, deadline: now + max(delay, .zero), interval: interval, handler: handler)
        return TimerToken(id: id)
    }

    /// Cancels a timer; it will not fire again, even later in the current pass. Loop thread only.
    public func cancelTimer(_ token: TimerToken) {
        assertOnLoopThread()
        timerQueue.cancel(id: token.id)
    }

    /// Step 1 and `advance(by:)`: fires timers due by `limit` in deadline order.
    func fireTimers(dueBy limit: LoopInstant, movingVirtualClock: Bool) {
        precondition(!isFiringTimers, "timers cannot be fired from inside a timer handler")
        isFiringTimers = true
        defer { isFiringTimers = false }
        // A step-1 pass fires only timers that existed when it began; advance(by:) also fires
        // timers its handlers schedule inside the window (they are part of the simulated time).
        let generationLimit = movingVirtualClock ? UInt64.max : timerQueue.generationMark
        while let due = timerQueue.popDue(by: limit, olderThan: generationLimit, now: limit,
                                          skipMissedPeriods: !movingVirtualClock) {
            if movingVirtualClock {
                virtualNanoseconds.store(due.deadline.nanoseconds, ordering: .relaxed)
            }
            due.handler()
        }
    }
}
