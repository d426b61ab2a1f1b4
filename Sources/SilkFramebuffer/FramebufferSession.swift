import Foundation
import SilkGeometry
import SilkInput
import SilkRender
import SilkRunLoop

/// A full-screen display on the console that a `FramebufferSession` drives: the framebuffer
/// presenter, or the KMS presenter (SilkKMS). The session asks it for the screen's geometry (to map
/// touches), checks it is still there once a second and shuts it down before the console returns.
public protocol ConsoleDisplay: AnyObject, Sendable {
    /// The screen's width in device pixels, before rotation.
    var deviceWidth: Int { get }
    /// The screen's height in device pixels, before rotation.
    var deviceHeight: Int { get }
    /// How the picture is turned on the panel (touches are turned the same way).
    var rotation: Rotation { get }
    /// Device pixels per point.
    var scale: Double { get }
    /// The prefix of the failure a session reports ("fbdev", "kms").
    var failurePrefix: String { get }
    /// Throws when the device is gone (unplugged, driver unbound, connector disconnected). Any
    /// thread; the session calls it once a second from the main loop.
    func checkDevice() throws
    /// Stops presenting and gives the display back (after this nothing is drawn). Any thread.
    func shutDown()
    /// The seat is switching away (another VT): stop presenting before the seat takes the
    /// device; `waitForFrame` blocks until `seatEnabled`. Main thread. Default: nothing.
    func seatDisabled()
    /// The seat is active again: set the mode again and repaint everything on the next frame.
    /// Throws when the display cannot be set up again. Main thread. Default: nothing.
    func seatEnabled() throws
    /// Whether the display was set up again since the last call (a display plugged back in):
    /// the session then repaints everything. Main thread. Default: false.
    func takeRepaintRequest() -> Bool
}

extension ConsoleDisplay {
    /// Nothing: a display without seat support (the framebuffer's) keeps drawing.
    public func seatDisabled() {}
    /// Nothing: a display without seat support has nothing to set up again.
    public func seatEnabled() throws {}
    /// False: a display without hotplug waiting never asks.
    public func takeRepaintRequest() -> Bool { false }
}

extension FramebufferPresenter: ConsoleDisplay {
    /// The framebuffer's visible width (`ScreenInfo.width`).
    public var deviceWidth: Int { info.width }
    /// The framebuffer's visible height (`ScreenInfo.height`).
    public var deviceHeight: Int { info.height }
    /// "fbdev".
    public var failurePrefix: String { "fbdev" }
}

/// A window shown full screen on the console — the framebuffer, or KMS through a `ConsoleDisplay`:
/// feeds it evdev input, draws the software cursor while a mouse is in use, and on loop exit
/// (stop, SIGINT, SIGTERM) stops rendering, then restores the console. Also reports a failure if
/// the render thread fails or the device goes away (an unplugged display, say). Talks to its
/// window only through `PresenterEventHandler`.
@MainActor
public final class FramebufferSession: PresenterEventSource {
    let presenter: any ConsoleDisplay
    let console: Console?
    let inputOptions: InputOptions
    /// The seat the display and input devices were opened through (nil: opened directly).
    let seat: (any DeviceSeat)?
    private var input: (any ConsoleInput)?
    private var seatActive = true
    private weak var handler: (any PresenterEventHandler)?
    private let cursor = Layer()
    private var pointerMoved = false
    private var tornDown = false
    /// Sessions live until their loop exits.
    private static var live: [FramebufferSession] = []

    public nonisolated init(presenter: FramebufferPresenter, console: Console?, inputOptions: InputOptions) {
        self.presenter = presenter; self.console = console; self.inputOptions = inputOptions; self.seat = nil
    }

    /// A session for any console display (the KMS presenter uses this); with `seat`, input
    /// devices are opened through it and VT switches pause and resume display and input. Any
    /// thread.
    public nonisolated init(display: any ConsoleDisplay, console: Console?, inputOptions: InputOptions,
                            seat: (any DeviceSeat)? = nil) {
        self.presenter = display; self.console = console; self.inputOptions = inputOptions; self.seat = seat
    }

