// Input for the framebuffer: every /dev/input/event* device, found at start and as it comes and
// goes (inotify), classified, read on the event loop and translated into `InputEvent`s.
import Foundation
import SilkInput
import SilkRunLoop

/// How evdev input is set up.
public struct InputOptions: Sendable {
    /// Where event devices appear.
    public var directory = "/dev/input"
    /// EVIOCGRAB every device: the console and other programs no longer see the keys (a kiosk
    /// does not want Ctrl-Alt-Del or VT switches typed into it to act elsewhere).
    public var grab = false
    public var calibration = TouchCalibration()
    /// Which input stack reads the devices (`--input`): Silk's own evdev reader (the default) or
    /// libinput.
    public var driver: InputDriver = .evdev
    public init() {}
}

/// The input stack of the console backends (fbdev, KMS).
public enum InputDriver: String, Sendable, CaseIterable {
    /// Silk's own evdev reader: no library beyond xkbcommon, no udev, deterministic.
    case evdev
    /// libinput: pointer acceleration, touchpads (tapping, two-finger scrolling, palm detection),
    /// tablets, the quirks database and udev calibrations; needs udev's device tags.
    case libinput
}

/// A console input stack (`EvdevInput`, `LibinputInput`) as `FramebufferSession` drives it.
/// Main (loop) thread only.
public protocol ConsoleInput: AnyObject {
    /// Called with each translated event.
    var deliver: (InputEvent) -> Void { get set }
    /// Called when a pointer device appears or goes away (the software cursor).
    var pointerPresenceChanged: (Bool) -> Void { get set }
    /// Called when the first keyboard appears or the last goes away (the on-screen keyboard).
    var keyboardPresenceChanged: (Bool) -> Void { get set }
    /// One line per device event, for logs.
    var log: (String) -> Void { get set }
    /// Opens the devices through this seat instead of open(2); set before `start`.
    var seat: (any DeviceSeat)? { get set }
    /// The keymap (and stack) in use, for the start-up report.
    var keymapDescription: String { get }
    var hasPointer: Bool { get }
    /// Opens the devices (again, after `stop`) and watches for new ones.
    func start()
    /// Closes the devices (a VT switch away, the end).
    func stop()
}

/// Watches the input devices and hands translated events to `deliver`. Main (loop) thread only.
public final class EvdevInput: ConsoleInput {
    public let options: InputOptions
    public let translator: EvdevTranslator
    /// Called with each event, on the loop thread.
    public var deliver: (InputEvent) -> Void = { _ in }
    /// Called when a pointer device appears or goes away (for the software cursor).
    public var pointerPresenceChanged: (Bool) -> Void = { _ in }
    /// Called when the first keyboard appears or the last goes away (the on-screen keyboard).
    public var keyboardPresenceChanged: (Bool) -> Void = { _ in }
    /// Whether a device with letter keys is open.
    public var hasKeyboard: Bool { !keyboardIDs.isEmpty }
    private var keyboardIDs: Set<Int> = []
    /// One line per device event, for logs ("input: /dev/input/event2 'QEMU Virtio Keyboard': keyboard").
    public var log: (String) -> Void = { _ in }
    /// Opens the devices through this seat (seatd/logind) instead of open(2); set before `start`.
    public var seat: (any DeviceSeat)?

    private let loop: EventLoop
    private var watch: DirectoryWatch?
    private var watchToken: SourceToken?
    private struct Open { let device: EvdevDevice; let token: SourceToken; let id: Int }
    private var open: [String: Open] = [:]
    private var nextID = 1

    /// Starts watching (`keyMapper`: xkbcommon's, or the built-in US map when XKB data is missing).
    public init(screen: InputScreen, options: InputOptions, loop: EventLoop = .main) {
        self.options = options
        self.loop = loop
        let keyboard: any KeyMapper = XKBKeyboard.fromEnvironment() ?? BasicKeyMapper()
        translator = EvdevTranslator(screen: screen, calibration: options.calibration, keyMapper: keyboard)
    }

