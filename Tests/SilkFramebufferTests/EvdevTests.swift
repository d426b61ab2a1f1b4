import Foundation
import SilkGeometry
import SilkInput
import Testing
@testable import SilkFramebuffer

func ev(_ type: UInt16, _ code: UInt16, _ value: Int32) -> EvdevEvent { EvdevEvent(type: type, code: code, value: value) }
let syn = ev(EV.syn, EV.synReport, 0)

@Suite("evdev")
struct EvdevTests {
    @Test("records round-trip through the wire format")
    func parse() {
        let events = [EvdevEvent(time: 12.5, type: EV.key, code: 30, value: 1), EvdevEvent(time: 12.5, type: EV.syn, code: 0, value: 0),
                      EvdevEvent(time: 13.25, type: EV.rel, code: EV.relX, value: -7)]
        let bytes = events.flatMap(\.bytes) + [1, 2, 3]  // a partial record at the end is ignored
        #expect(bytes.count == 3 * EvdevEvent.size + 3)
        let parsed = bytes.withUnsafeBytes { EvdevEvent.parse($0) }
        #expect(parsed == events)
    }

    @Test("devices are classified by their capabilities")
    func classify() {
        let keyboard = InputCapabilities(eventTypes: [EV.syn, EV.key], keys: Set((1...88).map(UInt16.init)))
        #expect(keyboard.kind == .keyboard)
        let powerButton = InputCapabilities(eventTypes: [EV.syn, EV.key], keys: [116])
        #expect(powerButton.kind.isEmpty)
        let mouse = InputCapabilities(eventTypes: [EV.syn, EV.key, EV.rel], keys: [EV.btnLeft, EV.btnRight], relativeAxes: [EV.relX, EV.relY, EV.relWheel])
        #expect(mouse.kind == .pointer)
        let tablet = InputCapabilities(eventTypes: [EV.syn, EV.key, EV.abs], keys: [EV.btnLeft], absoluteAxes: [EV.absX, EV.absY])
        #expect(tablet.kind == .absolutePointer)
        let touch = InputCapabilities(eventTypes: [EV.syn, EV.key, EV.abs], keys: [EV.btnTouch],
                                      absoluteAxes: [EV.absX, EV.absY, EV.absMTSlot, EV.absMTPositionX, EV.absMTPositionY, EV.absMTTrackingID])
        #expect(touch.kind == .touchscreen)
    }

    @Test("keys map through the keymap, with text, repeats and modifiers")
    func keys() {
        let t = EvdevTranslator(screen: InputScreen(deviceWidth: 800, deviceHeight: 480), keyMapper: BasicKeyMapper())
        t.addDevice(id: 1, kind: .keyboard)
        let out = t.handle([ev(EV.key, 42, 1), syn, ev(EV.key, 30, 1), syn, ev(EV.key, 30, 2), syn, ev(EV.key, 30, 0), ev(EV.key, 42, 0), syn,
                            ev(EV.key, 106, 1), syn], from: 1, now: 5)
        let kinds = out.map(\.kind)
        #expect(kinds[0] == .keyDown(.shift, text: "", isRepeat: false))
        #expect(kinds[1] == .keyDown(.character("A"), text: "A", isRepeat: false))
        #expect(out[1].modifiers == .shift)
        #expect(kinds[2] == .keyDown(.character("A"), text: "A", isRepeat: true))
        #expect(kinds[3] == .keyUp(.character("A")))
        #expect(kinds[5] == .keyDown(.right, text: "", isRepeat: false))
        #expect(out[5].modifiers == [])
        #expect(out.allSatisfy { $0.timestamp == 5 })
    }

    @Test("xkbcommon keymaps from the environment, when XKB data is installed")
    func xkb() throws {
        guard let k = XKBKeyboard.fromEnvironment() else { return }  // no /usr/share/X11/xkb: the built-in map is used
        #expect(k.key(code: 30, value: 1) == (0x61, "a"))
        _ = k.key(code: 30, value: 0)
        _ = k.key(code: 42, value: 1)
        #expect(k.modifiers.contains(.shift))
        #expect(k.key(code: 30, value: 1) == (0x41, "A"))
        #expect(k.key(code: 28, value: 1).keysym == 0xff0d)
    }

    @Test("a mouse moves one clamped pointer; buttons and the wheel act where it is")
    func mouse() {
        let t = EvdevTranslator(screen: InputScreen(deviceWidth: 800, deviceHeight: 480), keyMapper: nil)
        t.addDevice(id: 2, kind: .pointer)
        #expect(t.pointerLocation == Point(x: 400, y: 240))
        let out = t.handle([ev(EV.rel, EV.relX, 10), ev(EV.rel, EV.relY, -5), syn, ev(EV.key, EV.btnLeft, 1), syn,
                            ev(EV.rel, EV.relWheel, -1), syn, ev(EV.rel, EV.relX, 5000), syn], from: 2, now: 1)
        #expect(out[0].kind == .pointerMove(Point(x: 410, y: 235)))
        #expect(out[1].kind == .pointerDown(.left, Point(x: 410, y: 235)))
        guard case let .scroll(p, d) = out[2].kind else { Issue.record("no scroll"); return }
        #expect(p == Point(x: 410, y: 235) && d.dy == 15 && d.discreteSteps == 1)
        #expect(out[3].kind == .pointerMove(Point(x: 799, y: 235)))
        #expect(t.hasPointer)
    }

