// Classifying an evdev device by what it can report (EVIOCGBIT), as libinput does in spirit:
// keys that only keyboards have, relative axes of mice, absolute axes with BTN_TOUCH for
// touchscreens and without it (but with buttons) for tablets and virtual absolute pointers.

/// What Silk does with a device.
public struct InputDeviceKind: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let keyboard = InputDeviceKind(rawValue: 1)
    /// A mouse (relative motion).
    public static let pointer = InputDeviceKind(rawValue: 2)
    /// A tablet or virtual absolute pointer (QEMU's tablet, VNC): absolute motion with buttons.
    public static let absolutePointer = InputDeviceKind(rawValue: 4)
    public static let touchscreen = InputDeviceKind(rawValue: 8)

    public var description: String {
        let names = [(Self.keyboard, "keyboard"), (.pointer, "pointer"), (.absolutePointer, "absolute pointer"), (.touchscreen, "touchscreen")]
            .filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "ignored" : names.joined(separator: "+")
    }
}

/// A device's capability bits (EVIOCGBIT per event type).
public struct InputCapabilities: Sendable {
    public var eventTypes: Set<UInt16> = []
    public var keys: Set<UInt16> = []
    public var relativeAxes: Set<UInt16> = []
    public var absoluteAxes: Set<UInt16> = []
    public init(eventTypes: Set<UInt16> = [], keys: Set<UInt16> = [], relativeAxes: Set<UInt16> = [], absoluteAxes: Set<UInt16> = []) {
        self.eventTypes = eventTypes; self.keys = keys; self.relativeAxes = relativeAxes; self.absoluteAxes = absoluteAxes
    }

    public var kind: InputDeviceKind {
        var k: InputDeviceKind = []
        // Keyboards have letter keys; power buttons and remote controls with a few keys do not count.
        if eventTypes.contains(EV.key), [EV.keyQ, EV.keyA, EV.keyZ, EV.keySpace].allSatisfy(keys.contains) { k.insert(.keyboard) }
        let hasButtons = keys.contains { $0 >= EV.btnMouse && $0 <= EV.btnTask }
        if eventTypes.contains(EV.rel), relativeAxes.contains(EV.relX), relativeAxes.contains(EV.relY), hasButtons { k.insert(.pointer) }
        let hasAbs = eventTypes.contains(EV.abs) && (absoluteAxes.contains(EV.absX) && absoluteAxes.contains(EV.absY)
            || absoluteAxes.contains(EV.absMTPositionX) && absoluteAxes.contains(EV.absMTPositionY))
        if hasAbs {
            if keys.contains(EV.btnTouch) { k.insert(.touchscreen) } else if hasButtons { k.insert(.absolutePointer) }
        }
        return k
    }
}
