import FuzzSupport
import SilkFramebuffer
import SilkInput
import SilkGeometry

// libFuzzer target: the evdev path — `EvdevEvent.parse` on raw `struct input_event` records and
// `EvdevTranslator` turning them into Silk input events, for every device kind, axis range,
// rotation, scale and calibration. A small header describes the setup; the rest is records read
// "from" one of two devices, with occasional device removal (an unplug, or ENODEV). Nothing is
// shared between inputs (a fresh key mapper each time), so every crash reproduces from its input.
// Seeds: Fuzz/corpus/evdev.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvdev(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    var input = FuzzInput(data, count)
    let rotation = Rotation.allCases[input.below(4)]
    let screen = InputScreen(deviceWidth: Int(input.byte()) * 8, deviceHeight: Int(input.byte()) * 8,
                             rotation: rotation, scale: input.double(scale: 4))
    let calibration = input.bool()
        ? TouchCalibration(matrix: (0..<6).map { _ in input.double(scale: 4) - 2 }, swapAxes: input.bool(),
                           invertX: input.bool(), invertY: input.bool())
        : TouchCalibration()
    let translator = EvdevTranslator(screen: screen, calibration: calibration, keyMapper: input.bool() ? BasicKeyMapper() : nil)
    translator.pointerSpeed = input.double(scale: 4)
    translator.wheelStep = input.double(scale: 30)
    for id in 0..<2 {
        let kind = InputDeviceKind(rawValue: input.byte() & 0x0f)
        let x = AxisRange(input.int32(), input.int32()), y = AxisRange(input.int32(), input.int32())
        translator.addDevice(id: id, kind: kind, xRange: input.bool() ? x : nil, yRange: input.bool() ? y : nil,
                             multitouch: input.bool())
    }
    var now = 0.0
    while !input.isAtEnd {
        let device = input.below(3)
        let records = Array(input.take(EvdevEvent.size * (1 + input.below(8))))
        let events = records.withUnsafeBytes { EvdevEvent.parse($0) }
        now += 0.008
        if device == 2 {
            _ = translator.removeDevice(id: input.below(2), now: now)
        } else {
            _ = translator.handle(events, from: device, now: now)
        }
    }
    return 0
}

@main enum FuzzEvdevMain {
    static func main() { runFuzzer { fuzzEvdev($0, $1) } }
}