    @Test("wheel values near Int32's ends in one frame neither trap nor scroll without bound")
    func hostileWheel() {
        // Found by the evdev fuzzer: two REL_WHEEL events of Int32.max in one frame overflowed
        // the frame's Int32 sum.
        let t = EvdevTranslator(screen: InputScreen(deviceWidth: 800, deviceHeight: 480), keyMapper: nil)
        t.addDevice(id: 2, kind: .pointer)
        let out = t.handle([ev(EV.rel, EV.relWheel, .max), ev(EV.rel, EV.relWheel, .max), ev(EV.rel, EV.relHWheel, .min),
                            ev(EV.rel, EV.relHWheel, .min), syn], from: 2, now: 1)
        guard case let .scroll(_, d) = out.last?.kind else { Issue.record("no scroll"); return }
        #expect(d.discreteSteps == -10_000 && d.dy == -150_000 && d.dx == -150_000)
    }

    @Test("multitouch slots become touches, rotated and calibrated to the screen")
    func touch() {
        // A 800×480 panel turned 90° clockwise: the app sees 480×800, and a finger at the panel's
        // top-right corner is at the app's top-left.
        let screen = InputScreen(deviceWidth: 800, deviceHeight: 480, rotation: .clockwise90)
        let t = EvdevTranslator(screen: screen, keyMapper: nil)
        t.addDevice(id: 3, kind: .touchscreen, xRange: AxisRange(0, 4095), yRange: AxisRange(0, 4095), multitouch: true)
        let out = t.handle([ev(EV.abs, EV.absMTSlot, 0), ev(EV.abs, EV.absMTTrackingID, 7), ev(EV.abs, EV.absMTPositionX, 4095),
                            ev(EV.abs, EV.absMTPositionY, 0), ev(EV.key, EV.btnTouch, 1), syn,
                            ev(EV.abs, EV.absMTPositionY, 4095), syn,
                            ev(EV.abs, EV.absMTTrackingID, -1), ev(EV.key, EV.btnTouch, 0), syn], from: 3, now: 2)
        let id = 3 << 16 | 7
        #expect(out.map(\.kind) == [.touchDown(id: id, Point(x: 0, y: 0)), .touchMove(id: id, Point(x: 480, y: 0)), .touchUp(id: id, nil)])

        // Calibration: swapped axes, then X mirrored.
        let c = EvdevTranslator(screen: InputScreen(deviceWidth: 800, deviceHeight: 480),
                                calibration: TouchCalibration(swapAxes: true, invertX: true), keyMapper: nil)
        c.addDevice(id: 4, kind: .touchscreen, xRange: AxisRange(0, 1000), yRange: AxisRange(0, 1000))
        let o = c.handle([ev(EV.abs, EV.absX, 250), ev(EV.abs, EV.absY, 0), ev(EV.key, EV.btnTouch, 1), syn], from: 4, now: 0)
        #expect(o.map(\.kind) == [.touchDown(id: 4 << 16, Point(x: 800, y: 120))])
        // A matrix as udev writes it.
        let m = TouchCalibration(matrixString: "0 1 0 -1 0 1")!.apply(0.25, 0.5)
        #expect(m == (0.5, 0.75))
        #expect(TouchCalibration(matrixString: "1 2 3") == nil)
        // A garbage token is an error, not skipped (which would shift the other numbers).
        #expect(TouchCalibration(matrixString: "1 0 x 0 1 0 0") == nil)
        #expect(TouchCalibration(matrixString: "1 0 0 0 1 nan") == nil)
        #expect(TouchCalibration(matrixString: "1,0,0,0,1,0") != nil)
    }

    @Test("an unplugged touchscreen cancels its touches; SYN_DROPPED discards a partial frame")
    func unplugAndDrop() {
        let t = EvdevTranslator(screen: InputScreen(deviceWidth: 100, deviceHeight: 100), keyMapper: nil)
        t.addDevice(id: 1, kind: .touchscreen, xRange: AxisRange(0, 99), yRange: AxisRange(0, 99), multitouch: true)
        _ = t.handle([ev(EV.abs, EV.absMTTrackingID, 1), ev(EV.abs, EV.absMTPositionX, 10), syn], from: 1, now: 0)
        let dropped = t.handle([ev(EV.abs, EV.absMTPositionX, 50), ev(EV.syn, EV.synDropped, 0), ev(EV.abs, EV.absMTPositionX, 60), syn], from: 1, now: 0)
        #expect(dropped.isEmpty)
        #expect(t.removeDevice(id: 1, now: 1).map(\.kind) == [.touchCancel(id: 1 << 16 | 1)])
    }
}
