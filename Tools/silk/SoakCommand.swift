import ArgumentParser
import Foundation
import Silk
import SilkGeometry
import SilkNodes
import SilkRender
import SilkRunLoop
import SilkSystem

/// `silk soak`: runs a scene on the headless backend at 60 Hz for minutes, scrolling and
/// mutating its node tree at random, and reports resident memory (RSS) and open file
/// descriptors over time, the RSS slope after warm-up, and frames the render thread missed.
/// Exits 1 when descriptors grow after warm-up, when nodes the scene removed are still alive
/// (a leak), or — in runs of five minutes or more — when RSS keeps growing (`make soak`).
struct SoakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak", abstract: "Scroll and mutate a scene for a long time; report memory, descriptors and missed frames.")

    @Argument(help: "Scene: \(SoakSceneName.allCases.map(\.rawValue).joined(separator: ", ")).") var scene: String = "rainforest"
    @Option(help: "How long to run, in seconds.") var seconds: Double = 600
    @Option(help: "Seconds excluded from the growth checks (default: half the run).") var warmUp: Double?
    @Option(help: "Seconds between samples.") var sampleEvery: Double = 10
    @Option(help: "Random mutations per second.") var mutationsPerSecond: Double = 4
    @Option(help: "Seed for the mutations.") var seed: UInt64 = 1
    @Option(help: "Window size in points, WxH.") var size: SizeArgument = SizeArgument(argument: "1280x720")!
    @Option(help: "Fail when RSS grows faster than this after warm-up, in MB per minute (default: 1, checked only in runs of 5 minutes or more; shorter runs end inside the caches' warm-up).") var maxSlope: Double?
    @Option(help: "Fail when open descriptors grow by more than this after warm-up.") var maxFDGrowth: Int = 0
    @Option(help: "Also write the samples as CSV here.") var csv: String?

    /// 30 days: longer than any soak needs, far below where seconds overflow as nanoseconds.
    static let maximumSeconds = 30.0 * 86_400
    /// Each mutation builds or reconfigures nodes on the main thread; 100 a second is 25× the
    /// default and still leaves the 60 Hz loop time for frames and signals.
    static let maximumMutationsPerSecond = 100.0

    func run() throws {
        guard let name = SoakSceneName(rawValue: scene) else {
            throw ValidationError("unknown scene '\(scene)'; expected \(SoakSceneName.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        // Ranges checked up front: the values become Int64 nanoseconds (1e12 s traps), a timer
        // period (1e-12 s spins the loop) and mutations run on main between frames (1e6 a second
        // would starve the loop, signals included).
        guard seconds.isFinite, seconds >= 1, seconds <= SoakCommand.maximumSeconds else {
            throw ValidationError("--seconds \(seconds): must be between 1 and \(Int(SoakCommand.maximumSeconds)) (30 days)")
        }
        guard sampleEvery.isFinite, sampleEvery >= 0.1, sampleEvery <= 86_400 else {
            throw ValidationError("--sample-every \(sampleEvery): must be between 0.1 and 86400 seconds")
        }
        guard mutationsPerSecond.isFinite, mutationsPerSecond >= 0, mutationsPerSecond <= SoakCommand.maximumMutationsPerSecond else {
            throw ValidationError("--mutations-per-second \(mutationsPerSecond): must be between 0 and \(Int(SoakCommand.maximumMutationsPerSecond))")
        }
        if let warmUp, !(warmUp.isFinite && warmUp >= 0 && warmUp < seconds) {
            throw ValidationError("--warm-up \(warmUp): must be at least 0 and less than --seconds (\(seconds))")
        }
        if let maxSlope, !(maxSlope.isFinite && maxSlope >= 0) { throw ValidationError("--max-slope \(maxSlope): must be a number ≥ 0") }
        guard maxFDGrowth >= 0 else { throw ValidationError("--max-fd-growth \(maxFDGrowth): must be ≥ 0") }
        // A CSV path that cannot be written is reported now, not after the whole run.
        if let csv { try checkOutputPath(csv, option: "--csv") }
        let status = MainActor.assumeIsolated { runOnMain(name) }
        Foundation.exit(status)
    }

    @MainActor
    func runOnMain(_ name: SoakSceneName) -> Int32 {
        let app = Application(backend: .headless)
        let window: Window
        let soak: any SoakScene
        do {
            window = try app.makeWindow(size: size.size, headlessClock: .realTime)
            soak = try name.make(viewport: window.size, scale: window.scale)
        } catch {
            FileHandle.standardError.write(Data("silk soak: \(error)\n".utf8))
            return 2
        }
        window.setRootNode(soak.root)
        let frames = FrameLog()
        // The soak keeps its own frame log (this replaces the window's presented-frame counter).
        window.renderThread.onFrame { frames.record($0) }

        // Half the run: caches (glyphs, decoded images) and malloc arenas fill for minutes.
        let warmUp = self.warmUp ?? seconds / 2
        var random = SplitMix64(seed: seed)
        var mutations: [SoakMutation: Int] = [:]
        var samples: [SoakSample] = []
        let start = app.loop.now
        func elapsed() -> Double {
            let e = app.loop.now - start
            return Double(e.components.seconds) + Double(e.components.attoseconds) / 1e18
        }
        func sample() {
            let s = SoakSample(time: elapsed(), rssMB: ProcessStatus.residentMB(), fds: ProcessStatus.openDescriptors(),
                               frames: frames.presented, missed: frames.missed, mutations: mutations.values.reduce(0, +))
            samples.append(s)
            print(s.line); fflush(nil)
        }
        print("silk soak: \(name.rawValue) for \(Int(seconds)) s (warm-up \(Int(warmUp)) s, \(mutationsPerSecond) mutations/s, seed \(seed)), sampling every \(sampleEvery) s")
        print(SoakSample.header); fflush(nil)
        sample()
        var nextMutation = 0.0
        app.loop.addTimer(after: .zero, repeating: .microseconds(16_667)) {
            let t = elapsed()
            soak.scroll(time: t)
            if mutationsPerSecond > 0 {
                // After a stall (a suspended process, a slow machine) the schedule is not caught
                // up mutation by mutation: at most one second's worth runs in one tick.
                nextMutation = max(nextMutation, t - 1)
                while nextMutation <= t {
                    mutations[soak.mutate(using: &random), default: 0] += 1
                    nextMutation += 1 / mutationsPerSecond
                }
            }
            if t >= seconds { app.quit() }
        }
        app.loop.addTimer(after: .nanoseconds(Int64(sampleEvery * 1e9)), repeating: .nanoseconds(Int64(sampleEvery * 1e9))) { sample() }
        _ = app.run()
        sample()

        if let csv {
            let text = "seconds,rss_mb,fds,frames,missed,mutations\n" + samples.map(\.csv).joined(separator: "\n") + "\n"
            // Reported, and the run's verdict still printed: minutes of samples are not thrown away.
            do { try writeOutput(Data(text.utf8), to: csv) } catch {
                FileHandle.standardError.write(Data("silk soak: \(error)\n".utf8))
            }
        }
        let report = SoakReport(samples: samples, warmUp: warmUp)
        let done = SoakMutation.allCases.map { "\($0.rawValue) \(mutations[$0, default: 0])" }.joined(separator: ", ")
        print("silk soak: mutations: \(done)")
        let retained = soak.retainedAfterRemoval(olderThan: 5)
        print("silk soak: dropped more than 5 s before the end and still alive: "
              + retained.map { "\($0.kind) \($0.alive) of \($0.dropped)" }.joined(separator: ", "))
        print("silk soak: \(report.summary)")
        if let error = window.renderThread.error {
            print("silk soak: FAIL: the render thread stopped: \(error)")
            return 1
        }
        var failures: [String] = []
        if let limit = maxSlope ?? (seconds >= 300 ? 1 : nil), report.rssSlopeMBPerMinute > limit {
            failures.append(String(format: "RSS grows %.2f MB/min after warm-up (limit %.2f)", report.rssSlopeMBPerMinute, limit))
        }
        for r in retained where r.alive > 0 {
            failures.append("\(r.alive) \(r.kind) still alive (leaked)")
        }
        if report.fdGrowth > maxFDGrowth {
            failures.append("open descriptors grew by \(report.fdGrowth) after warm-up (limit \(maxFDGrowth))")
        }
        if failures.isEmpty { print("silk soak: PASS"); return 0 }
        print("silk soak: FAIL: " + failures.joined(separator: "; "))
        return 1
    }
}

/// One row of the soak's table.
struct SoakSample {
    var time: Double, rssMB: Double, fds: Int, frames: Int, missed: Int, mutations: Int
    static let header = "  seconds    rss MB   fds   frames  missed  mutations"
    var line: String {
        String(format: "%9.1f %9.1f %5d %8d %7d %10d", time, rssMB, fds, frames, missed, mutations)
    }
    var csv: String { String(format: "%.1f,%.2f,%d,%d,%d,%d", time, rssMB, fds, frames, missed, mutations) }
}

/// Growth after warm-up: the least-squares slope of RSS over time, and descriptors at the end
/// against the first sample after warm-up.
struct SoakReport {
    let samples: [SoakSample]
    let warmUp: Double
    var steady: [SoakSample] {
        let s = samples.filter { $0.time >= warmUp }
        return s.count >= 2 ? s : Array(samples.suffix(2))
    }
    var rssSlopeMBPerMinute: Double {
        let s = steady
        guard s.count >= 2 else { return 0 }
        let n = Double(s.count)
        let mt = s.map(\.time).reduce(0, +) / n, mr = s.map(\.rssMB).reduce(0, +) / n
        let cov = s.map { ($0.time - mt) * ($0.rssMB - mr) }.reduce(0, +)
        let varT = s.map { ($0.time - mt) * ($0.time - mt) }.reduce(0, +)
        return varT > 0 ? cov / varT * 60 : 0
    }
    var fdGrowth: Int { (steady.last?.fds ?? 0) - (steady.first?.fds ?? 0) }
    var summary: String {
        guard let first = samples.first, let last = samples.last, let w = steady.first else { return "no samples" }
        let missedPct = last.frames + last.missed > 0 ? 100 * Double(last.missed) / Double(last.frames + last.missed) : 0
        return String(format: "RSS %.1f MB at start, %.1f MB after warm-up (%.0f s), %.1f MB at the end; slope after warm-up %.3f MB/min; "
                      + "fds %d at start, %d after warm-up, %d at the end; %d frames presented, %d missed (%.2f%%)",
                      first.rssMB, w.rssMB, w.time, last.rssMB, rssSlopeMBPerMinute, first.fds, w.fds, last.fds,
                      last.frames, last.missed, missedPct)
    }
}

/// Frames the render thread presented, and frame slots it let pass while it had work: with
/// continuous scrolling every 60 Hz slot should show a frame, so a jump of n slots between
/// consecutive frames is n − 1 missed. Fed on the render thread, read on main.
final class FrameLog: @unchecked Sendable {
    private let lock = Lock()
    private var lastTime: Double?
    private var _presented = 0
    private var _missed = 0
    func record(_ report: FrameReport) {
        lock.lock(); defer { lock.unlock() }
        if report.didPresent { _presented += 1 }
        if let lastTime {
            let slots = Int(((report.timing.time - lastTime) * 60).rounded())
            if slots > 1 { _missed += slots - 1 }
        }
        lastTime = report.timing.time
    }
    var presented: Int { lock.lock(); defer { lock.unlock() }; return _presented }
    var missed: Int { lock.lock(); defer { lock.unlock() }; return _missed }
}

/// This process's resident memory and descriptor count, from /proc.
enum ProcessStatus {
    /// VmRSS from /proc/self/statm (resident pages × page size), in MB.
    static func residentMB() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return -1 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return -1 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_000_000
    }
    /// Monotonic seconds.
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    /// Entries in /proc/self/fd (minus the one the listing itself opens).
    static func openDescriptors() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count ?? 0) - 1
    }
}
