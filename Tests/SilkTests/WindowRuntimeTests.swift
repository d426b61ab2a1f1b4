import Foundation
import Testing
import XCTest
@testable import Silk

/// The window's own node runtime: knowing that a screen is displayed, and replacing the root.
final class WindowRuntimeTests: XCTestCase {
    func testWhenDisplayedFiresOnceTheScreenIsShownAndAgainAfterAChange() throws {
        try MainActor.assumeIsolated { try Self.whenDisplayed() }
    }

    @MainActor
    private static func whenDisplayed() throws {
        let app = Application(backend: .headless)
        let window = try app.makeWindow(size: Size(width: 60, height: 40), headlessClock: .virtual)
        let presenter = try XCTUnwrap(window.presenter as? HeadlessPresenter)
        let root = DisplayNode()
        let swatch = SwatchNode()
        swatch.style.width = 20
        swatch.style.height = 20
        root.addSubnode(swatch)
        root.layoutSpecBlock = { _, _ in InsetLayoutSpec(insets: EdgeInsets(all: 5), child: swatch) }
        window.setRootNode(root)
        XCTAssertFalse(window.isDisplayed, "nothing is laid out or drawn yet")

        var calls = 0
        window.whenDisplayed { calls += 1 }
        let loop = app.loop
        let ticker = loop.addTimer(after: .milliseconds(5), repeating: .milliseconds(5)) {}
        defer { loop.cancelTimer(ticker) }
        XCTAssertEqual(loop.run(until: { calls > 0 }, timeout: .seconds(10)), .conditionMet)
        // When it fires, the drawn swatch is on the presented frame, not a placeholder.
        XCTAssertEqual(try presenter.currentFrame().argb32(x: 10, y: 10), Color.red.premultipliedARGB32)
        XCTAssertTrue(window.isDisplayed)

        // A change makes the window "not displayed" until the new content is presented.
        swatch.color = .green
        XCTAssertFalse(window.isDisplayed)
        var second = false
        window.whenDisplayed { second = true }
        XCTAssertEqual(loop.run(until: { second }, timeout: .seconds(10)), .conditionMet)
        XCTAssertEqual(try presenter.currentFrame().argb32(x: 10, y: 10), Color.green.premultipliedARGB32)
        XCTAssertEqual(calls, 1, "a callback runs once")
        window.close()
    }

    func testSettingANewRootNodeRemovesWhatTheOldOneInstalled() throws {
        try MainActor.assumeIsolated { try Self.replaceRoot() }
    }

    @MainActor
    private static func replaceRoot() throws {
        let app = Application(backend: .headless)
        let window = try app.makeWindow(size: Size(width: 60, height: 40), headlessClock: .virtual)
        let first = SwatchNode(), second = SwatchNode()
        second.color = .blue
        window.setRootNode(first)
        let firstPass = try XCTUnwrap(window.nodePass)
        let firstDispatcher = try XCTUnwrap(window.inputDispatcher)
        let loop = app.loop
        let ticker = loop.addTimer(after: .milliseconds(5), repeating: .milliseconds(5)) {}
        defer { loop.cancelTimer(ticker) }
        var shown = false
        window.whenDisplayed { shown = true }
        XCTAssertEqual(loop.run(until: { shown }, timeout: .seconds(10)), .conditionMet)

        window.setRootNode(second)
        XCTAssertFalse(window.nodePass === firstPass, "a new pass for the new root")
        XCTAssertFalse(window.inputDispatcher === firstDispatcher, "input goes to the new tree")
        XCTAssertNil(first.layer?.superlayer, "the old root's layer left the window")
        XCTAssertEqual(window.rootLayer.sublayers.count, 1)
        // The old pass is no longer run by the loop: a change to the old tree starts no job.
        let jobsBefore = firstPass.statistics.jobsStarted
        first.color = .green
        shown = false
        window.whenDisplayed { shown = true }
        XCTAssertEqual(loop.run(until: { shown }, timeout: .seconds(10)), .conditionMet)
        XCTAssertEqual(firstPass.statistics.jobsStarted, jobsBefore)
        XCTAssertEqual(try XCTUnwrap(window.presenter as? HeadlessPresenter).currentFrame().argb32(x: 30, y: 20),
                       Color.blue.premultipliedARGB32)
        window.close()
    }
}

@Suite struct LaunchOptionsTests {
    @Test func readsTheStandardOptions() throws {
        let o = try #require(try LaunchOptions.parse(["--backend", "headless", "--screenshot=a.png", "--seconds", "2.5", "--size", "800x600"]))
        #expect(o.windowSize == Size(width: 800, height: 600))
        #expect(o.backend == .headless)
        #expect(o.screenshotPath == "a.png")
        #expect(o.seconds == 2.5)
        #expect(try LaunchOptions.parse([]) == LaunchOptions())
        #expect(try LaunchOptions.parse(["--help"]) == nil)
    }

    @Test(arguments: [
        (["--backend", "x11"], "--backend x11: not one of auto, wayland, fbdev, kms, headless"),
        (["--backend"], "--backend needs a value"),
        (["--screenshot", "a.jpg"], "--screenshot a.jpg: the file name must end in .png"),
        (["--seconds", "nan"], "--seconds nan: not a number of seconds between 0 and one year"),
        (["--seconds", "-1"], "--seconds -1: not a number of seconds between 0 and one year"),
        (["--seconds", "1e300"], "--seconds 1e300: not a number of seconds between 0 and one year"),
        (["--size", "0x10"], "--size 0x10: not WxH with whole points from 1 to 16384"),
        (["--size", "-5x10"], "--size -5x10: not WxH with whole points from 1 to 16384"),
        (["--size", "100000x10"], "--size 100000x10: not WxH with whole points from 1 to 16384"),
        (["--frobnicate"], "--frobnicate: unknown option (--help lists them)"),
    ])
    func refusesBadOptionsInOneLine(arguments: [String], message: String) {
        #expect(throws: LaunchOptions.Error(description: message)) { try LaunchOptions.parse(arguments) }
    }
}
