// Turning libinput's events (already split by device kind, accelerated, de-jittered, with
// touchpad tapping and the quirks database applied) into the same `InputEvent`s Silk's evdev
// reader produces: keys through the same `KeyMapper`, absolute positions normalised to 0…1 by
// libinput and mapped through the screen's rotation, touches by libinput's seat slot. Pure state,
// no devices: `Libinput.swift` converts each C event into a `LibinputEvent` value, and the unit
// tests feed recorded sequences of those values.
import SilkGeometry
import SilkInput

/// One libinput event, as a value (`Libinput.swift` reads it from `struct libinput_event`).
/// Positions are normalised to 0…1 over the device's range (libinput's
/// `…_get_x_transformed(event, 1)`), after libinput's calibration matrix.
public enum LibinputEvent: Sendable, Equatable {
    /// `LIBINPUT_EVENT_KEYBOARD_KEY`: an evdev key code, pressed or released (libinput never
    /// reports the kernel's autorepeat; the translator's owner repeats).
    case key(code: UInt32, pressed: Bool)
    /// `LIBINPUT_EVENT_POINTER_MOTION`: relative motion, accelerated by libinput.
    case pointerMotion(dx: Double, dy: Double)
    /// `LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE` (QEMU's tablet, VNC, some touch panels in mouse mode).
    case pointerAbsolute(x: Double, y: Double)
    /// `LIBINPUT_EVENT_POINTER_BUTTON`: a `BTN_*` code.
    case pointerButton(code: UInt32, pressed: Bool)
    /// `LIBINPUT_EVENT_POINTER_SCROLL_WHEEL`: wheel clicks in 120ths (`value_v120`), positive down/right.
    case scrollWheel(v120X: Double, v120Y: Double)
    /// `LIBINPUT_EVENT_POINTER_SCROLL_FINGER` / `_CONTINUOUS`: two-finger touchpad scrolling and
    /// the like, in libinput's pointer-motion units, positive down/right.
    case scrollContinuous(dx: Double, dy: Double)
    /// `LIBINPUT_EVENT_TOUCH_DOWN` / `_MOTION` / `_UP` / `_CANCEL` by seat slot.
    case touchDown(slot: Int, x: Double, y: Double)
    case touchMotion(slot: Int, x: Double, y: Double)
    case touchUp(slot: Int)
    case touchCancel(slot: Int)
    /// `LIBINPUT_EVENT_TABLET_TOOL_TIP`: a pen touching (down) or leaving the surface.
    case tabletTip(down: Bool, x: Double, y: Double)
    /// `LIBINPUT_EVENT_TABLET_TOOL_AXIS` (and proximity out, as `down: false` tips): the pen moved.
    case tabletMotion(x: Double, y: Double)
}

/// Translates libinput's events of every device into `InputEvent`s. Main thread (not thread-safe).
public final class LibinputTranslator {
    public var screen: InputScreen
    public let keyMapper: (any KeyMapper)?
    /// Points the pointer moves per unit of libinput's (accelerated) relative motion.
    public var pointerSpeed = 1.0
    /// Points a wheel click scrolls (as the evdev reader's `wheelStep`).
    public var wheelStep = 15.0
    /// The shared pointer's location in window points.
    public private(set) var pointerLocation: Point
    /// The key that repeats while held (xkb says it repeats), for the owner's repeat timer; nil
    /// when none is held.
    public private(set) var repeatingKey: UInt32?

    /// Touches down per device (seat slots), so a device that goes away cancels its own.
    private var touches: [Int: Set<Int>] = [:]
    /// Devices whose pen tip is down.
    private var tipsDown: Set<Int> = []

    public init(screen: InputScreen, keyMapper: (any KeyMapper)?) {
        self.screen = screen; self.keyMapper = keyMapper
        let s = screen.logicalSize
        pointerLocation = Point(x: (s.width / 2).rounded(), y: (s.height / 2).rounded())
    }

    /// A touch's id: the device in the high bits as the evdev reader does, so ids never collide
    /// across devices; a pen is slot 0xffff of its device.
    private func touchID(device: Int, slot: Int) -> Int { device << 16 | (slot & 0xffff) }

    private func point(_ x: Double, _ y: Double) -> Point {
        screen.windowPoint(normalisedX: x.isFinite ? x : 0, y: y.isFinite ? y : 0)
    }

