import Foundation
import Glibc
import SilkGeometry
import SilkRaster
import SilkRender
import SilkRunLoop
import SilkSystem
import Testing
@testable import SilkFramebuffer

/// The framebuffer going away while Silk draws on it (docs/reliability.md): an unplugged display
/// or an unbound driver. fbdev keeps the mapping writable and fails every ioctl with ENODEV, so
/// the presenter must ask; the error names the device and says it went away.
@Suite("Framebuffer faults")
struct FramebufferFaultTests {
    @Test("a vanished device is noticed by the liveness check, even single-buffered and idle")
    func livenessCheck() throws {
        let info = ScreenInfo.typical(.xrgb8888, width: 20, height: 10)
        let device = try FileFramebufferDevice(path: scratchPath("gone"), info: info)
        var options = FramebufferOptions(); options.vsync = .off; options.doubleBuffering = .off
        let presenter = try FramebufferPresenter(device: device, options: options)
        try presenter.checkDevice()
        let frame = try Bitmap(width: 20, height: 10)
        device.isGone = true
        // Drawing alone cannot tell: the copy into the mapping succeeds.
        try presenter.present(frame, damage: damage(frame.bounds), timing: FrameTiming(index: 0, time: 0))
        #expect(throws: FramebufferError(device: device.path, kind: .vanished(SystemCallError(call: "ioctl(FBIOGET_VSCREENINFO)", errno: ENODEV)))) {
            try presenter.checkDevice()
        }
        do { try presenter.checkDevice(); Issue.record("no error") } catch {
            #expect("\(error)" == "\(device.path) went away (unplugged, or its driver was unbound): ioctl(FBIOGET_VSCREENINFO) failed: No such device (errno 19)")
        }
        presenter.shutDown()
        try presenter.checkDevice()  // after shut-down nothing is asked of the device
    }

    @Test("a pan that fails with ENODEV stops the render thread with the vanished error")
    func renderThreadStops() throws {
        let info = ScreenInfo.typical(.xrgb8888, width: 20, height: 10, pages: 2)
        let device = try FileFramebufferDevice(path: scratchPath("gone-pan"), info: info, panSticks: true)
        var options = FramebufferOptions(); options.vsync = .off
        let presenter = try FramebufferPresenter(device: device, options: options)
        #expect(presenter.pacing.doubleBuffered)
        let renderThread = try RenderThread(presenter: presenter, clearColor: .black)
        renderThread.start()
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 20, height: 10)
        root.backgroundColor = .white
        renderThread.commit(root.snapshot())
        #expect(renderThread.waitUntilPresented(timeout: 5))
        device.isGone = true
        root.backgroundColor = .black
        renderThread.commit(root.snapshot())
        let deadline = Date(timeIntervalSinceNow: 5)
        while renderThread.error == nil && Date() < deadline { usleep(1000) }
        let error = try #require(renderThread.error as? FramebufferError)
        guard case .vanished = error.kind else { Issue.record("expected .vanished, got \(error)"); return }
        #expect("\(error)".contains("went away"))
        renderThread.stop()
        presenter.shutDown()
    }
}
