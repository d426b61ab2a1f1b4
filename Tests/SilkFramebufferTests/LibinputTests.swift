import Foundation
import SilkGeometry
import SilkInput
import SilkRunLoop
import Testing
@testable import SilkFramebuffer

/// `--input libinput`: libinput's events (as `LibinputEvent` values, the way `Libinput.swift`
/// reads them) become the same `InputEvent`s the evdev reader produces. The context and devices
/// themselves are tested end to end in QEMU (Tests/e2e/fbdev.sh, case kms-libinput).
@Suite("libinput")
struct LibinputTests {
    func translator(rotation: Rotation = .none, scale: Double = 1) -> LibinputTranslator {
        LibinputTranslator(screen: InputScreen(deviceWidth: 800, deviceHeight: 480, rotation: rotation, scale: scale), keyMapper: BasicKeyMapper())
    }

    @Test("keys go through the keymap; libinput's presses arm the repeat, modifiers do not")
    func keys() {
        let t = translator()
        let recorded: [LibinputEvent] = [.key(code: 42, pressed: true), .key(code: 30, pressed: true), .key(code: 30, pressed: false),
                                         .key(code: 42, pressed: false), .key(code: 106, pressed: true)]
        var out: [InputEvent] = []
        var repeating: [UInt32?] = []
        for e in recorded { out += t.handle(e, from: 1, now: 2); repeating.append(t.repeatingKey) }
        #expect(out.map(\.kind) == [.keyDown(.shift, text: "", isRepeat: false), .keyDown(.character("A"), text: "A", isRepeat: false),
                                    .keyUp(.character("A")), .keyUp(.shift), .keyDown(.right, text: "", isRepeat: false)])
        #expect(out[1].modifiers == .shift)
        #expect(out[4].modifiers == [])
        #expect(repeating == [nil, 30, nil, nil, 106])
        #expect(t.repeatEvent(now: 3)?.kind == .keyDown(.right, text: "", isRepeat: true))
        t.stopRepeat()
        #expect(t.repeatEvent(now: 4) == nil)
    }

    @Test("the same key presses give the same events as the evdev reader")
    func sameAsEvdev() {
        let l = translator()
        let e = EvdevTranslator(screen: InputScreen(deviceWidth: 800, deviceHeight: 480), keyMapper: BasicKeyMapper())
        e.addDevice(id: 1, kind: .keyboard)
        let codes: [(UInt16, Bool)] = [(42, true), (16, true), (16, false), (42, false), (2, true), (2, false), (28, true), (28, false)]
        let fromLibinput = codes.flatMap { l.handle(.key(code: UInt32($0.0), pressed: $0.1), from: 1, now: 1) }
        let fromEvdev = codes.flatMap { e.handle([ev(EV.key, $0.0, $0.1 ? 1 : 0), syn], from: 1, now: 1) }
        #expect(fromLibinput == fromEvdev)
    }

    @Test("absolute pointers (QEMU's tablet) and buttons land where evdev puts them, through the rotation")
    func absolutePointer() {
        let t = translator()
        let out = t.handle(.pointerAbsolute(x: 0.25, y: 0.5), from: 2, now: 1) + t.handle(.pointerButton(code: 0x110, pressed: true), from: 2, now: 1)
            + t.handle(.pointerButton(code: 0x110, pressed: false), from: 2, now: 1)
        #expect(out.map(\.kind) == [.pointerMove(Point(x: 200, y: 240)), .pointerDown(.left, Point(x: 200, y: 240)), .pointerUp(.left, Point(x: 200, y: 240))])
        // Turned 90° clockwise: the panel's left edge is the window's top.
        let r = translator(rotation: .clockwise90)
        #expect(r.handle(.pointerAbsolute(x: 0, y: 0.25), from: 2, now: 1).map(\.kind) == [.pointerMove(Point(x: 120, y: 800))])
        let s = translator(scale: 2)
        #expect(s.handle(.pointerAbsolute(x: 1, y: 1), from: 2, now: 1).map(\.kind) == [.pointerMove(Point(x: 400, y: 240))])
        // Out of range and NaN positions are clamped, never passed on.
        #expect(t.handle(.pointerAbsolute(x: .nan, y: 7), from: 2, now: 1).map(\.kind) == [.pointerMove(Point(x: 0, y: 480))])
    }

    @Test("relative motion moves the shared pointer within the screen")
    func relativeMotion() {
        let t = translator()
        #expect(t.pointerLocation == Point(x: 400, y: 240))
        #expect(t.handle(.pointerMotion(dx: 10.5, dy: -20), from: 3, now: 1).map(\.kind) == [.pointerMove(Point(x: 410.5, y: 220))])
        #expect(t.handle(.pointerMotion(dx: -9999, dy: 9999), from: 3, now: 1).map(\.kind) == [.pointerMove(Point(x: 0, y: 479))])
        #expect(t.handle(.pointerMotion(dx: .infinity, dy: 1), from: 3, now: 1).isEmpty)
    }

    @Test("wheel clicks (v120) and touchpad scrolling map to Silk's scroll deltas")
    func scrolling() {
        let t = translator()
        // libinput: positive is down; one click is 120. Silk: positive is towards the end.
        #expect(t.handle(.scrollWheel(v120X: 0, v120Y: 240), from: 3, now: 1).map(\.kind)
                == [.scroll(Point(x: 400, y: 240), ScrollDelta(dx: 0, dy: 30, source: .wheel, discreteSteps: 2))])
        #expect(t.handle(.scrollWheel(v120X: -120, v120Y: -60), from: 3, now: 1).map(\.kind)
                == [.scroll(Point(x: 400, y: 240), ScrollDelta(dx: -15, dy: -7.5, source: .wheel, discreteSteps: 0))])
        #expect(t.handle(.scrollContinuous(dx: 0, dy: 12.5), from: 3, now: 1).map(\.kind)
                == [.scroll(Point(x: 400, y: 240), ScrollDelta(dx: 0, dy: 12.5, source: .continuous))])
        #expect(t.handle(.scrollWheel(v120X: 0, v120Y: 0), from: 3, now: 1).isEmpty)
        #expect(t.handle(.scrollContinuous(dx: .nan, dy: 1), from: 3, now: 1).isEmpty)
        // A hostile device's huge values stay finite and bounded.
        let huge = t.handle(.scrollWheel(v120X: 0, v120Y: 1e300), from: 3, now: 1)
        if case let .scroll(_, d) = huge.first?.kind { #expect(d.dy == 150_000 && d.discreteSteps == 10_000) } else { Issue.record("no scroll") }
    }

    @Test("touches by seat slot: down, motion, up and cancel; ids per device; removal cancels")
    func touches() {
        let t = translator()
        let seq: [LibinputEvent] = [.touchDown(slot: 0, x: 0.5, y: 0.5), .touchDown(slot: 1, x: 0.1, y: 0.1), .touchMotion(slot: 0, x: 0.75, y: 0.5),
                                    .touchUp(slot: 0), .touchMotion(slot: 0, x: 0.2, y: 0.2), .touchUp(slot: 0)]
        let out = seq.flatMap { t.handle($0, from: 4, now: 1) }
        let a = 4 << 16, b = 4 << 16 | 1
        #expect(out.map(\.kind) == [.touchDown(id: a, Point(x: 400, y: 240)), .touchDown(id: b, Point(x: 80, y: 48)),
                                    .touchMove(id: a, Point(x: 600, y: 240)), .touchUp(id: a, nil)])
        #expect(t.handle(.touchCancel(slot: 7), from: 4, now: 1).isEmpty)
        #expect(t.removeDevice(4, now: 9).map(\.kind) == [.touchCancel(id: b)])
        #expect(t.removeDevice(4, now: 9).isEmpty)
    }

    @Test("a pen's tip is a touch: down, moves while down, up where it lifted")
    func pen() {
        let t = translator()
        let id = 5 << 16 | 0xffff
        #expect(t.handle(.tabletMotion(x: 0.5, y: 0.5), from: 5, now: 1).isEmpty)  // hovering
        #expect(t.handle(.tabletTip(down: true, x: 0.5, y: 0.5), from: 5, now: 1).map(\.kind) == [.touchDown(id: id, Point(x: 400, y: 240))])
        #expect(t.handle(.tabletMotion(x: 0.5, y: 0.25), from: 5, now: 1).map(\.kind) == [.touchMove(id: id, Point(x: 400, y: 120))])
        #expect(t.handle(.tabletTip(down: false, x: 0.5, y: 0.25), from: 5, now: 1).map(\.kind) == [.touchMove(id: id, Point(x: 400, y: 120)), .touchUp(id: id, nil)])
        #expect(t.handle(.tabletTip(down: false, x: 0.5, y: 0.25), from: 5, now: 1).isEmpty)
        _ = t.handle(.tabletTip(down: true, x: 0, y: 0), from: 5, now: 1)
        #expect(t.removeDevice(5, now: 2).map(\.kind) == [.touchCancel(id: id)])
    }

    @Test("the touch options become libinput's calibration matrix")
    func calibrationMatrix() {
        #expect(TouchCalibration().affineMatrix == [1, 0, 0, 0, 1, 0])
        #expect(TouchCalibration(swapAxes: true).affineMatrix == [0, 1, 0, 1, 0, 0])
        #expect(TouchCalibration(invertX: true).affineMatrix == [-1, 0, 1, 0, 1, 0])
        let m = TouchCalibration(matrix: [0.5, 0, 0.25, 0, 2, -0.5], swapAxes: true, invertY: true)
        // The composed matrix maps points as the evdev reader's step-by-step calibration does.
        for (x, y) in [(0.0, 0.0), (1.0, 0.0), (0.3, 0.8)] {
            let a = m.affineMatrix, direct = m.apply(x, y)
            #expect(abs(a[0] * x + a[1] * y + a[2] - direct.0) < 1e-12 && abs(a[3] * x + a[4] * y + a[5] - direct.1) < 1e-12)
        }
    }

    @Test("--input parses evdev and libinput; evdev is the default")
    func driverOption() {
        #expect(InputOptions().driver == .evdev)
        #expect(InputDriver(rawValue: "libinput") == .libinput)
        #expect(InputDriver(rawValue: "udev") == nil)
    }
}

/// libinput's own log messages (its handler takes a va_list, formatted in CSilkLibinput) reach
/// `LibinputInput.log` as plain text.
@Suite("libinput log")
struct LibinputLogTests {
    @Test("a node libinput cannot use is reported in libinput's own words")
    func libinputsMessagesReachTheLog() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("silk-libinput-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A regular file where an event device should be: libinput refuses it and says why.
        FileManager.default.createFile(atPath: folder.appendingPathComponent("event0").path, contents: Data(count: 64))
        var options = InputOptions()
        options.directory = folder.path
        options.driver = .libinput
        let input = LibinputInput(screen: InputScreen(deviceWidth: 800, deviceHeight: 480, rotation: .none, scale: 1), options: options, loop: try EventLoop())
        final class Lines { var all: [String] = [] }
        let lines = Lines()
        input.log = { lines.all.append($0) }  // called inside start(), on this thread
        input.start()
        input.stop()
        let seen = lines.all
        #expect(seen.contains { $0.hasPrefix("input: libinput: ") && !$0.hasSuffix("\n") && $0.count > "input: libinput: ".count + 4 }, "\(seen)")
    }
}