    /// Feeds one event of device `device` (any id the owner chose, stable while it is open).
    public func handle(_ event: LibinputEvent, from device: Int, now: Double) -> [InputEvent] {
        let mods = keyMapper?.modifiers ?? []
        switch event {
        case let .key(code, pressed):
            guard let km = keyMapper, code <= UInt32(UInt16.max) else { return [] }
            let (sym, text) = km.key(code: UInt16(code), value: pressed ? 1 : 0)
            let key = Key(keysym: sym)
            if pressed {
                let repeats = (km as? XKBKeyboard)?.repeats(evdevKey: code) ?? !Self.isModifier(code)
                repeatingKey = repeats ? code : nil
                return [InputEvent(.keyDown(key, text: text, isRepeat: false), timestamp: now, modifiers: mods)]
            }
            if repeatingKey == code { repeatingKey = nil }
            return [InputEvent(.keyUp(key), timestamp: now, modifiers: km.modifiers)]

        case let .pointerMotion(dx, dy):
            guard dx.isFinite, dy.isFinite else { return [] }
            let size = screen.logicalSize
            pointerLocation = Point(x: min(max(pointerLocation.x + dx * pointerSpeed, 0), size.width - 1),
                                    y: min(max(pointerLocation.y + dy * pointerSpeed, 0), size.height - 1))
            return [InputEvent(.pointerMove(pointerLocation), timestamp: now, modifiers: mods)]

        case let .pointerAbsolute(x, y):
            pointerLocation = point(x, y)
            return [InputEvent(.pointerMove(pointerLocation), timestamp: now, modifiers: mods)]

        case let .pointerButton(code, pressed):
            let b = PointerButton(linuxCode: code)
            return [InputEvent(pressed ? .pointerDown(b, pointerLocation) : .pointerUp(b, pointerLocation), timestamp: now, modifiers: mods)]

        case let .scrollWheel(v120X, v120Y):
            guard v120X.isFinite, v120Y.isFinite, v120X != 0 || v120Y != 0 else { return [] }
            // libinput's vertical axis is positive downwards, which is Silk's "towards the end";
            // at most 10,000 clicks an event, as the evdev reader clamps.
            let clicksX = max(-10_000, min(10_000, v120X / 120)), clicksY = max(-10_000, min(10_000, v120Y / 120))
            let steps = Int(clicksY.rounded(.towardZero))
            let delta = ScrollDelta(dx: clicksX * wheelStep, dy: clicksY * wheelStep, source: .wheel, discreteSteps: steps)
            return [InputEvent(.scroll(pointerLocation, delta), timestamp: now, modifiers: mods)]

        case let .scrollContinuous(dx, dy):
            guard dx.isFinite, dy.isFinite, dx != 0 || dy != 0 else { return [] }
            let delta = ScrollDelta(dx: max(-1e6, min(1e6, dx)), dy: max(-1e6, min(1e6, dy)), source: .continuous)
            return [InputEvent(.scroll(pointerLocation, delta), timestamp: now, modifiers: mods)]

        case let .touchDown(slot, x, y):
            touches[device, default: []].insert(slot)
            return [InputEvent(.touchDown(id: touchID(device: device, slot: slot), point(x, y)), timestamp: now, modifiers: mods)]
        case let .touchMotion(slot, x, y):
            guard touches[device]?.contains(slot) == true else { return [] }
            return [InputEvent(.touchMove(id: touchID(device: device, slot: slot), point(x, y)), timestamp: now, modifiers: mods)]
        case let .touchUp(slot):
            guard touches[device]?.remove(slot) != nil else { return [] }
            return [InputEvent(.touchUp(id: touchID(device: device, slot: slot), nil), timestamp: now, modifiers: mods)]
        case let .touchCancel(slot):
            guard touches[device]?.remove(slot) != nil else { return [] }
            return [InputEvent(.touchCancel(id: touchID(device: device, slot: slot)), timestamp: now, modifiers: mods)]

        // A pen is one touch: the tip down is a touch down where it landed, moves while down
        // are touch moves, lifting is the touch's end (so a tap with a pen is a tap).
        case let .tabletTip(down, x, y):
            let id = touchID(device: device, slot: 0xffff)
            if down {
                guard tipsDown.insert(device).inserted else { return [] }
                return [InputEvent(.touchDown(id: id, point(x, y)), timestamp: now, modifiers: mods)]
            }
            guard tipsDown.remove(device) != nil else { return [] }
            return [InputEvent(.touchMove(id: id, point(x, y)), timestamp: now, modifiers: mods),
                    InputEvent(.touchUp(id: id, nil), timestamp: now, modifiers: mods)]
        case let .tabletMotion(x, y):
            guard tipsDown.contains(device) else { return [] }
            return [InputEvent(.touchMove(id: touchID(device: device, slot: 0xffff), point(x, y)), timestamp: now, modifiers: mods)]
        }
    }

    /// The held key's repeat (`keyDown` with `isRepeat: true`), when one is held.
    public func repeatEvent(now: Double) -> InputEvent? {
        guard let code = repeatingKey, let km = keyMapper else { return nil }
        let (sym, text) = km.key(code: UInt16(code), value: 2)
        return InputEvent(.keyDown(Key(keysym: sym), text: text, isRepeat: true), timestamp: now, modifiers: km.modifiers)
    }

    /// Forgets a device: its touches and pen are cancelled, and a key repeat stops.
    public func removeDevice(_ device: Int, now: Double) -> [InputEvent] {
        var out = (touches.removeValue(forKey: device) ?? []).sorted().map {
            InputEvent(.touchCancel(id: touchID(device: device, slot: $0)), timestamp: now)
        }
        if tipsDown.remove(device) != nil { out.append(InputEvent(.touchCancel(id: touchID(device: device, slot: 0xffff)), timestamp: now)) }
        return out
    }

    /// Stops a key repeat (devices suspended on a VT switch: the release will not be seen).
    public func stopRepeat() { repeatingKey = nil }

    /// Shift, Control, Alt, Meta and the lock keys: never repeated by the built-in keymap.
    static func isModifier(_ code: UInt32) -> Bool {
        [29, 42, 54, 56, 97, 100, 125, 126, 58, 69, 70].contains(code)
    }
}
