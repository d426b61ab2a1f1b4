import Foundation
import Testing
import SilkGeometry
import SilkRaster
@testable import SilkRender

@Suite struct RenderThreadTests {
    func tree() -> (Layer, Layer) {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 64, height: 48)
        root.backgroundColor = .white
        let box = Layer()
        box.frame = Rect(x: 8, y: 8, width: 16, height: 16)
        box.backgroundColor = .blue
        root.addSublayer(box)
        return (root, box)
    }

    @Test func presentsCommitsAndIdlesWhenNothingChanges() throws {
        let presenter = try HeadlessPresenter(pixelWidth: 64, pixelHeight: 48)
        let render = try RenderThread(presenter: presenter)
        render.start()
        defer { render.stop() }
        let (root, box) = tree()
        render.commit(root.snapshot())
        #expect(render.waitUntilPresented(timeout: 10))
        #expect(presenter.presentedFrames == 1)
        #expect(try presenter.currentFrame().argb32(x: 10, y: 10) == 0xff00_00ff)

        // The same tree again: composited, but no damage, so nothing is presented.
        render.commit(root.snapshot())
        #expect(render.waitUntilPresented(timeout: 10))
        Thread.sleep(forTimeInterval: 0.05)
        #expect(presenter.presentedFrames == 1)

        box.position = Point(x: 40, y: 30)
        render.commit(root.snapshot())
        #expect(render.waitUntilPresented(timeout: 10))
        #expect(presenter.presentedFrames == 2)
        let frame = try presenter.currentFrame()
        #expect(frame.argb32(x: 10, y: 10) == 0xffff_ffff)
        #expect(frame.argb32(x: 40, y: 30) == 0xff00_00ff)
    }

    @Test func animationsKeepFramesComingUntilTheyEnd() throws {
        let presenter = try HeadlessPresenter(pixelWidth: 64, pixelHeight: 48)
        let render = try RenderThread(presenter: presenter)
        render.start()
        defer { render.stop() }
        let (root, box) = tree()
        render.commit(root.snapshot())
        render.waitUntilPresented(timeout: 10)
        box.add(LayerAnimation(property: .position(from: Point(x: 0, y: 0), to: nil), duration: 0.5, timing: .linear))
        render.commit(root.snapshot())
        #expect(render.waitUntilPresented(timeout: 10, includingAnimations: true))
        // 0.5 s at 60 Hz on the virtual clock: about 30 frames, then silence.
        let frames = presenter.presentedFrames
        #expect((28...34).contains(frames), "presented \(frames)")
        Thread.sleep(forTimeInterval: 0.05)
        #expect(presenter.presentedFrames == frames)
        #expect(try presenter.currentFrame().argb32(x: 16, y: 16) == 0xff00_00ff)
    }

    @Test func capturesFramesToPNG() throws {
        let presenter = try HeadlessPresenter(pixelWidth: 64, pixelHeight: 48)
        let render = try RenderThread(presenter: presenter)
        render.start()
        defer { render.stop() }
        render.commit(tree().0.snapshot())
        render.waitUntilPresented(timeout: 10)
        let path = NSTemporaryDirectory() + "silk-headless-\(getpid()).png"
        try presenter.capturePNG(to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.starts(with: [0x89, 0x50, 0x4e, 0x47]))
    }
}
