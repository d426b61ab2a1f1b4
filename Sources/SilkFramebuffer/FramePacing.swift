// When the framebuffer presenter draws: double buffering by panning, vertical-blank waits, or a
// timer at the mode's refresh rate — each chosen only when the driver really supports it, and all
// of it reported at start-up (drivers differ: QEMU's pan never flips and its FBIO_WAITFORVSYNC is
// missing or a no-op; a Raspberry Pi's vsync works; some drivers never signal at all).
import Foundation
import Glibc

/// A user's choice for one pacing feature.
public enum FeatureChoice: String, Sendable, CaseIterable {
    /// Use it when the probe says it works.
    case auto
    /// Use it if it is available at all (the probe's verdict is reported but not binding).
    case on
    case off
}

/// What the presenter decided, and why (printed at start-up).
public struct PacingReport: Sendable, CustomStringConvertible {
    /// Two pages in video memory, shown alternately with FBIOPAN_DISPLAY.
    public var doubleBuffered: Bool
    /// Frames are paced by FBIO_WAITFORVSYNC (else by a timer at `refreshRate`).
    public var vsync: Bool
    public var refreshRate: Double
    public var notes: [String]

    public var description: String {
        let buffering = doubleBuffered ? "double-buffered (pan)" : "single buffer (damaged rows copied to the visible page)"
        let sync = vsync ? "FBIO_WAITFORVSYNC (timeout \(Int(VSyncWaiter.timeoutFactor * 1000 / refreshRate)) ms, then timer)"
                         : "timer at \(String(format: "%.2f", refreshRate)) Hz"
        return "\(buffering); paced by \(sync)" + (notes.isEmpty ? "" : " — " + notes.joined(separator: "; "))
    }
}

/// Runs FBIO_WAITFORVSYNC on its own thread so that a driver that never signals cannot hang the
/// render thread: `wait(timeout:)` gives up after the timeout and, while the helper is still stuck
/// in the kernel, further waits time out at once (the caller falls back to its timer).
final class VSyncWaiter: @unchecked Sendable {
    /// A wait gives up after this many frame periods.
    static let timeoutFactor = 2.0
    enum Outcome: Equatable { case signalled, timedOut, failed(String) }

    private let device: any FramebufferDevice
    private let condition = NSCondition()
    private var requested = 0
    private var completed = 0
    private var lastError: String?
    private var stopping = false

    init(device: any FramebufferDevice) {
        self.device = device
        let t = Thread { [self] in loop() }
        t.name = "silk.fb.vsync"
        t.start()
    }

    private func loop() {
        condition.lock()
        while true {
            while requested == completed && !stopping { condition.wait() }
            if stopping { condition.unlock(); return }
            condition.unlock()
            var failure: String?
            do { try device.waitForVSync() } catch { failure = "\(error)" }
            condition.lock()
            completed += 1
            lastError = failure
            condition.broadcast()
        }
    }

    func wait(timeout: Double) -> Outcome {
        condition.lock(); defer { condition.unlock() }
        guard requested == completed else { return .timedOut }  // still stuck in the previous wait
        requested += 1
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while completed < requested {
            if !condition.wait(until: deadline) { return completed < requested ? .timedOut : .signalled }
        }
        if let lastError { return .failed(lastError) }
        return .signalled
    }

    func stop() {
        condition.lock(); stopping = true; condition.broadcast(); condition.unlock()
    }
}

/// The monotonic clock in seconds.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
