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

    @Test func waylandRequestedWithoutPresenterIsAClearError() {
        #expect(throws: BackendError.self) {
            try Backend.wayland.open(pixelWidth: 32, pixelHeight: 16, scale: 1)
        }
    }
}
