import Testing
import SilkGeometry
import SilkRender
@testable import Silk

@Suite struct BackendTests {
    @Test func autoFallsBackToHeadlessAndSaysWhy() throws {
        let choice = try Backend.auto.open(pixelWidth: 32, pixelHeight: 16, scale: 1,
                                           environment: ["SILK_FBDEV": "/nonexistent/fb9"], headlessClock: .virtual)
        #expect(choice.backend == .headless)
        #expect(choice.explanation.contains("WAYLAND_DISPLAY is not set"))
        #expect(choice.explanation.contains("/nonexistent/fb9 does not exist"))
        #expect(choice.presenter.pixelWidth == 32)
    }

    @Test func waylandRequestedWithoutCompositorIsAClearError() {
        do {
            _ = try Backend.wayland.open(pixelWidth: 32, pixelHeight: 16, scale: 1,
                                         environment: ["WAYLAND_DISPLAY": "silk-test-no-such-socket"])
            Issue.record("opened a Wayland window without a compositor")
        } catch let error as BackendError {
            #expect(error.description.contains("wl_display_connect(silk-test-no-such-socket)"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func autoSaysWhyItSkippedWayland() throws {
        let choice = try Backend.auto.open(pixelWidth: 32, pixelHeight: 16, scale: 1,
                                           environment: ["WAYLAND_DISPLAY": "silk-test-no-such-socket", "SILK_FBDEV": "/nonexistent/fb9"],
                                           headlessClock: .virtual)
        #expect(choice.backend == .headless)
        #expect(choice.explanation.contains("WAYLAND_DISPLAY=silk-test-no-such-socket is set, but"))
    }
}
