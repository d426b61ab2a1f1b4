// Input through libinput (`--input libinput`), beside Silk's own evdev reader: a path-based
// context (`libinput_path_create_context`) fed the same /dev/input/event* nodes the evdev reader
// finds (listing plus inotify), its devices opened through the same seam (`EvdevDevice.openNode`:
// the seat, else open(2) with the missing-group message), its descriptor on the main loop, and
// its events turned into values for `LibinputTranslator`.
//
// Why the path backend and not libinput's udev backend: the udev backend enumerates and hotplugs
// through udevd's netlink broadcasts and the seat's ID_SEAT, so it sees nothing where udevd does
// not run, and it would be a second device discovery beside the evdev reader's. The path backend
// still asks libudev for each node's properties — libinput takes only devices udev tagged
// ID_INPUT_* (its quirks and calibrations also come from udev) — so udevd must have run once
// for the devices (a normal system; the VM test starts it); without the tags libinput refuses
// every device and one line says so.
import CLibinput
import CSilkLibinput
import CSilkLinux
import Foundation
import Glibc
import SilkInput
import SilkRunLoop

/// Reads the console's input devices through libinput and hands translated events to `deliver`.
/// Main (loop) thread only; libinput calls back (open, close, log) only from inside its calls.
public final class LibinputInput: ConsoleInput {
    public let options: InputOptions
    public let translator: LibinputTranslator
    public var deliver: (InputEvent) -> Void = { _ in }
    public var pointerPresenceChanged: (Bool) -> Void = { _ in }
    public var keyboardPresenceChanged: (Bool) -> Void = { _ in }
    public var log: (String) -> Void = { _ in }
    public var seat: (any DeviceSeat)?
    /// Key repeat, which libinput leaves to its caller: delay and rate as weston and wlroots use.
    public var repeatDelay: Duration = .milliseconds(600)
    public var repeatRate = 25

    private let loop: EventLoop
    /// `struct libinput *`, made on the first `start`.
    private var context: OpaquePointer?
    private var contextToken: SourceToken?
    private var watch: DirectoryWatch?
    private var watchToken: SourceToken?
    private var suspended = false
    private struct Device { let pointer: OpaquePointer; let id: Int; let node: String; let kind: InputDeviceKind }
    /// Open devices by `libinput_device *`; node names (`event3`) libinput was given.
    private var devices: [OpaquePointer: Device] = [:]
    private var addedNodes: Set<String> = []
    private var nextID = 1
    private var repeatTimer: TimerToken?

    public init(screen: InputScreen, options: InputOptions, loop: EventLoop = .main) {
        self.options = options
        self.loop = loop
        let keyboard: any KeyMapper = XKBKeyboard.fromEnvironment() ?? BasicKeyMapper()
        translator = LibinputTranslator(screen: screen, keyMapper: keyboard)
    }

    deinit {
        for d in devices.values { libinput_device_unref(d.pointer) }
        if let context { libinput_unref(context) }
    }

    public var keymapDescription: String {
        let keymap = (translator.keyMapper as? XKBKeyboard).map { "xkbcommon layout \($0.layoutDescription)" }
            ?? "built-in US keymap (no XKB data found)"
        return "libinput, " + keymap
    }

    public var hasKeyboard: Bool { devices.values.contains { $0.kind.contains(.keyboard) } }
    public var hasPointer: Bool { devices.values.contains { !$0.kind.isDisjoint(with: [.pointer, .absolutePointer]) } }

    /// Creates the context and adds the devices present now (first call), or resumes a
    /// suspended context (after a VT switch back: libinput reopens its devices through the seat).
    public func start() {
        if let context {
            guard suspended else { return }
            suspended = false
            if libinput_resume(context) != 0 { log("input: libinput could not resume its devices") }
            drain()
            // Nodes that went away meanwhile are not back; nodes that appeared are added now.
            addedNodes = Set(devices.values.map(\.node))
            startWatching()
            scanDirectory()
            drain()
            return
        }
        guard let li = libinput_path_create_context(LibinputInput.interface, Unmanaged.passUnretained(self).toOpaque()) else {
            log("input: libinput_path_create_context failed; continuing without input")
            return
        }
        context = li
        // libinput's handler takes a va_list; CSilkLibinput formats the message in C (a va_list
        // closure crashed Swift 6.0.3 for aarch64 and swift-symbolgraph-extract 6.3).
        silk_libinput_set_log_handler(li) { data, priority, message in
            guard let data, let message else { return }
            Unmanaged<LibinputInput>.fromOpaque(data).takeUnretainedValue().libinputLog(priority, String(cString: message))
        }
        libinput_log_set_priority(li, LIBINPUT_LOG_PRIORITY_INFO)
        do {
            contextToken = try loop.addSource(fd: libinput_get_fd(li), events: .readable) { [weak self] _ in self?.drain() }
        } catch {
            log("input: cannot watch libinput's descriptor (\(error)); continuing without input")
            return
        }
        startWatching()
        let candidates = scanDirectory()
        drain()
        if devices.isEmpty {
            let untagged = addedNodes.isEmpty ? untaggedNodes(candidates) : 0
            let why = untagged > 0
                ? "\(untagged) of \(candidates.count) not tagged by udev: no /run/udev/data entry (is systemd-udevd running? --input evdev needs no udev)"
                : candidates.isEmpty ? "none found" : "none usable"
            log("input: libinput opened no input device in \(options.directory) (\(why)); continuing without input")
        }
    }

