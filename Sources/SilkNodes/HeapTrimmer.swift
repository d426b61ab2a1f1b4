import Foundation
import SilkSystem

/// Hands the C heap's free pages back to the kernel after containers release nodes far from
/// their ranges (glibc's `malloc_trim(0)`, looked up at run time: other C libraries have none,
/// and then this does nothing).
///
/// Why: glibc returns freed memory to the kernel only from the top of a heap; the pages of
/// nodes, layouts and text released in the middle of an arena stay resident until something
/// reuses them, so a long scroll's resident memory follows its busiest moment rather than what
/// it holds (feed-10k, docs/benchmark.md). `malloc_trim(0)` walks every arena's free chunks and
/// `madvise`s their whole pages away. It is throttled — at most once per `minimumInterval`
/// seconds, on a utility queue, never on the main thread — because it takes each arena's lock
/// while it walks it.
///
/// Off (`minimumInterval == nil`) unless set: `MemoryPolicy` (module Silk) sets it from its
/// `trimInterval`; `SILK_HEAP_TRIM_INTERVAL` in the environment (seconds, 0 for never) wins.
public enum HeapTrimmer {
    private struct State { var interval: Double?; var last = -Double.infinity; var queued = false; var trims = 0 }
    private static let state = Locked(State(interval: nil))
    private static let queue = DispatchQueue(label: "silk.heap-trim", qos: .utility)

    /// Seconds between two trims at least; nil: never trim. Any thread.
    public static var minimumInterval: Double? {
        get { state.withLock { $0.interval } }
        set { state.withLock { $0.interval = newValue.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } } }
    }

    /// Trims made so far (tests, logs).
    public static var trimCount: Int { state.withLock { $0.trims } }

    /// Sets `minimumInterval` to `interval`, unless `SILK_HEAP_TRIM_INTERVAL` in `environment`
    /// gives one (seconds; 0 or a negative number: never). Returns the interval in force.
    @discardableResult
    public static func configure(interval: Double?, environment: [String: String] = ProcessInfo.processInfo.environment) -> Double? {
        minimumInterval = SilkConfiguration(environment: environment).heapTrimInterval ?? interval
        return minimumInterval
    }

    /// A container released nodes: trims the heap soon, if the last trim is `minimumInterval`
    /// seconds ago and none is queued. Any thread; returns at once.
    public static func noteRelease() {
        let now = ProcessInfo.processInfo.systemUptime
        let go = state.withLock { s -> Bool in
            guard let interval = s.interval, !s.queued, now - s.last >= interval else { return false }
            s.queued = true
            return true
        }
        guard go else { return }
        queue.async {
            trimNow()
            state.withLock { $0.queued = false; $0.last = ProcessInfo.processInfo.systemUptime; $0.trims += 1 }
        }
    }

    /// `malloc_trim(0)` now, on this thread. False where the C library has none.
    @discardableResult
    public static func trimNow() -> Bool {
        guard let symbol = trimSymbol else { return false }
        _ = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)(0)
        return true
    }

    nonisolated(unsafe) private static let trimSymbol = dlsym(nil, "malloc_trim")
}
