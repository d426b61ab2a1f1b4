import Foundation
import SilkGeometry

// The input model's vocabulary: what presenters (Wayland `wl_seat`, framebuffer evdev, headless
// tests) hand to an `InputDispatcher`. Everything here is a plain value; nothing refers to a
// presenter, so the model can be tested without one.
//
// Coordinates are in points in the window's coordinate space (the root node's supernode space;
// the root node fills the window from the origin). Timestamps are seconds on one monotonic clock,
// the same clock the window passes to `InputDispatcher.tick(now:)` — `InputClock.now` by default.

/// Seconds on the monotonic clock input timestamps use by default.
public enum InputClock {
    /// Now, in seconds since boot (CLOCK_MONOTONIC, which evdev and Wayland timestamps can be
    /// converted to).
    public static var now: Double { ProcessInfo.processInfo.systemUptime }
}

/// Modifier keys held while an event happened.
public struct KeyModifiers: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// A Shift key.
    public static let shift = KeyModifiers(rawValue: 1)
    /// A Control key (the shortcut modifier: Ctrl+C, Ctrl+V).
    public static let control = KeyModifiers(rawValue: 2)
    /// An Alt key (xkb's `Mod1`).
    public static let alt = KeyModifiers(rawValue: 4)
    /// The logo ("Windows", "Command") key: xkb's `Mod4`.
    public static let `super` = KeyModifiers(rawValue: 8)
    /// Caps Lock is on (a locked modifier, not a held key).
    public static let capsLock = KeyModifiers(rawValue: 16)
    /// Num Lock is on (a locked modifier, not a held key).
    public static let numLock = KeyModifiers(rawValue: 32)
    public var description: String {
        [(Self.shift, "shift"), (.control, "ctrl"), (.alt, "alt"), (.super, "super"), (.capsLock, "caps"), (.numLock, "num")]
            .filter { contains($0.0) }.map(\.1).joined(separator: "+")
    }
}

/// A pointer button, named after the Linux `BTN_*` codes Wayland and evdev both report.
public enum PointerButton: Hashable, Sendable {
    case left, right, middle, back, forward
    /// Any other button, with its Linux `BTN_*` code.
    case other(UInt32)

    /// From a Linux input event code (`BTN_LEFT` 0x110 …), as `wl_pointer.button` and evdev give it.
    public init(linuxCode code: UInt32) {
        switch code {
        case 0x110: self = .left
        case 0x111: self = .right
        case 0x112: self = .middle
        case 0x113, 0x116: self = .back      // BTN_SIDE, BTN_BACK
        case 0x114, 0x115: self = .forward   // BTN_EXTRA, BTN_FORWARD
        default: self = .other(code)
        }
    }
}

/// How far a scroll event moves, in points (positive `dy`: content moves up, i.e. the user
/// scrolls towards the end, as `wl_pointer.axis` reports it).
public struct ScrollDelta: Hashable, Sendable {
    /// What produced a scroll: a wheel scrolls in clicks, a touchpad continuously (and may fling).
    public enum Source: Hashable, Sendable {
        /// A mouse wheel: `discreteSteps` clicks.
        case wheel
        /// A touchpad or other continuous source.
        case continuous
    }
    /// Horizontal distance in points; positive scrolls towards the right end of the content.
    public var dx: Double
    /// Vertical distance in points; positive scrolls towards the end of the content.
    public var dy: Double
    /// The device kind that produced the scroll.
    public var source: Source
    /// Wheel clicks (`wl_pointer.axis_discrete`/`axis_value120` / 120, evdev `REL_WHEEL`); 0 when continuous.
    public var discreteSteps: Int
    /// A scroll of `dx`, `dy` points from `source`, with `discreteSteps` wheel clicks.
    public init(dx: Double = 0, dy: Double = 0, source: Source = .wheel, discreteSteps: Int = 0) {
        self.dx = dx; self.dy = dy; self.source = source; self.discreteSteps = discreteSteps
    }
}

/// A key, named like an X keysym: the keys the toolkit acts on by name, printable keys as their
/// (unshifted-or-shifted, whatever the keymap produced) character, anything else as the raw keysym.
public enum Key: Hashable, Sendable {
    case tab, enter, space, escape, backspace, delete, insert
    case left, right, up, down, home, end, pageUp, pageDown
    case shift, control, alt, `super`, capsLock
    /// F1 … F24.
    case function(Int)
    /// A printable key other than space.
    case character(Character)
    /// Any other keysym (xkbcommon's `xkb_keysym_t`).
    case keysym(UInt32)

