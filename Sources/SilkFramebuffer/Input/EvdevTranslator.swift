// Turning evdev event frames (everything up to SYN_REPORT) into Silk `InputEvent`s in window
// points: keys through a `KeyMapper` (xkbcommon, or a built-in US map), mice as one shared pointer,
// tablets and touchscreens through their axis ranges, the touch calibration and the screen's
// rotation. Pure state, no devices: the unit tests feed it event lists.
import SilkGeometry
import SilkInput

/// Where touches and absolute pointers land: the panel and how the picture is turned on it.
public struct InputScreen: Sendable, Equatable {
    /// The panel in device pixels (unrotated).
    public var deviceWidth: Int
    public var deviceHeight: Int
    public var rotation: Rotation
    /// Device pixels per point.
    public var scale: Double
    public init(deviceWidth: Int, deviceHeight: Int, rotation: Rotation = .none, scale: Double = 1) {
        self.deviceWidth = deviceWidth; self.deviceHeight = deviceHeight; self.rotation = rotation; self.scale = scale
    }
    /// The window's size in points.
    public var logicalSize: Size {
        let (w, h) = rotation.logicalSize(deviceWidth: deviceWidth, deviceHeight: deviceHeight)
        return Size(width: Double(w) / scale, height: Double(h) / scale)
    }

    /// A point normalised to 0…1 on the panel (clamped) → window points, through the rotation.
    public func windowPoint(normalisedX x: Double, y: Double) -> Point {
        let px = min(max(x, 0), 1) * Double(deviceWidth), py = min(max(y, 0), 1) * Double(deviceHeight)
        let l = rotation.logicalPoint(fromDevice: Point(x: px, y: py), deviceWidth: deviceWidth, deviceHeight: deviceHeight)
        return Point(x: l.x / scale, y: l.y / scale)
    }
}

/// How a touchscreen's axes map onto the panel, applied to coordinates normalised to 0…1 from the
/// device's axis ranges, before the screen rotation: first `swapAxes`, then `invertX`/`invertY`,
/// then the libinput-style calibration matrix (x' = a·x + b·y + c, y' = d·x + e·y + f).
public struct TouchCalibration: Sendable, Equatable {
    public var matrix: [Double] = [1, 0, 0, 0, 1, 0]
    public var swapAxes = false
    public var invertX = false
    public var invertY = false
    public init(matrix: [Double] = [1, 0, 0, 0, 1, 0], swapAxes: Bool = false, invertX: Bool = false, invertY: Bool = false) {
        self.matrix = matrix.count == 6 ? matrix : [1, 0, 0, 0, 1, 0]
        self.swapAxes = swapAxes; self.invertX = invertX; self.invertY = invertY
    }

    /// Parses "a b c d e f" (spaces or commas), as udev's LIBINPUT_CALIBRATION_MATRIX is written.
    public init?(matrixString s: String) {
        // Every token must be a finite number: skipping a garbage token would shift the others
        // into the wrong places of the matrix and silently mis-map every touch.
        let tokens = s.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
        let v = tokens.compactMap { Double($0) }.filter(\.isFinite)
        guard tokens.count == 6, v.count == 6 else { return nil }
        self.init(matrix: v)
    }

    func apply(_ x: Double, _ y: Double) -> (Double, Double) {
        var (x, y) = swapAxes ? (y, x) : (x, y)
        if invertX { x = 1 - x }
        if invertY { y = 1 - y }
        let m = matrix
        return (m[0] * x + m[1] * y + m[2], m[3] * x + m[4] * y + m[5])
    }
}

/// An absolute axis's range (EVIOCGABS).
public struct AxisRange: Sendable, Equatable {
    public var minimum: Int32
    public var maximum: Int32
    public init(_ minimum: Int32, _ maximum: Int32) { self.minimum = minimum; self.maximum = maximum }
    /// `v` as a fraction of the range (not clamped). In `Double`: a device may report the whole
    /// Int32 range, whose width overflows Int32 (found by the evdev fuzzer).
    func normalise(_ v: Int32) -> Double {
        maximum > minimum ? (Double(v) - Double(minimum)) / (Double(maximum) - Double(minimum)) : 0
    }
}

/// Translates evdev frames of every device into `InputEvent`s. Main thread (not thread-safe).
public final class EvdevTranslator {
    public var screen: InputScreen
    public var calibration: TouchCalibration
    public let keyMapper: (any KeyMapper)?
    /// Points the pointer moves per relative unit (mouse counts).
    public var pointerSpeed = 1.0
    /// Points a wheel click scrolls.
    public var wheelStep = 15.0
    /// The shared pointer's location in window points.
    public private(set) var pointerLocation: Point

