import Foundation
import SilkGeometry
import SilkInput
import Testing
@testable import SilkFramebuffer

/// Inputs the evdev fuzzer (Fuzz/Sources/FuzzEvdev) found crashing, kept as tests. The raw
/// crashing inputs are also in Fuzz/corpus/evdev/regress-*.bin, replayed by every `make fuzz`.
@Suite("evdev fuzz regressions")
struct EvdevFuzzRegressionTests {
    /// A device whose axis spans the whole Int32 range (or reports values outside its range)
    /// overflowed `maximum - minimum` in Int32 arithmetic and trapped.
    @Test("an axis range spanning all of Int32 normalises without overflow")
    func fullInt32AxisRange() {
        let t = EvdevTranslator(screen: InputScreen(deviceWidth: 100, deviceHeight: 100), keyMapper: nil)
        t.addDevice(id: 1, kind: .absolutePointer, xRange: AxisRange(.min, .max), yRange: AxisRange(-10, .max))
        let out = t.handle([ev(EV.abs, EV.absX, .max), ev(EV.abs, EV.absY, .min), syn], from: 1, now: 0)
        #expect(out.map(\.kind) == [.pointerMove(Point(x: 100, y: 0))])
        #expect(AxisRange(.min, .max).normalise(.max) == 1)
        #expect(AxisRange(.min, .max).normalise(.min) == 0)
    }
}
