import Foundation
import SilkGeometry
import SilkRaster
import Testing
@testable import SilkRender

/// `HeadlessPresenter.keepsFrames` false (`silk bench --no-present-copy`): presents copy nothing,
/// and a capture after skipped presents copies the whole frame, not just the last damage.
@Suite struct HeadlessKeepsFramesTests {
    private func filled(_ color: Color) throws -> Bitmap {
        let b = try Bitmap(width: 64, height: 48)
        b.fill(color, rect: b.bounds)
        return b
    }
    private func region(_ r: Rect) -> DamageRegion { var d = DamageRegion(); d.add(r); return d }

    @Test func skippedPresentsCopyNothingAndACaptureCopiesTheWholeFrame() throws {
        let presenter = try HeadlessPresenter(pixelWidth: 64, pixelHeight: 48)
        presenter.keepsFrames = false
        let red = try filled(Color(rgb: 0xff0000)), blue = try filled(Color(rgb: 0x0000ff))
        try presenter.present(red, damage: region(red.bounds), timing: FrameTiming(index: 0, time: 0))
        #expect(try presenter.currentFrame().argb32(x: 10, y: 10) == 0, "nothing copied")
        #expect(presenter.presentedFrames == 1)

        let folder = NSTemporaryDirectory() + "silk-keeps-frames-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        presenter.captureEveryFrame(into: folder)
        // Only a corner is damaged, but the frame missed the whole red present before: all of it is copied.
        try presenter.present(blue, damage: region(Rect(x: 0, y: 0, width: 8, height: 8)), timing: FrameTiming(index: 1, time: 1.0 / 60))
        let frame = try presenter.currentFrame()
        #expect(frame.argb32(x: 60, y: 40) == blue.argb32(x: 60, y: 40))
        #expect(frame.argb32(x: 2, y: 2) == blue.argb32(x: 2, y: 2))
        #expect(FileManager.default.fileExists(atPath: folder + "/frame-00002.png"))
    }

    /// With a capture stride, only the written frames are copied — each whole, after the
    /// presents it skipped.
    @Test func everyStrideThFrameIsCopiedWholeAndWritten() throws {
        let presenter = try HeadlessPresenter(pixelWidth: 64, pixelHeight: 48)
        presenter.keepsFrames = false
        let folder = NSTemporaryDirectory() + "silk-keeps-frames-stride-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        presenter.captureEveryFrame(into: folder, stride: 3)
        let colors: [UInt32] = [0xff0000, 0x00ff00, 0x0000ff, 0xffff00]
        for (i, c) in colors.enumerated() {
            let b = try filled(Color(rgb: c))
            try presenter.present(b, damage: region(Rect(x: 0, y: 0, width: 4, height: 4)), timing: FrameTiming(index: i, time: Double(i) / 60))
            // Frame 2 is not written, so not copied: the frame still shows frame 1's red.
            if i == 1 { #expect(try presenter.currentFrame().argb32(x: 2, y: 2) == filled(Color(rgb: 0xff0000)).argb32(x: 2, y: 2)) }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files == ["frame-00001.png", "frame-00004.png"])
        let yellow = try filled(Color(rgb: 0xffff00))
        #expect(try presenter.currentFrame().argb32(x: 60, y: 40) == yellow.argb32(x: 60, y: 40), "frame 4 copied whole")
    }

    @Test func byDefaultOnlyTheDamageIsCopied() throws {
        let presenter = try HeadlessPresenter(pixelWidth: 64, pixelHeight: 48)
        #expect(presenter.keepsFrames)
        let red = try filled(Color(rgb: 0xff0000)), blue = try filled(Color(rgb: 0x0000ff))
        try presenter.present(red, damage: region(red.bounds), timing: FrameTiming(index: 0, time: 0))
        try presenter.present(blue, damage: region(Rect(x: 0, y: 0, width: 8, height: 8)), timing: FrameTiming(index: 1, time: 1.0 / 60))
        let frame = try presenter.currentFrame()
        #expect(frame.argb32(x: 2, y: 2) == blue.argb32(x: 2, y: 2))
        #expect(frame.argb32(x: 60, y: 40) == red.argb32(x: 60, y: 40))
    }
}
