import Foundation
import SilkGeometry
import SilkRaster
import Testing
@testable import SilkRender

/// A stopped render thread is freed with its presenter and back buffer (found by
/// `make test-asan`: the Thread's closure kept the RenderThread alive).
@Suite struct RenderThreadLifetimeTests {
    @Test func aStoppedRenderThreadIsFreed() throws {
        weak var weakThread: RenderThread?
        weak var weakPresenter: HeadlessPresenter?
        do {
            let presenter = try HeadlessPresenter(pixelWidth: 16, pixelHeight: 16)
            let thread = try RenderThread(presenter: presenter)
            weakThread = thread; weakPresenter = presenter
            thread.start()
            let root = Layer()
            root.frame = Rect(x: 0, y: 0, width: 16, height: 16)
            root.backgroundColor = .black
            thread.commit(root.snapshot())
            #expect(thread.waitUntilPresented(timeout: 5))
            thread.stop()
        }
        // The thread's last release happens as it exits.
        let deadline = Date(timeIntervalSinceNow: 5)
        while (weakThread != nil || weakPresenter != nil) && Date() < deadline { usleep(1000) }
        #expect(weakThread == nil)
        #expect(weakPresenter == nil)
    }
}
