import CWaylandClient
import Foundation
import SilkGeometry
import SilkInput
import SilkRunLoop
import SilkInput
import SilkSystem

/// One `wl_seat`: its pointer, keyboard and touch turned into `InputEvent`s in window points
/// (main thread).
///
/// - Pointer events are collected until `wl_pointer.frame` (version 5+) and delivered as one
///   group: motion, buttons, then one scroll with the frame's axis values — continuous for
///   touchpads (`axis_source` finger/continuous), wheel clicks from `axis_value120` (v8) or
///   `axis_discrete`. A touchpad scroll that ends with `axis_stop` while moving keeps going as
///   a kinetic fling (`ScrollFling`).
/// - Keyboard: xkbcommon keymap from the compositor, modifiers from `wl_keyboard.modifiers`,
///   text from `xkb_state_key_get_utf8`, repeat generated here from `repeat_info` (rate, delay).
/// - Touch: down/motion/up collected until `wl_touch.frame`; `cancel` cancels every finger.
final class WaylandSeat {
    let proxy: OpaquePointer
    let globalName: UInt32
    let version: UInt32
    unowned let display: WaylandDisplay
    /// Where events go (set by the presenter).
    var onInput: ((InputEvent) -> Void)?
    /// The window's surface: events for other surfaces (the cursor's) are ignored.
    var windowSurface: OpaquePointer?
    /// The serial of the latest key, button, touch or keyboard-enter event: what
    /// `wl_data_device.set_selection` must quote (copying needs a recent user action).
    var lastInputSerial: UInt32 = 0

    private var pointer: OpaquePointer?
    private var keyboard: OpaquePointer?
    private var touch: OpaquePointer?
    private var cursor: WaylandCursor?
    private let xkb: XKBKeyboard?
    /// Dead keys and Compose sequences (nil without the X11 locale data).
    private let composer = XKBComposer()
    private var modifiers: KeyModifiers = []

    // Pointer frame in progress.
    private var pointerLocation = Point.zero
    private var pointerInside = false
    private var frame = PointerFrame()
    private let fling = ScrollFling()

    // Key repeat.
    private var repeatRate: Int32 = 25
    private var repeatDelay: Int32 = 600
    private var repeatTimer: TimerToken?
    private var repeatKey: UInt32?

    // Touch frame in progress and where each finger was last.
    private var touchEvents: [InputEvent.Kind] = []
    private var touchPoints: [Int32: Point] = [:]

    static let debug = SilkConfiguration.current.waylandDebug

    init(proxy: OpaquePointer, globalName: UInt32, version: UInt32, display: WaylandDisplay) {
        self.proxy = proxy; self.globalName = globalName; self.version = version; self.display = display
        xkb = try? XKBKeyboard()
        wl_seat_add_listener(proxy, seatListener, unretained(self))
        fling.deliver = { [unowned self] delta in
            send(.scroll(pointerLocation, delta))
        }
    }

    func destroy() {
        fling.stop()
        cancelRepeat()
        cursor = nil
        if let pointer { version >= 3 ? wl_pointer_release(pointer) : wl_pointer_destroy(pointer) }
        if let keyboard { version >= 3 ? wl_keyboard_release(keyboard) : wl_keyboard_destroy(keyboard) }
        if let touch { version >= 3 ? wl_touch_release(touch) : wl_touch_destroy(touch) }
        if version >= 5 { wl_seat_release(proxy) } else { wl_seat_destroy(proxy) }
    }

    private func send(_ kind: InputEvent.Kind) {
        let event = InputEvent(kind, timestamp: InputClock.now, modifiers: modifiers)
        if WaylandSeat.debug { print("wayland input: \(event)"); fflush(nil) }
        onInput?(event)
    }

    // MARK: Seat

