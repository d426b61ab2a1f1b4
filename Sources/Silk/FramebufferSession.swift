import Foundation
import SilkFramebuffer
import SilkGeometry
import SilkNodes
import SilkRaster
import SilkRender
import SilkRunLoop

/// Opening the framebuffer backend: probing devices, taking the console, and — once the window
/// exists — evdev input, the software cursor and an orderly teardown on every way out.
enum FramebufferBackend {
    /// Opens the first usable device: `options.devicePath`, else `$SILK_FBDEV`, else /dev/fb0…9.
    /// Throws a `BackendError` naming each device tried and why it could not be used.
    static func open(options: FramebufferOptions, input: InputOptions, takeConsole: Bool,
                     environment: [String: String]) throws -> BackendChoice {
        let paths = options.devicePath.map { [$0] } ?? LinuxFramebufferDevice.candidatePaths(environment: environment)
        var problems: [String] = []
        for path in paths {
            do {
                return try open(path: path, options: options, input: input, takeConsole: takeConsole)
            } catch {
                if case .missing = error.kind, options.devicePath == nil, paths.count > 1 { continue }
                problems.append(error.description)
            }
        }
        if problems.isEmpty { problems.append("no framebuffer device: \(paths.first ?? "/dev/fb0")…\(paths.count > 1 ? paths.last! : "") do not exist (is a framebuffer driver loaded?)") }
        throw BackendError(problems.joined(separator: "; "))
    }
}

extension FramebufferBackend {
    static func open(path: String, options: FramebufferOptions, input: InputOptions,
                     takeConsole: Bool) throws(FramebufferError) -> BackendChoice {
        let device = try LinuxFramebufferDevice(path: path)
        let presenter = try FramebufferPresenter(device: device, options: options)
        var console: Console?
        var consoleNote = "console: not taken (--no-console)"
        if takeConsole {
            do {
                let c = try Console.take()
                console = c
                consoleNote = "console: \(c.ttyPath) in graphics mode, cursor and blanking off"
            } catch {
                consoleNote = "console: left alone (\(error)); the text cursor may show"
            }
            try? device.setBlanked(false)
        }
        let session = FramebufferSession(presenter: presenter, console: console, inputOptions: input)
        return BackendChoice(presenter: presenter, backend: .fbdev,
                             explanation: "fbdev \(presenter.startupReport); \(consoleNote)",
                             attach: { window in session.attach(to: window) })
    }
}

/// A window shown on the framebuffer: feeds it evdev input, draws the software cursor while a
/// mouse is in use, and on loop exit (stop, SIGINT, SIGTERM) stops rendering, then restores the
/// console. Also stops the loop if the render thread fails (an unplugged display, say).
@MainActor
final class FramebufferSession {
    let presenter: FramebufferPresenter
    let console: Console?
    let inputOptions: InputOptions
    private var input: EvdevInput?
    private weak var window: Window?
    private let cursor = Layer()
    private var pointerMoved = false
    private var tornDown = false
    /// Sessions live until their loop exits.
    private static var live: [FramebufferSession] = []

    nonisolated init(presenter: FramebufferPresenter, console: Console?, inputOptions: InputOptions) {
        self.presenter = presenter; self.console = console; self.inputOptions = inputOptions
    }

    func attach(to window: Window) {
        self.window = window
        FramebufferSession.live.append(self)
        let loop = EventLoop.main
        // First among the exit observers: nothing may draw after the console is back.
        loop.addObserver(.exit, order: Int.min) { [weak self] event in
            if case let .exit(reason) = event { self?.tearDown("\(reason)") }
        }
        // Once a second the device is asked whether it is still there (an unplugged display
        // keeps its mapping, so drawing alone never notices); a render-thread failure is checked
        // every tick. Either ends the app with the error and a non-zero exit.
        var ticks = 0
        loop.addTimer(after: .milliseconds(250), repeating: .milliseconds(250)) { [weak self, weak window] in
            guard let self, !self.tornDown, let window else { return }
            ticks += 1
            var problem = window.renderThread.error.map { "\($0)" }
            if problem == nil, ticks % 4 == 0 {
                do { try self.presenter.checkDevice() } catch { problem = "\(error)" }
            }
            guard let problem else { return }
            if let fail = window.backendFailed { fail("fbdev: \(problem)") }
            else { print("silk: fbdev: \(problem)"); loop.stop() }
        }
        // Cursor: a ring drawn by the compositor like any layer, on top of everything.
        cursor.frame = Rect(x: 0, y: 0, width: 14, height: 14)
        cursor.cornerRadius = 7
        cursor.backgroundColor = Color(white: 0, alpha: 0.8)
        cursor.borderColor = .white
        cursor.borderWidth = 2
        cursor.isHidden = true
        cursor.name = "cursor"

        let screen = InputScreen(deviceWidth: presenter.info.width, deviceHeight: presenter.info.height,
                                 rotation: presenter.rotation, scale: presenter.scale)
        let input = EvdevInput(screen: screen, options: inputOptions, loop: loop)
        input.log = { print("silk: \($0)"); fflush(nil) }
        input.deliver = { [weak self, weak window] event in
            guard let self, let window else { return }
            if case let .pointerMove(p) = event.kind { self.pointerMoved = true; self.moveCursor(to: p) }
            window.handle(event)
        }
        input.pointerPresenceChanged = { [weak self] present in
            guard let self else { return }
            if !present { self.pointerMoved = false }
            self.updateCursorVisibility()
        }
        // A touch-only kiosk (no keyboard device) shows the on-screen keyboard for text fields.
        input.keyboardPresenceChanged = { KeyboardPresence.setPhysicalKeyboard($0) }
        print("silk: input: \(input.keymapDescription)\(inputOptions.grab ? ", devices grabbed" : "")")
        input.start()
        self.input = input
    }

    private func moveCursor(to p: Point) {
        cursor.frame = Rect(x: p.x - 7, y: p.y - 7, width: 14, height: 14)
        updateCursorVisibility()
    }

    /// Shown while a pointer device is present and has been used since it appeared.
    private func updateCursorVisibility() {
        guard let window else { return }
        let show = pointerMoved && (input?.hasPointer ?? false)
        if show && (cursor.superlayer !== window.rootLayer || window.rootLayer.sublayers.last !== cursor) {
            cursor.removeFromSuperlayer()
            window.rootLayer.addSublayer(cursor)  // keep it the topmost layer
        }
        cursor.isHidden = !show
    }

    /// Stops input and rendering, shows page 0, closes the device, restores the console.
    func tearDown(_ reason: String) {
        guard !tornDown else { return }
        tornDown = true
        input?.stop()
        window?.close()
        presenter.shutDown()
        if let console { print("silk: console restored after \(reason): \(console.restore())") }
        fflush(nil)
        FramebufferSession.live.removeAll { $0 === self }
    }
}