    /// Suspends libinput (it closes every device, through the seat); `start` resumes.
    public func stop() {
        cancelRepeat()
        translator.stopRepeat()
        if let watchToken { loop.removeSource(watchToken) }
        watchToken = nil; watch = nil
        guard let context, !suspended else { return }
        suspended = true
        libinput_suspend(context)
        drain()
    }

    private func startWatching() {
        guard watch == nil else { return }
        do {
            let w = try DirectoryWatch(path: options.directory)
            watch = w
            watchToken = try loop.addSource(fd: w.fd, events: .readable) { [weak self] _ in self?.handleDirectoryChange() }
        } catch {
            log("input: cannot watch \(options.directory) for new devices: \(error)")
        }
    }

    /// Hands libinput every event node not given yet; returns the nodes there are.
    @discardableResult
    private func scanDirectory() -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: options.directory)) ?? []).filter { $0.hasPrefix("event") }.sorted()
        for name in names where !addedNodes.contains(name) { addNode(name) }
        return names
    }

    /// How many of `names` have no entry in udev's database (`/run/udev/data/c<major>:<minor>`,
    /// where udevd keeps the ID_INPUT_* tags libinput requires).
    private func untaggedNodes(_ names: [String]) -> Int {
        names.filter { name in
            var st = stat()
            guard stat(options.directory + "/" + name, &st) == 0 else { return false }
            let dev = UInt64(st.st_rdev)
            let major = (dev >> 8) & 0xfff | (dev >> 32) & ~UInt64(0xfff), minor = dev & 0xff | (dev >> 12) & ~UInt64(0xff)
            return access("/run/udev/data/c\(major):\(minor)", F_OK) != 0
        }.count
    }

    private func handleDirectoryChange() {
        guard let watch else { return }
        for change in watch.changes() {
            switch change {
            case let .appeared(name) where name.hasPrefix("event"): if !addedNodes.contains(name) { addNode(name) }
            case let .disappeared(name):
                if let d = devices.values.first(where: { $0.node == name }) { libinput_path_remove_device(d.pointer) }
                addedNodes.remove(name)
            default: break
            }
        }
        drain()
    }

    private func addNode(_ name: String) {
        guard let context else { return }
        // Refused (not an input device libinput handles, or no permission yet: IN_ATTRIB retries).
        guard libinput_path_add_device(context, options.directory + "/" + name) != nil else { return }
        addedNodes.insert(name)
    }

    /// `libinput_dispatch`, then every queued event.
    private func drain() {
        guard let context else { return }
        _ = libinput_dispatch(context)
        let now = InputClock.now
        while let event = libinput_get_event(context) {
            handle(event, now: now)
            libinput_event_destroy(event)
        }
    }

    private func handle(_ event: OpaquePointer, now: Double) {
        guard let dev = libinput_event_get_device(event) else { return }
        let type = libinput_event_get_type(event)
        if type == LIBINPUT_EVENT_DEVICE_ADDED { deviceAdded(dev); return }
        if type == LIBINPUT_EVENT_DEVICE_REMOVED { deviceRemoved(dev, now: now); return }
        guard let d = devices[dev], let value = Self.value(of: event, type: type) else { return }
        for e in translator.handle(value, from: d.id, now: now) { deliver(e) }
        if case .key = value { updateRepeat() }
    }

    private func deviceAdded(_ dev: OpaquePointer) {
        guard devices[dev] == nil else { return }
        var kind: InputDeviceKind = []
        // Letter keys, as the evdev reader counts keyboards (a power button is a keyboard to libinput).
        if libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_KEYBOARD) != 0,
           [16, 30, 44, 57].allSatisfy({ libinput_device_keyboard_has_key(dev, $0) == 1 }) { kind.insert(.keyboard) }
        if libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_POINTER) != 0 { kind.insert(.pointer) }
        if libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_TOUCH) != 0 { kind.insert(.touchscreen) }
        if libinput_device_has_capability(dev, LIBINPUT_DEVICE_CAP_TABLET_TOOL) != 0 { kind.insert(.absolutePointer) }
        let hadPointer = hasPointer, hadKeyboard = hasKeyboard
        libinput_device_ref(dev)
        let node = String(cString: libinput_device_get_sysname(dev))
        devices[dev] = Device(pointer: dev, id: nextID, node: node, kind: kind)
        nextID += 1
        var notes: [String] = []
        // Touchpads: tapping is off by default in libinput; a kiosk's touchpad should tap.
        if libinput_device_config_tap_get_finger_count(dev) > 0,
           libinput_device_config_tap_set_enabled(dev, LIBINPUT_CONFIG_TAP_ENABLED) == LIBINPUT_CONFIG_STATUS_SUCCESS {
            notes.append("tap to click")
        }
        // The touch calibration options, as libinput's own matrix (touchscreens and tablets).
        if options.calibration != TouchCalibration(), libinput_device_config_calibration_has_matrix(dev) != 0 {
            let m = options.calibration.affineMatrix.map(Float.init)
            if libinput_device_config_calibration_set_matrix(dev, m) == LIBINPUT_CONFIG_STATUS_SUCCESS { notes.append("calibrated") }
        }
        let name = String(cString: libinput_device_get_name(dev))
        log("input: \(options.directory)/\(node) '\(name)': \(kind) (libinput\(notes.isEmpty ? "" : ", " + notes.joined(separator: ", ")))")
        if hasPointer != hadPointer { pointerPresenceChanged(hasPointer) }
        if hasKeyboard != hadKeyboard { keyboardPresenceChanged(hasKeyboard) }
    }

    private func deviceRemoved(_ dev: OpaquePointer, now: Double) {
        guard let d = devices[dev] else { return }
        // `libinput_suspend` removes every device and `libinput_resume` adds them back itself:
        // only a removal while running means the node is no longer libinput's.
        let hadPointer = hasPointer, hadKeyboard = hasKeyboard
        devices[dev] = nil
        if !suspended { addedNodes.remove(d.node) }
        for e in translator.removeDevice(d.id, now: now) { deliver(e) }
        if d.kind.contains(.keyboard) { translator.stopRepeat(); cancelRepeat() }
        libinput_device_unref(dev)
        log("input: \(options.directory)/\(d.node) removed")
        if hasPointer != hadPointer { pointerPresenceChanged(hasPointer) }
        if hasKeyboard != hadKeyboard { keyboardPresenceChanged(hasKeyboard) }
    }

    /// Arms or cancels the repeat timer after a key event (libinput reports no repeats).
    private func updateRepeat() {
        cancelRepeat()
        guard translator.repeatingKey != nil, repeatRate > 0 else { return }
        let period = Duration.nanoseconds(1_000_000_000 / Int64(repeatRate))
        repeatTimer = loop.addTimer(after: repeatDelay, repeating: period) { [weak self] in
            guard let self, let e = self.translator.repeatEvent(now: InputClock.now) else { return }
            self.deliver(e)
        }
    }

    private func cancelRepeat() {
        if let repeatTimer { loop.cancelTimer(repeatTimer) }
        repeatTimer = nil
    }

    /// The event as a value, or nil for kinds Silk does not use (gestures, switches, pads).
    static func value(of event: OpaquePointer, type: libinput_event_type) -> LibinputEvent? {
        switch type {
        case LIBINPUT_EVENT_KEYBOARD_KEY:
            guard let k = libinput_event_get_keyboard_event(event) else { return nil }
            return .key(code: libinput_event_keyboard_get_key(k), pressed: libinput_event_keyboard_get_key_state(k) == LIBINPUT_KEY_STATE_PRESSED)
        case LIBINPUT_EVENT_POINTER_MOTION:
            guard let p = libinput_event_get_pointer_event(event) else { return nil }
            return .pointerMotion(dx: libinput_event_pointer_get_dx(p), dy: libinput_event_pointer_get_dy(p))
        case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
            guard let p = libinput_event_get_pointer_event(event) else { return nil }
            return .pointerAbsolute(x: libinput_event_pointer_get_absolute_x_transformed(p, 1),
                                    y: libinput_event_pointer_get_absolute_y_transformed(p, 1))
        case LIBINPUT_EVENT_POINTER_BUTTON:
            guard let p = libinput_event_get_pointer_event(event) else { return nil }
            return .pointerButton(code: libinput_event_pointer_get_button(p), pressed: libinput_event_pointer_get_button_state(p) == LIBINPUT_BUTTON_STATE_PRESSED)
        case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL, LIBINPUT_EVENT_POINTER_SCROLL_FINGER, LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS:
            guard let p = libinput_event_get_pointer_event(event) else { return nil }
            let wheel = type == LIBINPUT_EVENT_POINTER_SCROLL_WHEEL
            func axis(_ a: libinput_pointer_axis) -> Double {
                guard libinput_event_pointer_has_axis(p, a) != 0 else { return 0 }
                return wheel ? libinput_event_pointer_get_scroll_value_v120(p, a) : libinput_event_pointer_get_scroll_value(p, a)
            }
            let x = axis(LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL), y = axis(LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL)
            return wheel ? .scrollWheel(v120X: x, v120Y: y) : .scrollContinuous(dx: x, dy: y)
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
            guard let t = libinput_event_get_touch_event(event) else { return nil }
            let slot = Int(libinput_event_touch_get_seat_slot(t))
            let x = libinput_event_touch_get_x_transformed(t, 1), y = libinput_event_touch_get_y_transformed(t, 1)
            return type == LIBINPUT_EVENT_TOUCH_DOWN ? .touchDown(slot: slot, x: x, y: y) : .touchMotion(slot: slot, x: x, y: y)
        case LIBINPUT_EVENT_TOUCH_UP, LIBINPUT_EVENT_TOUCH_CANCEL:
            guard let t = libinput_event_get_touch_event(event) else { return nil }
            let slot = Int(libinput_event_touch_get_seat_slot(t))
            return type == LIBINPUT_EVENT_TOUCH_UP ? .touchUp(slot: slot) : .touchCancel(slot: slot)
        case LIBINPUT_EVENT_TABLET_TOOL_TIP:
            guard let t = libinput_event_get_tablet_tool_event(event) else { return nil }
            return .tabletTip(down: libinput_event_tablet_tool_get_tip_state(t) == LIBINPUT_TABLET_TOOL_TIP_DOWN,
                              x: libinput_event_tablet_tool_get_x_transformed(t, 1), y: libinput_event_tablet_tool_get_y_transformed(t, 1))
        case LIBINPUT_EVENT_TABLET_TOOL_AXIS, LIBINPUT_EVENT_TABLET_TOOL_PROXIMITY:
            guard let t = libinput_event_get_tablet_tool_event(event) else { return nil }
            let x = libinput_event_tablet_tool_get_x_transformed(t, 1), y = libinput_event_tablet_tool_get_y_transformed(t, 1)
            // Leaving proximity without lifting first (a pen pulled away) ends the touch.
            if type == LIBINPUT_EVENT_TABLET_TOOL_PROXIMITY {
                return libinput_event_tablet_tool_get_proximity_state(t) == LIBINPUT_TABLET_TOOL_PROXIMITY_STATE_OUT
                    ? .tabletTip(down: false, x: x, y: y) : nil
            }
            return .tabletMotion(x: x, y: y)
        default:
            return nil
        }
    }

    // MARK: libinput's callbacks (one interface struct at a stable address)

    fileprivate func openRestricted(_ path: String, flags: Int32) -> Int32 {
        do {
            let fd = try EvdevDevice.openNode(path, seat: seat, flags: flags & O_ACCMODE)
            if options.grab, silk_ioctl_int(fd, SILK_EVIOCGRAB, 1) != 0 { log("input: \(path): EVIOCGRAB failed (errno \(errno))") }
            return fd
        } catch {
            log("input: \(error)")
            if case .permissionDenied = error.kind { return -EACCES }
            return error.kind == .missing ? -ENOENT : -EIO
        }
    }

    fileprivate func closeRestricted(_ fd: Int32) {
        if options.grab { _ = silk_ioctl_int(fd, SILK_EVIOCGRAB, 0) }
        EvdevDevice.closeNode(fd, seat: seat)
    }

    fileprivate func libinputLog(_ priority: libinput_log_priority, _ message: String) {
        if priority == LIBINPUT_LOG_PRIORITY_ERROR { log("input: libinput: \(message)") }
        else { logger.debug("libinput: \(message)") }
    }

    /// Allocated once and never freed: libinput keeps the pointer for the context's life.
    nonisolated(unsafe) private static let interface: UnsafeMutablePointer<libinput_interface> = {
        let p = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
        p.initialize(to: libinput_interface(
            open_restricted: { path, flags, data in
                guard let path, let data else { return -EINVAL }
                return Unmanaged<LibinputInput>.fromOpaque(data).takeUnretainedValue().openRestricted(String(cString: path), flags: flags)
            },
            close_restricted: { fd, data in
                guard let data else { close(fd); return }
                Unmanaged<LibinputInput>.fromOpaque(data).takeUnretainedValue().closeRestricted(fd)
            }))
        return p
    }()
}

extension TouchCalibration {
    /// The swap, inversions and matrix as one affine matrix over 0…1 coordinates (libinput's
    /// `libinput_device_config_calibration_set_matrix` layout: x' = a·x + b·y + c, y' = d·x + e·y + f).
    public var affineMatrix: [Double] {
        let o = apply(0, 0), ex = apply(1, 0), ey = apply(0, 1)
        return [ex.0 - o.0, ey.0 - o.0, o.0, ex.1 - o.1, ey.1 - o.1, o.1]
    }
}