    fileprivate func handleCapabilities(_ caps: UInt32) {
        let hasPointer = caps & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
        let hasKeyboard = caps & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0
        let hasTouch = caps & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0
        if hasPointer, pointer == nil {
            pointer = wl_seat_get_pointer(proxy)
            wl_pointer_add_listener(pointer, pointerListener, unretained(self))
            cursor = WaylandCursor(display: display)
        } else if !hasPointer, let p = pointer {
            version >= 3 ? wl_pointer_release(p) : wl_pointer_destroy(p)
            pointer = nil; cursor = nil
        }
        // The seat's keyboard capability is what "a physical keyboard is present" means here.
        KeyboardPresence.setPhysicalKeyboard(hasKeyboard)
        if hasKeyboard, keyboard == nil {
            keyboard = wl_seat_get_keyboard(proxy)
            wl_keyboard_add_listener(keyboard, keyboardListener, unretained(self))
        } else if !hasKeyboard, let k = keyboard {
            cancelRepeat()
            version >= 3 ? wl_keyboard_release(k) : wl_keyboard_destroy(k)
            keyboard = nil
        }
        if hasTouch, touch == nil {
            touch = wl_seat_get_touch(proxy)
            wl_touch_add_listener(touch, touchListener, unretained(self))
        } else if !hasTouch, let t = touch {
            version >= 3 ? wl_touch_release(t) : wl_touch_destroy(t)
            touch = nil
        }
    }

    // MARK: Pointer

    struct PointerFrame {
        var entered: (serial: UInt32, location: Point)?
        var motion: Point?
        var buttons: [(code: UInt32, pressed: Bool)] = []
        var axis = (dx: 0.0, dy: 0.0)
        var hasAxis = false
        var value120 = (x: Int32(0), y: Int32(0))
        var discrete = (x: Int32(0), y: Int32(0))
        var source: UInt32?
        var stopped = false
        var left = false
    }

    private var pointerGroupsFrames: Bool { version >= 5 }

    fileprivate func handlePointerEnter(serial: UInt32, surface: OpaquePointer?, x: Double, y: Double) {
        guard surface == windowSurface else { return }
        frame.entered = (serial, Point(x: x, y: y))
        if !pointerGroupsFrames { flushPointerFrame() }
    }

    fileprivate func handlePointerLeave(surface: OpaquePointer?) {
        frame.left = true
        if !pointerGroupsFrames { flushPointerFrame() }
    }

    fileprivate func handlePointerMotion(x: Double, y: Double) {
        frame.motion = Point(x: x, y: y)
        if !pointerGroupsFrames { flushPointerFrame() }
    }

    fileprivate func handlePointerButton(code: UInt32, state: UInt32) {
        frame.buttons.append((code, state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue))
        if !pointerGroupsFrames { flushPointerFrame() }
    }

    fileprivate func handleAxis(axis: UInt32, value: Double) {
        if axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue { frame.axis.dy += value } else { frame.axis.dx += value }
        frame.hasAxis = true
        if !pointerGroupsFrames { flushPointerFrame() }
    }

    fileprivate func handleAxisSource(_ source: UInt32) { frame.source = source }
    fileprivate func handleAxisStop(axis: UInt32) { frame.stopped = true }
    fileprivate func handleAxisDiscrete(axis: UInt32, steps: Int32) {
        if axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue { frame.discrete.y += steps } else { frame.discrete.x += steps }
    }
    fileprivate func handleAxisValue120(axis: UInt32, value: Int32) {
        if axis == WL_POINTER_AXIS_VERTICAL_SCROLL.rawValue { frame.value120.y += value } else { frame.value120.x += value }
    }

    fileprivate func flushPointerFrame() {
        let f = frame
        frame = PointerFrame()
        if let entered = f.entered {
            pointerInside = true
            pointerLocation = entered.location
            cursor?.show(on: pointer, serial: entered.serial)
            send(.pointerMove(pointerLocation))
        }
        guard pointerInside else { return }
        if let m = f.motion {
            pointerLocation = m
            send(.pointerMove(m))
        }
        for b in f.buttons {
            fling.stop()
            let button = PointerButton(linuxCode: b.code)
            send(b.pressed ? .pointerDown(button, pointerLocation) : .pointerUp(button, pointerLocation))
        }
        if f.hasAxis {
            let continuous = f.source == WL_POINTER_AXIS_SOURCE_FINGER.rawValue
                || f.source == WL_POINTER_AXIS_SOURCE_CONTINUOUS.rawValue
            let steps = f.value120.y != 0 ? Int(f.value120.y / 120) : Int(f.discrete.y)
            let delta = ScrollDelta(dx: f.axis.dx, dy: f.axis.dy, source: continuous ? .continuous : .wheel,
                                    discreteSteps: continuous ? 0 : steps)
            fling.stop()
            if continuous { fling.track(delta, at: InputClock.now) }
            send(.scroll(pointerLocation, delta))
        }
        if f.stopped { fling.start(at: InputClock.now) }
        if f.left {
            pointerInside = false
            fling.stop()
            send(.pointerLeave)
        }
    }

