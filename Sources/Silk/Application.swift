import Foundation
import SilkFramebuffer
import SilkGeometry
import SilkKMS
import SilkRaster
import SilkRender
import SilkRunLoop

/// The process-wide app object: the main event loop, signal handling and the windows.
///
/// Create it first thing in `main` (it blocks SIGINT/SIGTERM before other threads start, so
/// they end `run()` in order: `.exit` observers run — restore consoles there — then windows close).
@MainActor
public final class Application {
    /// The main event loop (`EventLoop.main`) that `run()` drives: add timers, file sources and
    /// observers to it from the main thread. Node passes and layer commits run from it; frames are
    /// composited on each window's render thread.
    public let loop: EventLoop
    /// The windows opened with `makeWindow`, in the order they were opened; `run()` closes them
    /// all when the loop ends.
    public private(set) var windows: [Window] = []
    /// The backend asked for at creation. With `.auto`, each window's choice (and why) is reported
    /// to `makeWindow`'s `explanation`.
    public let backend: Backend
    /// Framebuffer device, rotation, pacing and evdev input options (used by `fbdev` and `auto`).
    public var framebufferOptions = FramebufferOptions()
    /// Evdev input options for the framebuffer backend (the device directory, grabbing devices,
    /// touch calibration); Wayland and headless windows ignore them. Set before `makeWindow`.
    public var inputOptions = InputOptions()
    /// KMS card, connector, mode and rotation (used by `kms` and `auto`). Set before `makeWindow`.
    public var kmsOptions = KMSOptions()
    /// Whether the framebuffer and KMS backends switch the console to graphics mode (and back).
    public var takesConsole = true
    /// Why the app stopped abnormally (its backend failed), or nil. Exit non-zero when set.
    public private(set) var failure: String?

    /// What `run()` does besides running the loop: a screenshot, a time limit.
    public let launchOptions: LaunchOptions

    /// Creates the application on `backend` (apps that read their own command line start
    /// here; `Application()` reads the standard options instead), blocking SIGINT and SIGTERM
    /// for every thread started afterwards so they reach the loop as events (`signalfd`)
    /// instead of killing the process mid-frame. Call it on the main thread before starting any
    /// other thread. `memoryPolicy` is set in the C heap first (see ``MemoryPolicy``: why
    /// Silk bounds glibc's arenas and fixes its mmap threshold; ``MemoryPolicy/system`` keeps
    /// glibc's defaults).
    public init(backend: Backend, memoryPolicy: MemoryPolicy = .standard) {
        memoryPolicy.apply()
        EventLoop.installSignalHandling()
        loop = EventLoop.main
        self.backend = backend
        launchOptions = LaunchOptions()
    }

    /// An application configured by the standard options on its command line (see
    /// `LaunchOptions`): `--backend`, `--screenshot FILE.png`, `--seconds N`. Like a
    /// command-line tool, it prints one line and exits with status 2 on a bad command line, and
    /// prints the options and exits 0 for `--help`.
    public convenience init(arguments: [String] = CommandLine.arguments, memoryPolicy: MemoryPolicy = .standard) {
        let program = arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "app"
        let parsed: LaunchOptions?
        do { parsed = try LaunchOptions.parse(Array(arguments.dropFirst())) } catch {
            FileHandle.standardError.write(Data("\(program): \(error)\n".utf8))
            Foundation.exit(2)
        }
        guard let options = parsed else {
            print("usage: \(program) [options]\n\(LaunchOptions.usage)")
            Foundation.exit(0)
        }
        self.init(backend: options.backend, launchOptions: options, memoryPolicy: memoryPolicy)
    }

    init(backend: Backend, launchOptions: LaunchOptions, memoryPolicy: MemoryPolicy) {
        memoryPolicy.apply()
        EventLoop.installSignalHandling()
        loop = EventLoop.main
        self.backend = backend
        self.launchOptions = launchOptions
    }