    /// `PresenterEventSource`: starts evdev input, the liveness checks and the exit observer.
    public func startEvents(handler: any PresenterEventHandler, loop: EventLoop) {
        self.handler = handler
        FramebufferSession.live.append(self)
        // First among the exit observers: nothing may draw after the console is back.
        loop.addObserver(.exit, order: .consoleRestore) { [weak self] event in
            if case let .exit(reason) = event { self?.tearDown("\(reason)") }
        }
        // Once a second the device is asked whether it is still there (an unplugged display
        // keeps its mapping, so drawing alone never notices); a render-thread failure is checked
        // every tick. Either ends the app with the error and a non-zero exit.
        var ticks = 0
        loop.addTimer(after: .milliseconds(250), repeating: .milliseconds(250)) { [weak self] in
            guard let self, !self.tornDown, let handler = self.handler else { return }
            ticks += 1
            // A seat change that libseat read while opening a device (inside `openDevice`) leaves
            // nothing on its descriptor to wake the loop: look for queued changes on every tick.
            if self.seat != nil { self.dispatchSeat() }
            var problem = handler.renderFailure.map { "\($0)" }
            if problem == nil, ticks % 4 == 0 {
                do {
                    try self.presenter.checkDevice()
                    if self.presenter.takeRepaintRequest() { self.repaintEverything() }
                } catch { problem = "\(error)" }
            }
            guard let problem else { return }
            handler.presenterDidFail("\(self.presenter.failurePrefix): \(problem)")
        }
        // Cursor: a ring drawn by the compositor like any layer, on top of everything.
        cursor.frame = Rect(x: 0, y: 0, width: 14, height: 14)
        cursor.cornerRadius = 7
        cursor.backgroundColor = Color(white: 0, alpha: 0.8)
        cursor.borderColor = .white
        cursor.borderWidth = 2
        cursor.isHidden = true
        cursor.name = "cursor"

        let screen = InputScreen(deviceWidth: presenter.deviceWidth, deviceHeight: presenter.deviceHeight,
                                 rotation: presenter.rotation, scale: presenter.scale)
        let input: any ConsoleInput = switch inputOptions.driver {
        case .evdev: EvdevInput(screen: screen, options: inputOptions, loop: loop)
        case .libinput: LibinputInput(screen: screen, options: inputOptions, loop: loop)
        }
        input.seat = seat
        input.log = { logger.notice("\($0)") }
        input.deliver = { [weak self] event in
            guard let self, let handler = self.handler else { return }
            if let n = FramebufferSession.vtSwitchTarget(event), let seat = self.seat {
                logger.notice("seat: switching to VT \(n) (Ctrl+Alt+F\(n))")
                seat.switchSession(n)
                return
            }
            if case let .pointerMove(p) = event.kind { self.pointerMoved = true; self.moveCursor(to: p) }
            handler.presenterDidReceive(event)
        }
        input.pointerPresenceChanged = { [weak self] present in
            guard let self else { return }
            if !present { self.pointerMoved = false }
            self.updateCursorVisibility()
        }
        // A touch-only kiosk (no keyboard device) shows the on-screen keyboard for text fields.
        input.keyboardPresenceChanged = { KeyboardPresence.setPhysicalKeyboard($0) }
        logger.notice("input: \(input.keymapDescription)\(inputOptions.grab ? ", devices grabbed" : "")")
        input.start()
        self.input = input
        if let seat {
            do {
                _ = try loop.addSource(fd: seat.eventFD, events: .readable) { [weak self] _ in self?.dispatchSeat() }
                logger.notice("seat: \(seat.seatDescription): VT switches pause and resume the display and input")
            } catch {
                logger.warning("seat: cannot watch \(seat.seatDescription) on the event loop (\(error)); VT switches will not pause the app")
            }
        }
    }

    /// Asks the window to draw everything again (after a VT switch back or a display plugged
    /// back in, the buffers' contents are not trusted).
    private func repaintEverything() {
        let (w, h) = presenter.rotation.logicalSize(deviceWidth: presenter.deviceWidth, deviceHeight: presenter.deviceHeight)
        let s = presenter.scale
        handler?.presenterDidResize(to: Size(width: Double(w) / s, height: Double(h) / s), scale: s)
    }

    /// The VT that Ctrl+Alt+Fn (or xkb's `XF86Switch_VT_n` keysym) asks for, if `event` is one.
    nonisolated static func vtSwitchTarget(_ event: InputEvent) -> Int? {
        guard case let .keyDown(key, _, isRepeat) = event.kind, !isRepeat else { return nil }
        switch key {
        case let .keysym(k) where (0x1008_FE01...0x1008_FE0C).contains(k): return Int(k - 0x1008_FE00)
        case let .function(n) where (1...12).contains(n) && event.modifiers.contains([.control, .alt]): return n
        default: return nil
        }
    }

    /// Reads the seat's messages: a switch away stops input and presenting, then acknowledges;
    /// a switch back sets the display up again, reopens input and repaints everything.
    private func dispatchSeat() {
        guard let seat, !tornDown else { return }
        for change in seat.dispatch() {
            switch change {
            case .disabled:
                guard seatActive else { seat.acknowledgeDisable(); continue }
                seatActive = false
                input?.stop()
                presenter.seatDisabled()
                seat.acknowledgeDisable()
                logger.notice("seat: switched away (another VT): rendering and input paused")
            case .enabled:
                guard !seatActive else { continue }
                seatActive = true
                do { try presenter.seatEnabled() } catch {
                    handler?.presenterDidFail("\(presenter.failurePrefix): \(error)")
                    return
                }
                input?.start()
                repaintEverything()
                logger.notice("seat: active again: mode set, input reopened, repainting")
            }
        }
    }

    private func moveCursor(to p: Point) {
        cursor.frame = Rect(x: p.x - 7, y: p.y - 7, width: 14, height: 14)
        updateCursorVisibility()
    }

    /// Shown while a pointer device is present and has been used since it appeared.
    private func updateCursorVisibility() {
        guard let host = handler?.overlayHostLayer else { return }
        let show = pointerMoved && (input?.hasPointer ?? false)
        if show && (cursor.superlayer !== host || host.sublayers.last !== cursor) {
            cursor.removeFromSuperlayer()
            host.addSublayer(cursor)  // keep it the topmost layer
        }
        cursor.isHidden = !show
    }

    /// Stops input and rendering, shows page 0, closes the device, restores the console.
    func tearDown(_ reason: String) {
        guard !tornDown else { return }
        tornDown = true
        input?.stop()
        handler?.presenterWillShutDown()
        presenter.shutDown()
        if let console { logger.notice("console restored after \(reason): \(console.restore())") }
        fflush(nil)
        FramebufferSession.live.removeAll { $0 === self }
    }
}