    /// From an X/xkbcommon keysym. `ISO_Left_Tab` (what xkb produces for Shift+Tab) is `.tab`
    /// and the keypad's Enter is `.enter`.
    public init(keysym: UInt32) {
        switch keysym {
        case 0xff09, 0xfe20: self = .tab
        case 0xff0d, 0xff8d: self = .enter
        case 0x20, 0xff80: self = .space
        case 0xff1b: self = .escape
        case 0xff08: self = .backspace
        case 0xffff, 0xff9f: self = .delete
        case 0xff63, 0xff9e: self = .insert
        case 0xff51, 0xff96: self = .left
        case 0xff52, 0xff97: self = .up
        case 0xff53, 0xff98: self = .right
        case 0xff54, 0xff99: self = .down
        case 0xff50, 0xff95: self = .home
        case 0xff57, 0xff9c: self = .end
        case 0xff55, 0xff9a: self = .pageUp
        case 0xff56, 0xff9b: self = .pageDown
        case 0xffe1, 0xffe2: self = .shift
        case 0xffe3, 0xffe4: self = .control
        case 0xffe9, 0xffea, 0xffe7, 0xffe8: self = .alt
        case 0xffeb, 0xffec: self = .super
        case 0xffe5: self = .capsLock
        case 0xffbe...0xffd5: self = .function(Int(keysym - 0xffbe) + 1)
        case 0x21...0x7e, 0xa0...0xff:
            self = .character(Character(Unicode.Scalar(UInt8(keysym))))
        case 0x0100_0100...0x0110_ffff:
            // Unicode keysyms: 0x01000000 + the code point.
            if let s = Unicode.Scalar(keysym - 0x0100_0000) { self = .character(Character(s)) } else { self = .keysym(keysym) }
        default: self = .keysym(keysym)
        }
    }
}

/// One input event from a presenter.
public struct InputEvent: Hashable, Sendable, CustomStringConvertible {
    /// What happened, with where (window points) and which pointer, finger or key.
    public enum Kind: Hashable, Sendable {
        /// The pointer moved to a window location (with or without buttons held).
        case pointerMove(Point)
        /// A pointer button went down at a window location.
        case pointerDown(PointerButton, Point)
        /// A pointer button went up at a window location.
        case pointerUp(PointerButton, Point)
        /// The pointer left the window (`wl_pointer.leave`): a drag in progress is cancelled,
        /// since the release will not be seen.
        case pointerLeave
        /// A wheel or touchpad scroll at a window location.
        case scroll(Point, ScrollDelta)
        /// A finger touched down. Ids are the presenter's (`wl_touch` id, evdev tracking id);
        /// they are unique among touches that are down at once.
        case touchDown(id: Int, Point)
        /// A finger that is down moved to a window location.
        case touchMove(id: Int, Point)
        /// A finger lifted; nil location: where it last moved (neither `wl_touch.up` nor evdev
        /// report one).
        case touchUp(id: Int, Point?)
        /// The system took over a touch (nil: all touches, as `wl_touch.cancel` does).
        case touchCancel(id: Int?)
        /// A key went down (or repeats). `text` is the UTF-8 the keymap produced (may be empty).
        case keyDown(Key, text: String = "", isRepeat: Bool = false)
        /// A key went up.
        case keyUp(Key)
    }

    /// What happened.
    public var kind: Kind
    /// Seconds on the input clock (see `InputClock`).
    public var timestamp: Double
    /// The modifier keys held when the event happened (shortcuts look at these).
    public var modifiers: KeyModifiers

    /// An event of `kind` at `timestamp` (seconds on ``InputClock``) with `modifiers` held.
    public init(_ kind: Kind, timestamp: Double, modifiers: KeyModifiers = []) {
        self.kind = kind; self.timestamp = timestamp; self.modifiers = modifiers
    }

    /// The window location the event happened at, for pointer and touch events that carry one.
    public var location: Point? {
        switch kind {
        case let .pointerMove(p), let .pointerDown(_, p), let .pointerUp(_, p), let .scroll(p, _),
             let .touchDown(_, p), let .touchMove(_, p): return p
        case let .touchUp(_, p): return p
        case .pointerLeave, .touchCancel, .keyDown, .keyUp: return nil
        }
    }

    public var description: String {
        let t = String(format: "%.3f", timestamp)
        let m = modifiers.isEmpty ? "" : " [\(modifiers)]"
        return "\(kind) @\(t)\(m)"
    }
}

/// A key event as a node sees it (`DisplayNode.keyDown(_:)`).
public struct KeyInput: Hashable, Sendable {
    /// The key, as the keymap names it.
    public var key: Key
    /// The text the key produced (empty for keys that produce none, and for key-up).
    public var text: String
    /// The modifier keys held when the key event happened.
    public var modifiers: KeyModifiers
    /// True for the keyboard's auto-repeat presses after the first (a node may ignore them).
    public var isRepeat: Bool
    /// Seconds on ``InputClock`` when the key event happened.
    public var timestamp: Double
    /// A key event for `key` that produced `text` (empty for keys that produce none).
    public init(key: Key, text: String = "", modifiers: KeyModifiers = [], isRepeat: Bool = false, timestamp: Double = 0) {
        self.key = key; self.text = text; self.modifiers = modifiers; self.isRepeat = isRepeat; self.timestamp = timestamp
    }
}