    /// Opens a window of `size` points at `scale` on the application's backend.
    /// `explanation` receives the backend choice (print it: users want to know why headless).
    public func makeWindow(size: Size, scale: Double = 1, background: Color = .white,
                           headlessClock: HeadlessPresenter.Clock = .realTime,
                           options: WindowOptions = WindowOptions(),
                           explanation: ((String) -> Void)? = nil) throws -> Window {
        // `--size` replaces the first window's requested size.
        let size = windows.isEmpty ? (launchOptions.windowSize ?? size) : size
        guard size.isValidExtent, !size.isEmpty, scale.isFinite, scale > 0 else {
            throw BackendError("window size \(size) at scale \(scale) is not positive and finite")
        }
        let w = Int((size.width * scale).rounded(.up)), h = Int((size.height * scale).rounded(.up))
        var options = options
        options.opaque = background.isOpaque
        let choice = try backend.open(pixelWidth: w, pixelHeight: h, scale: scale, headlessClock: headlessClock,
                                      options: options, framebuffer: framebufferOptions, input: inputOptions,
                                      takeConsole: takesConsole, kms: kmsOptions)
        explanation?(choice.explanation)
        let window = try Window(presenter: choice.presenter, background: background, loop: loop)
        window.accessibilityTitle = options.title
        window.closeRequested = { [weak self] in self?.quit() }
        window.backendFailed = { [weak self] message in self?.fail(message) }
        // Every interactive backend (Wayland's presenter, the framebuffer session) reports
        // resizes, input, close and failures to the window through one protocol.
        try choice.eventSource?.startEvents(handler: window, loop: loop)
        windows.append(window)
        return window
    }

    /// Runs the main loop until `quit()` or SIGINT/SIGTERM, then closes the windows.
    /// With `--screenshot`, the first window is written once displayed and the loop stops;
    /// with `--seconds`, the loop stops after that time. A failed screenshot is reported like a
    /// backend failure (one line, `failure` set).
    @discardableResult
    public func run() -> ExitReason {
        if let seconds = launchOptions.seconds {
            loop.addTimer(after: .nanoseconds(Int64(seconds * 1e9))) { [weak self] in self?.quit() }
        }
        if let path = launchOptions.screenshotPath, let window = windows.first {
            window.whenDisplayed { [weak self, weak window] in
                guard let self, let window else { return }
                do {
                    try window.writePNG(to: path)
                    print("screenshot: \(path) (\(Int(window.size.width))x\(Int(window.size.height)) pt at scale \(window.scale))")
                    self.quit()
                } catch {
                    self.fail("screenshot \(path): \(error)")
                }
            }
        }
        let reason = loop.run()
        for w in windows { w.close() }
        return reason
    }

    /// Stops the main loop: `run()` returns after the current iteration and closes the windows.
    /// Main thread; a window's close request (`xdg_toplevel.close`) calls it.
    public func quit() { loop.stop() }

    /// Ends the process at once with `message` as one line on standard error (prefixed with the
    /// program's name) and exit status 2 — for an app that cannot start, such as one whose window
    /// could not be opened (no compositor for `--backend wayland`, a size over the window budget).
    /// Windows opened so far are closed first. Use it instead of `try` at the top level of
    /// `main.swift`, where an error would end the program with a crash report.
    public func exit(failing message: String) -> Never {
        let program = CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "app"
        FileHandle.standardError.write(Data("\(program): \(message)\n".utf8))
        for w in windows { w.close() }
        Foundation.exit(2)
    }

    /// Ends the app because its backend failed: prints `silk: message` to stderr at once, stops
    /// the loop (so `run()` returns and `failure` is set), and makes sure the process is gone
    /// within a second even if an orderly shutdown blocks.
    public func fail(_ message: String) {
        guard failure == nil else { return }
        failure = message
        logger.critical("\(message)")
        loop.stop()
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.8)
            _exit(1)
        }
    }
}