    // MARK: Keyboard

    fileprivate func handleKeymap(format: UInt32, fd: Int32, size: UInt32) {
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, let xkb else { close(fd); return }
        do { try xkb.loadKeymap(fd: fd, size: Int(size)) } catch {
            logger.error("wayland keyboard: \(error)")
        }
    }

    /// Keys already down when focus arrives are not replayed as key presses (they were pressed
    /// for another window: Alt-Tab must not type into this one).
    fileprivate func handleKeyboardEnter(pressedKeys: Int) {
        if WaylandSeat.debug { print("wayland input: keyboard enter, \(pressedKeys) keys already down"); fflush(nil) }
    }

    fileprivate func handleKeyboardLeave() {
        cancelRepeat()
        composer?.reset()
    }

    fileprivate func handleKey(key: UInt32, state: UInt32) {
        guard let xkb, let (sym, keyText) = xkb.translate(evdevKey: key) else { return }
        var text = keyText
        let k = Key(keysym: sym)
        if state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue {
            // A dead key starts a sequence; the key that ends it types the composed text.
            switch composer?.feed(keysym: sym) ?? .passThrough {
            case .passThrough: break
            case .composing, .cancelled: text = ""
            case let .composed(s): text = s
            }
            send(.keyDown(k, text: text, isRepeat: false))
            cancelRepeat()
            if repeatRate > 0, xkb.repeats(evdevKey: key) { startRepeat(key: key) }
        } else {
            if repeatKey == key { cancelRepeat() }
            send(.keyUp(k))
        }
    }

    fileprivate func handleModifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        xkb?.updateMask(depressed: depressed, latched: latched, locked: locked, group: group)
        modifiers = xkb?.modifiers ?? []
    }

    fileprivate func handleRepeatInfo(rate: Int32, delay: Int32) {
        repeatRate = max(0, rate)
        repeatDelay = max(0, delay)
        if repeatRate == 0 { cancelRepeat() }
    }

    private func startRepeat(key: UInt32) {
        repeatKey = key
        let period = Duration.nanoseconds(1_000_000_000 / Int64(max(1, repeatRate)))
        repeatTimer = EventLoop.main.addTimer(after: .milliseconds(Int64(repeatDelay)), repeating: period) { [unowned self] in
            guard let xkb, let k = repeatKey, let (sym, text) = xkb.translate(evdevKey: k) else { return }
            send(.keyDown(Key(keysym: sym), text: text, isRepeat: true))
        }
    }

    private func cancelRepeat() {
        if let t = repeatTimer { EventLoop.main.cancelTimer(t) }
        repeatTimer = nil
        repeatKey = nil
    }

    // MARK: Touch

    fileprivate func handleTouchDown(surface: OpaquePointer?, id: Int32, x: Double, y: Double) {
        guard surface == windowSurface else { return }
        let p = Point(x: x, y: y)
        touchPoints[id] = p
        touchEvents.append(.touchDown(id: Int(id), p))
    }

    fileprivate func handleTouchMotion(id: Int32, x: Double, y: Double) {
        guard touchPoints[id] != nil else { return }
        let p = Point(x: x, y: y)
        touchPoints[id] = p
        touchEvents.append(.touchMove(id: Int(id), p))
    }

    fileprivate func handleTouchUp(id: Int32) {
        guard touchPoints.removeValue(forKey: id) != nil else { return }
        touchEvents.append(.touchUp(id: Int(id), nil))
    }

    fileprivate func handleTouchFrame() {
        let events = touchEvents
        touchEvents = []
        for e in events { send(e) }
    }

    fileprivate func handleTouchCancel() {
        touchEvents = []
        touchPoints = [:]
        send(.touchCancel(id: nil))
    }
}

