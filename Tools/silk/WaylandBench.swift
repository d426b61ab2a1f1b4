import Foundation
import Silk
import SilkGeometry
import SilkRender
import SilkRunLoop
import SilkBench
import SilkScenes
import SilkWayland

/// `silk bench --backend wayland`: scrolls a scene in a real Wayland window for `seconds`
/// (after one warm-up second), paced by the compositor's frame callbacks, then holds it still
/// for two seconds. Reports, from `WaylandPresenter.statistics`:
/// - frame-callback-to-commit latency (callback received → next frame committed: compositing
///   plus copying into the wl_shm buffer plus the protocol calls),
/// - commit-to-presented latency and presented-frame intervals (`wp_presentation_feedback`,
///   when the compositor offers it), commit intervals (what the client achieved),
/// - the process's CPU use while the window is still (should be ~0%: nothing is drawn).
@MainActor
struct WaylandBench {
    /// `layers-scroll` or `rainforest-scroll`.
    let scene: String
    let size: Size
    let seconds: Double
    let json: String?

    struct Result: Codable {
        var scene: String
        var backend = "wayland"
        var compositor: String
        var windowSize: [Int]
        var scale: Double
        var frames: Int
        var callbackToCommitMs: Distribution
        var commitIntervalMs: Distribution
        var commitToPresentedMs: Distribution?
        var presentedIntervalMs: Distribution?
        var refreshMs: Double?
        var discarded: Int
        var buffers: Int
        var idleCPUPercent: Double
        var idleFramesPresented: Int
    }

    func run() -> Int32 {
        let app = Application(backend: .wayland)
        let window: Window
        do { window = try app.makeWindow(size: size) } catch { fail("bench --backend wayland: \(error)") }
        guard let presenter = window.presenter as? WaylandPresenter else { fail("bench: not a Wayland window") }
        let update: (Double) -> Void
        switch scene {
        case LayersScrollBench.name:
            let s: LayersScrollScene
            do { s = try LayersScrollScene(root: window.rootLayer, viewport: window.size, scale: window.scale) }
            catch { fail("bench: \(error)") }
            update = { s.update(time: $0) }
        case RainforestScrollBench.name:
            let list = RainforestScene.makeList(viewport: window.size, scale: window.scale)
            window.setRootNode(list)
            let range = max(1, list.contentHeight - window.size.height)
            update = { t in
                let d = (t * 1200).truncatingRemainder(dividingBy: 2 * range)
                list.scroll(to: d < range ? d : 2 * range - d)
            }
        default:
            fail("bench --backend wayland: scene \(scene) is measured on headless only (wayland: layers-scroll, rainforest-scroll)")
        }
        let loop = app.loop
        let start = loop.now
        func elapsed() -> Double {
            let e = loop.now - start
            return Double(e.components.seconds) + Double(e.components.attoseconds) / 1e18
        }
        var phase = 0  // 0 warm-up, 1 measuring, 2 idle
        var measured = WaylandFrameStatistics()
        var idleCPUStart = 0.0, idleFramesStart = 0
        let idleSeconds = 2.0
        print("bench: \(scene) on \(presenter.display.socketName), \(Int(window.size.width))x\(Int(window.size.height)) pt at scale \(window.scale)")
        fflush(nil)
        var ticker: TimerToken?
        ticker = loop.addTimer(after: .zero, repeating: .microseconds(16_667)) {
            let t = elapsed()
            switch phase {
            case 0:
                update(t)
                if t >= 1 { presenter.resetStatistics(); phase = 1 }
            case 1:
                update(t)
                if t >= 1 + seconds {
                    measured = presenter.statistics
                    phase = 2
                    // Idle: no timer of ours runs (nothing wakes the process but the compositor).
                    // Let the last frame land, then measure the CPU the still window uses.
                    if let ticker { loop.cancelTimer(ticker) }
                    loop.addTimer(after: .milliseconds(300)) {
                        idleFramesStart = window.presentedFrames
                        idleCPUStart = ProcessMeasurements.cpuSeconds()
                        loop.addTimer(after: .milliseconds(Int64(idleSeconds * 1000))) { app.quit() }
                    }
                }
            default:
                break
            }
        }
        app.run()
        if let failure = app.failure { print("bench: stopped: \(failure)"); return 1 }
        let idleCPU = (ProcessMeasurements.cpuSeconds() - idleCPUStart) / idleSeconds * 100
        let s = measured
        let result = Result(scene: scene, compositor: presenter.display.socketName,
                            windowSize: [Int(window.size.width), Int(window.size.height)], scale: window.scale,
                            frames: s.frames, callbackToCommitMs: Distribution(s.callbackToCommitMs),
                            commitIntervalMs: Distribution(s.commitIntervalsMs),
                            commitToPresentedMs: s.commitToPresentedMs.isEmpty ? nil : Distribution(s.commitToPresentedMs),
                            presentedIntervalMs: s.presentedIntervalsMs.isEmpty ? nil : Distribution(s.presentedIntervalsMs),
                            refreshMs: s.refreshNs > 0 ? Double(s.refreshNs) / 1e6 : nil,
                            discarded: s.discarded, buffers: s.bufferCount,
                            idleCPUPercent: idleCPU, idleFramesPresented: window.presentedFrames - idleFramesStart)
        func f(_ d: Distribution?) -> String {
            guard let d else { return "n/a (no wp_presentation)" }
            return String(format: "p50 %.2f  p95 %.2f  p99 %.2f  max %.2f ms", d.p50, d.p95, d.p99, d.max)
        }
        print("frames committed            \(result.frames) in \(seconds) s (\(result.buffers) buffers)")
        print("frame callback → commit     \(f(result.callbackToCommitMs))")
        print("commit interval             \(f(result.commitIntervalMs))")
        print("commit → presented          \(f(result.commitToPresentedMs))")
        print("presented interval          \(f(result.presentedIntervalMs))\(result.refreshMs.map { String(format: " (refresh %.2f ms)", $0) } ?? "")")
        print(String(format: "idle (still window, %.0f s)  %.2f%% CPU, %d frames presented", idleSeconds, result.idleCPUPercent, result.idleFramesPresented))
        if let json {
            do {
                let enc = JSONEncoder()
                enc.outputFormatting = [.prettyPrinted, .sortedKeys]
                try writeOutput(try enc.encode(result), to: json)
                print("wrote \(json)")
            } catch { fail("\(error)") }
        }
        return 0
    }
}
