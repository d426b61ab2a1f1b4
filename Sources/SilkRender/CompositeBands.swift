import Foundation
import SilkGeometry
import SilkRaster
import SilkSystem
#if canImport(Glibc)
import Glibc
#endif

/// Persistent threads that help the render thread composite one frame in horizontal bands
/// (`Compositor.compositeThreads`). Started once per compositor, they sleep on a condition
/// variable between frames: no thread is made per frame.
///
/// One job at a time: ``run(bands:_:)`` publishes the frame's band count and body, paints bands
/// on the calling thread too, and returns once every band is painted and every worker that
/// took part has left the body. Bands are handed out one at a time under the pool's mutex, so a
/// worker that wakes late (the machine is busy) just finds fewer bands left — the render thread
/// paints whatever nobody else took and never waits for a worker that has not started.
///
/// Invariant behind `@unchecked Sendable`: every stored property is read and written with
/// `mutex` held; the body runs outside it, and what it touches per band is its caller's concern
/// (the compositor gives each participant its own slot: canvas, mask cache, counters).
final class BandWorkerPool: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// The frame being painted: its body (slot, band), its band count and the next band to hand out.
    private var body: ((_ slot: Int, _ band: Int) -> Void)?
    private var bandCount = 0
    private var nextBand = 0
    private var generation = 0
    /// Workers inside `body` for the current generation.
    private var active = 0
    private var stopping = false
    /// CPU each worker spent in bodies during the last `run` (nanoseconds, by worker slot − 1).
    private var workerCPU: [UInt64]
    /// Bands each slot painted during the last `run` (slot 0: the calling thread).
    private var bandsBySlot: [Int]
    /// Number of worker threads (the calling thread is slot 0; workers are slots 1…workers).
    let workers: Int

    init(workers: Int) {
        self.workers = max(1, workers)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
        workerCPU = Array(repeating: 0, count: self.workers)
        bandsBySlot = Array(repeating: 0, count: self.workers + 1)
        for slot in 1...self.workers {
            let t = Thread { [self] in self.workerLoop(slot: slot) }
            t.name = "silk.composite.\(slot)"
            t.qualityOfService = .userInteractive
            t.start()
        }
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Ends the worker threads once they finish what they are doing (they hold the pool until then).
    func stop() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Paints bands `0..<bands` by calling `body(slot, band)` once per band, on this thread
    /// (slot 0) and on the workers (slots 1…); returns when all are painted. Returns the CPU
    /// the workers spent (nanoseconds) and how many bands each slot painted.
    func run(bands: Int, _ body: @escaping (_ slot: Int, _ band: Int) -> Void) -> (workerCPU: UInt64, bandsBySlot: [Int]) {
        pthread_mutex_lock(mutex)
        self.body = body
        bandCount = bands
        nextBand = 0
        generation &+= 1
        for i in workerCPU.indices { workerCPU[i] = 0 }
        for i in bandsBySlot.indices { bandsBySlot[i] = 0 }
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)

        while let band = claim(slot: 0) { body(0, band) }

        pthread_mutex_lock(mutex)
        // Every band is handed out: a worker waking from now on finds nothing to do.
        self.body = nil
        while active > 0 { pthread_cond_wait(condition, mutex) }
        let result = (workerCPU.reduce(0, +), bandsBySlot)
        pthread_mutex_unlock(mutex)
        return result
    }

    /// The next band nobody has taken, counted for `slot`; nil when all are taken.
    private func claim(slot: Int) -> Int? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard nextBand < bandCount else { return nil }
        nextBand += 1
        bandsBySlot[slot] += 1
        return nextBand - 1
    }

    private func workerLoop(slot: Int) {
        var seen = 0
        pthread_mutex_lock(mutex)
        while true {
            while !stopping && (generation == seen || body == nil) {
                if generation != seen { seen = generation }  // a finished frame: nothing to do
                pthread_cond_wait(condition, mutex)
            }
            if stopping { break }
            seen = generation
            guard let job = body else { continue }
            active += 1
            pthread_mutex_unlock(mutex)
            let c0 = threadCPUTimeNanoseconds()
            while let band = claim(slot: slot) { job(slot, band) }
            let spent = threadCPUTimeNanoseconds() &- c0
            pthread_mutex_lock(mutex)
            workerCPU[slot - 1] &+= spent
            active -= 1
            pthread_cond_broadcast(condition)
        }
        pthread_mutex_unlock(mutex)
    }
}

/// What one participant of a banded frame paints with: its own coverage-mask cache (caches are
/// not thread-safe, and a mask built in one is then only ever read by the thread that owns it)
/// and its own counters. Slot 0 (the render thread) uses the compositor's cache.
final class BandSlot {
    let coverageMasks: CoverageMaskCache
    var stats = Compositor.Statistics()
    init(coverageMasks: CoverageMaskCache) { self.coverageMasks = coverageMasks }
}

/// How a frame's damage is cut into bands.
enum BandLayout {
    /// Cuts rows `bounds.minY..<bounds.maxY` into at most `count` bands of about equal damaged
    /// area (rows with no damage cost nothing), each at least `minimumRows` tall. The bands are
    /// half-open row ranges that tile the damaged rows.
    static func bands(for rects: [Rect], count: Int, minimumRows: Int = 16) -> [Range<Int>] {
        guard let first = rects.first else { return [] }
        var top = Int(first.minY), bottom = Int(first.maxY)
        for r in rects { top = min(top, Int(r.minY)); bottom = max(bottom, Int(r.maxY)) }
        let n = max(1, min(count, (bottom - top) / max(1, minimumRows)))
        guard n > 1 else { return [top..<bottom] }
        // Damaged pixels per row, as a running sum over the row edges.
        var edges = Set<Int>()
        for r in rects { edges.insert(Int(r.minY)); edges.insert(Int(r.maxY)) }
        let ys = edges.sorted()
        var spans: [(y0: Int, y1: Int, width: Double)] = []
        var total = 0.0
        for k in 0..<(ys.count - 1) {
            let y0 = ys[k], y1 = ys[k + 1]
            var w = 0.0
            for r in rects where Int(r.minY) <= y0 && Int(r.maxY) >= y1 { w += r.width }
            spans.append((y0, y1, w))
            total += w * Double(y1 - y0)
        }
        guard total > 0 else { return [top..<bottom] }
        var cuts: [Int] = [top]
        var acc = 0.0
        var target = total / Double(n)
        for s in spans where s.width > 0 {
            let area = s.width * Double(s.y1 - s.y0)
            while cuts.count < n, acc + area >= target {
                let y = s.y0 + Int(((target - acc) / s.width).rounded())
                if y - cuts.last! >= minimumRows && bottom - y >= minimumRows { cuts.append(y) }
                target += total / Double(n)
            }
            acc += area
        }
        cuts.append(bottom)
        return (0..<(cuts.count - 1)).map { cuts[$0]..<cuts[$0 + 1] }
    }
}