    /// The keymap in use, for the start-up report.
    public var keymapDescription: String {
        if let x = translator.keyMapper as? XKBKeyboard { return "xkbcommon layout \(x.layoutDescription)" }
        return "built-in US keymap (no XKB data found)"
    }

    /// Opens the devices present now and watches the directory for changes.
    public func start() {
        do {
            let w = try DirectoryWatch(path: options.directory)
            watch = w
            watchToken = try loop.addSource(fd: w.fd, events: .readable) { [weak self] _ in self?.handleDirectoryChange() }
        } catch {
            log("input: cannot watch \(options.directory) for new devices: \(error)")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: options.directory)) ?? []
        for name in names.sorted() where name.hasPrefix("event") { openDevice(name) }
    }

    public func stop() {
        for name in Array(open.keys) { closeDevice(name) }
        if let watchToken { loop.removeSource(watchToken) }
        watchToken = nil; watch = nil
    }

    public var hasPointer: Bool { translator.hasPointer }

    private func handleDirectoryChange() {
        guard let watch else { return }
        for change in watch.changes() {
            switch change {
            case let .appeared(name) where name.hasPrefix("event"): if open[name] == nil { openDevice(name) }
            case let .disappeared(name): closeDevice(name)
            default: break
            }
        }
    }

    private func openDevice(_ name: String) {
        let path = options.directory + "/" + name
        let device: EvdevDevice
        do { device = try EvdevDevice(path: path, seat: seat) } catch {
            // Permission may come a moment later (udev); IN_ATTRIB retries.
            log("input: \(error)")
            return
        }
        let kind = device.capabilities.kind
        guard !kind.isEmpty else { return }  // not a device Silk uses (power button, lid…)
        let id = nextID
        nextID += 1
        let caps = device.capabilities
        let multitouch = caps.absoluteAxes.contains(EV.absMTPositionX)
        let xr = device.range(of: multitouch ? EV.absMTPositionX : EV.absX)
        let yr = device.range(of: multitouch ? EV.absMTPositionY : EV.absY)
        if options.grab {
            do { try device.grab() } catch { log("input: \(error)") }
        }
        let hadPointer = translator.hasPointer
        translator.addDevice(id: id, kind: kind, xRange: xr, yRange: yr, multitouch: multitouch)
        do {
            let token = try loop.addSource(fd: device.fd, events: .readable) { [weak self] _ in self?.read(name) }
            open[name] = Open(device: device, token: token, id: id)
        } catch {
            log("input: \(path): \(error)")
            _ = translator.removeDevice(id: id, now: InputClock.now)
            return
        }
        log("input: \(path) '\(device.name)': \(kind)\(device.isGrabbed ? ", grabbed" : "")")
        if translator.hasPointer != hadPointer { pointerPresenceChanged(translator.hasPointer) }
        if kind.contains(.keyboard) {
            keyboardIDs.insert(id)
            if keyboardIDs.count == 1 { keyboardPresenceChanged(true) }
        }
    }

    private func closeDevice(_ name: String) {
        guard let o = open.removeValue(forKey: name) else { return }
        loop.removeSource(o.token)
        let hadPointer = translator.hasPointer
        for e in translator.removeDevice(id: o.id, now: InputClock.now) { deliver(e) }
        log("input: \(o.device.path) removed")
        if translator.hasPointer != hadPointer { pointerPresenceChanged(translator.hasPointer) }
        if keyboardIDs.remove(o.id) != nil, keyboardIDs.isEmpty { keyboardPresenceChanged(false) }
    }

    private func read(_ name: String) {
        guard let o = open[name] else { return }
        guard let events = o.device.readEvents() else { closeDevice(name); return }
        for e in translator.handle(events, from: o.id, now: InputClock.now) { deliver(e) }
    }
}
