import Foundation
import SilkGeometry

/// Where a run is, for the progress line.
public struct BenchProgress: Sendable {
    public var scene: String
    /// "async", "sync" or nil for a measurement scene.
    public var mode: String?
    /// 1-based position of the scene and the number of scenes.
    public var index: Int, count: Int
    /// Seconds since the run started, and the estimated total.
    public var elapsed: Double, total: Double
    /// True once per scene step (scene and mode) when it starts.
    public var isStart: Bool
}

/// Runs a list of scenes — each frame scene in async and, when it displays per frame, sync —
/// and collects the report. A scene that fails is reported as failed with its error and the run
/// goes on; an unavailable one is reported as such.
public struct BenchSuite {
    public var settings: BenchSettings
    public var entries: [BenchCatalog.Entry]
    /// The command line, the backend name and the build configuration, for the report.
    public var command: String
    public var build: String
    /// Called on the main thread: at the start of every scene and mode, and every frame.
    public var progress: (BenchProgress) -> Void = { _ in }

    public init(settings: BenchSettings, entries: [BenchCatalog.Entry] = BenchCatalog.defaultRun, command: String, build: String) {
        self.settings = settings; self.entries = entries; self.command = command; self.build = build
    }

    /// Estimated seconds of setup per frame-scene mode (building cards, decoding photos).
    static let setupSeconds = 0.7

    public func estimatedSeconds() -> Double {
        entries.reduce(0.5) { sum, e in
            switch e {
            case .frames(let t):
                sum + Double(t.modes.count) * (t.window(settings).warmup + t.estimatedMeasuredSeconds(settings) + BenchSuite.setupSeconds)
            case .measurement(let t): sum + t.estimatedSeconds(settings)
            case .unavailable: sum
            }
        }
    }

    public func run() -> BenchReport {
        let runStart = ProcessMeasurements.now()
        let total = estimatedSeconds()
        let size = settings.size
        let machine = MachineBaseline.measure(pixelWidth: Int((size.width * settings.scale).rounded(.up)),
                                              pixelHeight: Int((size.height * settings.scale).rounded(.up)))
        var scenes: [SceneResult] = []
        for (i, entry) in entries.enumerated() {
            let sceneStart = ProcessMeasurements.now()
            func report(_ mode: String?, start: Bool) {
                progress(BenchProgress(scene: entry.name, mode: mode, index: i + 1, count: entries.count,
                                       elapsed: ProcessMeasurements.now() - runStart, total: total, isStart: start))
            }
            switch entry {
            case .unavailable(let name, let summary, let reason):
                report(nil, start: true)
                scenes.append(SceneResult(name: name, summary: summary, kind: .frames, status: .unavailable, reason: reason,
                                          wallSeconds: 0))
            case .frames(let type):
                var result = SceneResult(name: type.name, summary: type.summary, kind: .frames, status: .ok, wallSeconds: 0)
                var modes: [String: ModeResult] = [:]
                var notes: [String] = []
                var runner = FrameRunner(settings: settings)
                runner.progress = { _ in report(nil, start: false) }
                do {
                    for mode in type.modes {
                        report(mode.rawValue, start: true)
                        runner.progress = { _ in report(mode.rawValue, start: false) }
                        let (r, n) = try runner.run(type, mode: mode)
                        modes[mode.rawValue] = r
                        for note in n where !notes.contains(note) { notes.append(note) }
                    }
                    if !type.supportsSync {
                        result.syncNote = "no display work per frame (layers only): sync would equal async"
                    } else if !type.modes.contains(.sync) {
                        result.syncNote = "async only: this scene measures memory, not the main thread"
                    }
                    if let a = modes["async"], let s = modes["sync"], a.frames > 0, s.frames > 0 { result.ratios = SceneResult.ratios(async: a, sync: s) }
                    result.modes = modes
                    result.notes = notes.isEmpty ? nil : notes
                } catch {
                    result.status = .failed
                    result.reason = "\(error)"
                    result.modes = modes.isEmpty ? nil : modes
                }
                result.wallSeconds = ProcessMeasurements.now() - sceneStart
                scenes.append(result)
            case .measurement(let type):
                report(nil, start: true)
                var result = SceneResult(name: type.name, summary: type.summary, kind: .measurement, status: .ok, wallSeconds: 0)
                do {
                    let (figures, notes) = try type.measure(settings) { _ in report(nil, start: false) }
                    result.figures = figures
                    result.notes = notes
                } catch {
                    result.status = .failed
                    result.reason = "\(error)"
                }
                result.wallSeconds = ProcessMeasurements.now() - sceneStart
                scenes.append(result)
            }
        }
        let formatter = ISO8601DateFormatter()
        return BenchReport(date: formatter.string(from: Date()), command: command, backend: settings.backend, build: build,
                           quick: settings.quick, size: [Int(size.width), Int(size.height)], scale: settings.scale,
                           warmupSeconds: settings.warmupSeconds, measuredSeconds: settings.measuredSeconds,
                           machine: machine, scenes: scenes, totalSeconds: ProcessMeasurements.now() - runStart)
    }
}