    private struct Slot { var trackingID = -1; var x: Int32 = 0; var y: Int32 = 0; var active = false; var began = false; var moved = false; var ended = false }
    private struct DeviceState {
        var kind: InputDeviceKind
        var xRange: AxisRange?
        var yRange: AxisRange?
        var multitouch: Bool
        var slots = [Slot](repeating: Slot(), count: 16)
        var slot = 0
        var absX: Int32 = 0, absY: Int32 = 0, absChanged = false
        var touchDown = false, touchChanged = false
        var relX = 0.0, relY = 0.0, wheel = 0, hWheel = 0
        var buttons: [(UInt16, Bool)] = []
        var keys: [(UInt16, Int32)] = []
        var dropped = false
    }
    private var devices: [Int: DeviceState] = [:]

    public init(screen: InputScreen, calibration: TouchCalibration = TouchCalibration(), keyMapper: (any KeyMapper)?) {
        self.screen = screen; self.calibration = calibration; self.keyMapper = keyMapper
        let s = screen.logicalSize
        pointerLocation = Point(x: (s.width / 2).rounded(), y: (s.height / 2).rounded())
    }

    /// Registers a device (its axis ranges: ABS_MT_POSITION_* for multitouch, else ABS_X/ABS_Y).
    public func addDevice(id: Int, kind: InputDeviceKind, xRange: AxisRange? = nil, yRange: AxisRange? = nil, multitouch: Bool = false) {
        devices[id] = DeviceState(kind: kind, xRange: xRange, yRange: yRange, multitouch: multitouch)
    }

    /// Forgets a device; touches it had down are cancelled.
    public func removeDevice(id: Int, now: Double) -> [InputEvent] {
        guard let d = devices.removeValue(forKey: id) else { return [] }
        var out: [InputEvent] = []
        if d.kind.contains(.touchscreen) {
            for s in d.slots where s.active { out.append(InputEvent(.touchCancel(id: touchID(device: id, tracking: s.trackingID)), timestamp: now)) }
            if !d.multitouch && d.touchDown { out.append(InputEvent(.touchCancel(id: touchID(device: id, tracking: 0)), timestamp: now)) }
        }
        return out
    }

    public var hasPointer: Bool { devices.values.contains { !$0.kind.isDisjoint(with: [.pointer, .absolutePointer]) } }

    private func touchID(device: Int, tracking: Int) -> Int { device << 16 | (tracking & 0xffff) }

    private func absolutePoint(_ d: DeviceState, _ x: Int32, _ y: Int32, calibrated: Bool) -> Point {
        let nx = d.xRange?.normalise(x) ?? 0, ny = d.yRange?.normalise(y) ?? 0
        let (cx, cy) = calibrated ? calibration.apply(nx, ny) : (nx, ny)
        return screen.windowPoint(normalisedX: cx, y: cy)
    }

    /// Feeds events read from device `id`; returns the input events completed by SYN_REPORTs.
    public func handle(_ events: [EvdevEvent], from id: Int, now: Double) -> [InputEvent] {
        guard var d = devices[id] else { return [] }
        var out: [InputEvent] = []
        for e in events {
            switch e.type {
            case EV.syn where e.code == EV.synDropped:
                d.dropped = true  // the kernel dropped events: discard until the next report
            case EV.syn where e.code == EV.synReport:
                if d.dropped { d = resynced(d); continue }
                flush(&d, device: id, now: now, into: &out)
            case _ where d.dropped:
                continue
            case EV.key:
                if e.code == EV.btnTouch { d.touchDown = e.value != 0; d.touchChanged = true }
                else if e.code >= EV.btnMouse && e.code <= EV.btnTask { d.buttons.append((e.code, e.value != 0)) }
                else if e.code < EV.btnMouse || e.code >= 0x160 { d.keys.append((e.code, e.value)) }
            case EV.rel:
                switch e.code {
                case EV.relX: d.relX += Double(e.value)
                case EV.relY: d.relY += Double(e.value)
                // Summed in Int: a device may send values near Int32's ends (the evdev fuzzer
                // overflowed an Int32 sum with two in one frame).
                case EV.relWheel: d.wheel += Int(e.value)
                case EV.relHWheel: d.hWheel += Int(e.value)
                default: break
                }
            case EV.abs:
                switch e.code {
                case EV.absMTSlot: d.slot = Int(e.value)
                case EV.absMTTrackingID where d.slot >= 0 && d.slot < d.slots.count:
                    if e.value >= 0 { d.slots[d.slot].trackingID = Int(e.value); d.slots[d.slot].began = true }
                    else { d.slots[d.slot].ended = true }
                case EV.absMTPositionX where d.slot >= 0 && d.slot < d.slots.count:
                    d.slots[d.slot].x = e.value; d.slots[d.slot].moved = true
                case EV.absMTPositionY where d.slot >= 0 && d.slot < d.slots.count:
                    d.slots[d.slot].y = e.value; d.slots[d.slot].moved = true
                case EV.absX: d.absX = e.value; d.absChanged = true
                case EV.absY: d.absY = e.value; d.absChanged = true
                default: break
                }
            default: break
            }
        }
        devices[id] = d
        return out
    }