private func fixed(_ v: wl_fixed_t) -> Double { wl_fixed_to_double(v) }

private nonisolated(unsafe) let seatListener = stableListener(wl_seat_listener()) { l in
    l.capabilities = { data, _, caps in owner(data, as: WaylandSeat.self).handleCapabilities(caps) }
    l.name = { _, _, _ in }
}

private nonisolated(unsafe) let pointerListener = stableListener(wl_pointer_listener()) { l in
    l.enter = { data, _, serial, surface, x, y in
        owner(data, as: WaylandSeat.self).handlePointerEnter(serial: serial, surface: surface, x: fixed(x), y: fixed(y))
    }
    l.leave = { data, _, _, surface in owner(data, as: WaylandSeat.self).handlePointerLeave(surface: surface) }
    l.motion = { data, _, _, x, y in owner(data, as: WaylandSeat.self).handlePointerMotion(x: fixed(x), y: fixed(y)) }
    l.button = { data, _, serial, _, button, state in
        let seat = owner(data, as: WaylandSeat.self)
        seat.lastInputSerial = serial
        seat.handlePointerButton(code: button, state: state)
    }
    l.axis = { data, _, _, axis, value in owner(data, as: WaylandSeat.self).handleAxis(axis: axis, value: fixed(value)) }
    l.frame = { data, _ in owner(data, as: WaylandSeat.self).flushPointerFrame() }
    l.axis_source = { data, _, source in owner(data, as: WaylandSeat.self).handleAxisSource(source) }
    l.axis_stop = { data, _, _, axis in owner(data, as: WaylandSeat.self).handleAxisStop(axis: axis) }
    l.axis_discrete = { data, _, axis, steps in owner(data, as: WaylandSeat.self).handleAxisDiscrete(axis: axis, steps: steps) }
    l.axis_value120 = { data, _, axis, value in owner(data, as: WaylandSeat.self).handleAxisValue120(axis: axis, value: value) }
}

private nonisolated(unsafe) let keyboardListener = stableListener(wl_keyboard_listener()) { l in
    l.keymap = { data, _, format, fd, size in owner(data, as: WaylandSeat.self).handleKeymap(format: format, fd: fd, size: size) }
    l.enter = { data, _, serial, _, keys in
        let seat = owner(data, as: WaylandSeat.self)
        seat.lastInputSerial = serial
        seat.handleKeyboardEnter(pressedKeys: (keys?.pointee.size ?? 0) / 4)
    }
    l.leave = { data, _, _, _ in owner(data, as: WaylandSeat.self).handleKeyboardLeave() }
    l.key = { data, _, serial, _, key, state in
        let seat = owner(data, as: WaylandSeat.self)
        seat.lastInputSerial = serial
        seat.handleKey(key: key, state: state)
    }
    l.modifiers = { data, _, _, depressed, latched, locked, group in
        owner(data, as: WaylandSeat.self).handleModifiers(depressed: depressed, latched: latched, locked: locked, group: group)
    }
    l.repeat_info = { data, _, rate, delay in owner(data, as: WaylandSeat.self).handleRepeatInfo(rate: rate, delay: delay) }
}

private nonisolated(unsafe) let touchListener = stableListener(wl_touch_listener()) { l in
    l.down = { data, _, serial, _, surface, id, x, y in
        let seat = owner(data, as: WaylandSeat.self)
        seat.lastInputSerial = serial
        seat.handleTouchDown(surface: surface, id: id, x: fixed(x), y: fixed(y))
    }
    l.up = { data, _, _, _, id in owner(data, as: WaylandSeat.self).handleTouchUp(id: id) }
    l.motion = { data, _, _, id, x, y in owner(data, as: WaylandSeat.self).handleTouchMotion(id: id, x: fixed(x), y: fixed(y)) }
    l.frame = { data, _ in owner(data, as: WaylandSeat.self).handleTouchFrame() }
    l.cancel = { data, _ in owner(data, as: WaylandSeat.self).handleTouchCancel() }
    l.shape = { _, _, _, _, _ in }
    l.orientation = { _, _, _, _ in }
}
