import Foundation
import Glibc
import SilkGeometry
import SilkRaster
import SilkTestSupport
import Testing
@testable import SilkRender

/// Frame capture (`silk demo --capture-every`) on a disk that fills up: capturing stops with
/// the error recorded and reported once; presenting goes on (docs/reliability.md).
@Suite("Headless capture on a full disk")
struct HeadlessFullDiskTests {
    @Test("a full disk stops capturing, not presenting", .enabled(if: TinyDisk.isAvailable, "needs mount(8) of a tmpfs (root)"))
    func captureStopsPresentingGoesOn() throws {
        let disk = try #require(TinyDisk(kilobytes: 96))
        let presenter = try HeadlessPresenter(pixelWidth: 128, pixelHeight: 128)
        presenter.captureEveryFrame(into: disk.path + "/frames")
        // Noise does not compress: each frame's PNG is about 64 KiB, so the second one fails.
        let frame = try Bitmap(width: 128, height: 128)
        var state: UInt64 = 1
        for i in 0..<6 {
            for y in 0..<128 {
                for x in 0..<128 {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    frame.data.storeBytes(of: 0xff00_0000 | UInt32(truncatingIfNeeded: state >> 40), toByteOffset: y * frame.stride + x * 4, as: UInt32.self)
                }
            }
            try presenter.present(frame, damage: { var d = DamageRegion(); d.add(frame.bounds); return d }(), timing: FrameTiming(index: i, time: Double(i) / 60))
        }
        #expect(presenter.presentedFrames == 6)
        let error = try #require(presenter.captureError)
        #expect("\(error)".contains("No space left on device"), "\(error)")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: disk.path + "/frames")) ?? []
        #expect(files == ["frame-00001.png"], "only whole frames, no temporary files: \(files)")
        #expect(try presenter.currentFrame().argb32(x: 5, y: 5) == frame.argb32(x: 5, y: 5))
    }
}