    /// After SYN_DROPPED: drop the half-read frame; touches already down stay down.
    private func resynced(_ d: DeviceState) -> DeviceState {
        var n = DeviceState(kind: d.kind, xRange: d.xRange, yRange: d.yRange, multitouch: d.multitouch)
        n.absX = d.absX; n.absY = d.absY; n.touchDown = d.touchDown; n.slot = d.slot
        for i in n.slots.indices {
            n.slots[i].active = d.slots[i].active; n.slots[i].trackingID = d.slots[i].trackingID
            n.slots[i].x = d.slots[i].x; n.slots[i].y = d.slots[i].y
        }
        return n
    }

    private func flush(_ d: inout DeviceState, device id: Int, now: Double, into out: inout [InputEvent]) {
        let mods = keyMapper?.modifiers ?? []
        // Keys.
        for (code, value) in d.keys {
            guard let km = keyMapper else { break }
            let (sym, text) = km.key(code: code, value: value)
            let key = Key(keysym: sym)
            out.append(InputEvent(value == 0 ? .keyUp(key) : .keyDown(key, text: text, isRepeat: value == 2),
                                  timestamp: now, modifiers: value == 0 ? km.modifiers : mods))
        }
        d.keys.removeAll()

        if d.kind.contains(.touchscreen) {
            if d.multitouch {
                for i in d.slots.indices {
                    var s = d.slots[i]
                    let tid = touchID(device: id, tracking: s.trackingID)
                    if s.began && !s.active {
                        s.active = true
                        out.append(InputEvent(.touchDown(id: tid, absolutePoint(d, s.x, s.y, calibrated: true)), timestamp: now, modifiers: mods))
                    } else if s.moved && s.active {
                        out.append(InputEvent(.touchMove(id: tid, absolutePoint(d, s.x, s.y, calibrated: true)), timestamp: now, modifiers: mods))
                    }
                    if s.ended && s.active {
                        s.active = false
                        out.append(InputEvent(.touchUp(id: tid, nil), timestamp: now, modifiers: mods))
                    }
                    s.began = false; s.moved = false; s.ended = false
                    d.slots[i] = s
                }
            } else {
                let tid = touchID(device: id, tracking: 0)
                let p = absolutePoint(d, d.absX, d.absY, calibrated: true)
                if d.touchChanged && d.touchDown { out.append(InputEvent(.touchDown(id: tid, p), timestamp: now, modifiers: mods)) }
                else if d.touchChanged && !d.touchDown { out.append(InputEvent(.touchUp(id: tid, nil), timestamp: now, modifiers: mods)) }
                else if d.absChanged && d.touchDown { out.append(InputEvent(.touchMove(id: tid, p), timestamp: now, modifiers: mods)) }
            }
            d.touchChanged = false; d.absChanged = false
            return
        }

        // Pointers: motion first, then buttons at the new location, then the wheel.
        if d.kind.contains(.absolutePointer), d.absChanged {
            pointerLocation = absolutePoint(d, d.absX, d.absY, calibrated: false)
            out.append(InputEvent(.pointerMove(pointerLocation), timestamp: now, modifiers: mods))
        } else if d.relX != 0 || d.relY != 0 {
            let size = screen.logicalSize
            pointerLocation = Point(x: min(max(pointerLocation.x + d.relX * pointerSpeed, 0), size.width - 1),
                                    y: min(max(pointerLocation.y + d.relY * pointerSpeed, 0), size.height - 1))
            out.append(InputEvent(.pointerMove(pointerLocation), timestamp: now, modifiers: mods))
        }
        d.absChanged = false; d.relX = 0; d.relY = 0
        for (code, down) in d.buttons {
            let b = PointerButton(linuxCode: UInt32(code))
            out.append(InputEvent(down ? .pointerDown(b, pointerLocation) : .pointerUp(b, pointerLocation), timestamp: now, modifiers: mods))
        }
        d.buttons.removeAll()
        if d.wheel != 0 || d.hWheel != 0 {
            // REL_WHEEL is positive away from the user (scroll up); Silk's dy is positive towards the end.
            // At most 10,000 clicks a frame: no wheel turns faster; a hostile device's sums stay finite.
            let wheel = max(-10_000, min(10_000, d.wheel)), hWheel = max(-10_000, min(10_000, d.hWheel))
            let delta = ScrollDelta(dx: Double(hWheel) * wheelStep, dy: Double(-wheel) * wheelStep, source: .wheel, discreteSteps: -wheel)
            out.append(InputEvent(.scroll(pointerLocation, delta), timestamp: now, modifiers: mods))
            d.wheel = 0; d.hWheel = 0
        }
    }
}
