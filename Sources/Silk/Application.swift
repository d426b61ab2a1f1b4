import Foundation
import SilkFramebuffer
import SilkGeometry
import SilkRaster
import SilkRender
import SilkRunLoop

/// The process-wide app object: the main event loop, signal handling and the windows.
///
/// Create it first thing in `main` (it blocks SIGINT/SIGTERM before other threads start, so
/// they end `run()` in order: `.exit` observers run — restore consoles there — then windows close).
@MainActor
public final class Application {
    public let loop: EventLoop
    public private(set) var windows: [Window] = []
    public let backend: Backend
    /// Framebuffer device, rotation, pacing and evdev input options (used by `fbdev` and `auto`).
    public var framebufferOptions = FramebufferOptions()
    public var inputOptions = InputOptions()
    /// Whether the framebuffer backend switches the console to graphics mode (and back).
    public var takesConsole = true

    public init(backend: Backend = .auto) {
        EventLoop.installSignalHandling()
        loop = EventLoop.main
        self.backend = backend
    }

    /// Opens a window of `size` points at `scale` on the application's backend.
    /// `explanation` receives the backend choice (print it: users want to know why headless).
    public func makeWindow(size: Size, scale: Double = 1, background: Color = .white,
                           headlessClock: HeadlessPresenter.Clock = .realTime,
                           explanation: ((String) -> Void)? = nil) throws -> Window {
        guard size.isValidExtent, !size.isEmpty, scale.isFinite, scale > 0 else {
            throw BackendError("window size \(size) at scale \(scale) is not positive and finite")
        }
        let w = Int((size.width * scale).rounded(.up)), h = Int((size.height * scale).rounded(.up))
        let choice = try backend.open(pixelWidth: w, pixelHeight: h, scale: scale, headlessClock: headlessClock,
                                      framebuffer: framebufferOptions, input: inputOptions, takeConsole: takesConsole)
        explanation?(choice.explanation)
        let window = try Window(presenter: choice.presenter, background: background, loop: loop)
        windows.append(window)
        choice.attach?(window)
        return window
    }

    /// Runs the main loop until `quit()` or SIGINT/SIGTERM, then closes the windows.
    @discardableResult
    public func run() -> ExitReason {
        let reason = loop.run()
        for w in windows { w.close() }
        return reason
    }

    public func quit() { loop.stop() }
}
