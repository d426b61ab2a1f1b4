import Foundation

/// A Raspberry Pi estimate from this machine's figures — an estimate, not a measurement:
/// memory-bound work (composite, present, the frame memcpy) is scaled by the ratio of this
/// machine's measured memcpy bandwidth to the board's typical published copy bandwidth, and
/// main-thread work (CPU-bound: layout, text, decoding, the node pass) by a single-core
/// performance ratio. docs/benchmark.md states the sources and the limits.
public struct BoardEstimate: Sendable {
    public var board: String
    /// Typical memcpy bandwidth of the board, GB/s.
    public var copyGBps: Double
    /// How many times slower one core of the board is than one core of the reference machine
    /// (the x86_64 machine whose figures docs/benchmark.md quotes).
    public var singleCoreSlowdown: Double

    public static let boards = [
        BoardEstimate(board: "Pi 3", copyGBps: 0.6, singleCoreSlowdown: 5.5),
        BoardEstimate(board: "Pi 4", copyGBps: 2.8, singleCoreSlowdown: 2.6),
        BoardEstimate(board: "Pi 5", copyGBps: 5.5, singleCoreSlowdown: 1.4),
    ]

    /// Estimated frame ms on the board: (composite + present) × bandwidth ratio + main × CPU ratio.
    public func frameMs(composite: Double, present: Double, main: Double, memcpyGBps: Double) -> Double {
        (composite + present) * memoryFactor(memcpyGBps) + main * singleCoreSlowdown
    }

    public func memoryFactor(_ memcpyGBps: Double) -> Double { memcpyGBps > 0 ? memcpyGBps / copyGBps : 1 }
}

extension BenchReport {
    /// The estimate table: per frame scene and mode, p50 and p99 frame ms on each board (the
    /// p99 from the components' p99s, so it errs high), and the frame memcpy.
    public func boardEstimates() -> [String] {
        let boards = BoardEstimate.boards
        var out = ["Raspberry Pi ESTIMATE (not measured): memory-bound parts × (this machine's \(fmt(machine.memcpyGBps, 1)) GB/s ÷ the board's copy GB/s), "
                   + "main-thread work × single-core slowdown; see docs/benchmark.md",
                   "scene              mode   " + boards.map { "\($0.board) p50 / p99 ms".padding(toLength: 22, withPad: " ", startingAt: 0) }.joined()]
        out.append("frame memcpy              " + boards.map {
            fmt(machine.frameCopyMs * $0.memoryFactor(machine.memcpyGBps), 2).padding(toLength: 22, withPad: " ", startingAt: 0)
        }.joined())
        for scene in scenes where scene.kind == .frames {
            for mode in ["async", "sync"] {
                guard let m = scene.modes?[mode], m.frames > 0 else { continue }
                let cells = boards.map { b -> String in
                    let p50 = b.frameMs(composite: m.compositeMs.p50, present: m.presentMs.p50, main: m.mainBusyMs.p50, memcpyGBps: machine.memcpyGBps)
                    let p99 = b.frameMs(composite: m.compositeMs.p99, present: m.presentMs.p99, main: m.mainBusyMs.p99, memcpyGBps: machine.memcpyGBps)
                    return "\(fmt(p50, 1)) / \(fmt(p99, 1))".padding(toLength: 22, withPad: " ", startingAt: 0)
                }
                out.append(scene.name.padding(toLength: 19, withPad: " ", startingAt: 0) + mode.padding(toLength: 7, withPad: " ", startingAt: 0) + cells.joined())
            }
        }
        return out
    }
}
