import Foundation
import XCTest
@testable import Silk

/// A headless presenter that speaks to an "input method": it records every state the window
/// sends, as the Wayland presenter would turn them into text-input-v3 requests.
private final class RecordingTextInputPresenter: Presenter, TextInputPresenting, @unchecked Sendable {
    let inner: HeadlessPresenter
    var states: [TextInputState?] = []
    init() throws { inner = try HeadlessPresenter(pixelWidth: 320, pixelHeight: 120, clock: .virtual) }
    var pixelWidth: Int { inner.pixelWidth }
    var pixelHeight: Int { inner.pixelHeight }
    var scale: Double { inner.scale }
    var name: String { "recording" }
    func waitForFrame() -> FrameTiming? { inner.waitForFrame() }
    func present(_ backBuffer: Bitmap, damage: DamageRegion, timing: FrameTiming) throws {
        try inner.present(backBuffer, damage: damage, timing: timing)
    }
    func close() { inner.close() }
    @MainActor func updateTextInput(_ state: TextInputState?) { states.append(state) }
}

/// The window between a focused text field and an input method: state out, updates in.
final class WindowTextInputTests: XCTestCase {
    func testTheFocusedFieldsStateGoesOutAndUpdatesComeIn() throws {
        try MainActor.assumeIsolated { try Self.roundTrip() }
    }

    @MainActor
    private static func roundTrip() throws {
        let app = Application(backend: .headless)
        let presenter = try RecordingTextInputPresenter()
        let window = try Window(presenter: presenter, background: .white, loop: app.loop)
        defer { window.close() }
        let root = DisplayNode()
        let field = EditableTextNode()
        field.contentType = TextContentType(purpose: .email, hints: [.latin])
        field.style.width = 200
        field.style.height = 40
        let other = EditableTextNode()
        other.style.width = 200
        other.style.height = 40
        root.addSubnode(field)
        root.addSubnode(other)
        root.layoutSpecBlock = { _, _ in
            InsetLayoutSpec(insets: EdgeInsets(top: 30, left: 50, bottom: .infinity, right: .infinity),
                            child: StackLayoutSpec(direction: .vertical, spacing: 10, children: [field, other]))
        }
        window.setRootNode(root)
        let loop = app.loop
        let ticker = loop.addTimer(after: .milliseconds(5), repeating: .milliseconds(5)) {}
        defer { loop.cancelTimer(ticker) }
        XCTAssertEqual(loop.run(until: { window.isDisplayed }, timeout: .seconds(10)), .conditionMet)
        XCTAssertTrue(presenter.states.isEmpty, "no field edits: nothing is sent")

        window.inputDispatcher?.focus(field)
        XCTAssertEqual(loop.run(until: { presenter.states.count == 1 }, timeout: .seconds(5)), .conditionMet)
        let first = try XCTUnwrap(presenter.states.last ?? nil)
        XCTAssertEqual(first.surroundingText, "")
        XCTAssertEqual(first.contentType, TextContentType(purpose: .email, hints: [.latin]))
        // The caret's rectangle in window points: inside the field, at its text inset.
        XCTAssertEqual(first.cursorRectangle.minX, 50 + field.textContainerInset.left, accuracy: 0.5)
        XCTAssertTrue(first.cursorRectangle.minY >= 30 && first.cursorRectangle.maxY <= 70, "\(first.cursorRectangle)")

        window.presenterDidReceiveTextInput(TextInputUpdate(preedit: TextPreedit(text: "にほ", cursorBegin: 6, cursorEnd: 6)))
        XCTAssertEqual(field.text, "")
        XCTAssertEqual(loop.run(until: { presenter.states.count == 2 }, timeout: .seconds(5)), .conditionMet)
        let composing = try XCTUnwrap(presenter.states.last ?? nil)
        XCTAssertEqual(composing.surroundingText, "", "the pre-edit is not surrounding text")
        XCTAssertGreaterThan(composing.cursorRectangle.minX, first.cursorRectangle.minX + 5, "the cursor moved into the pre-edit")

        window.presenterDidReceiveTextInput(TextInputUpdate(commit: "日本語"))
        XCTAssertEqual(field.text, "日本語")
        XCTAssertNil(field.preedit)
        XCTAssertEqual(loop.run(until: { presenter.states.last??.surroundingText == "日本語" }, timeout: .seconds(5)), .conditionMet)
        XCTAssertEqual(presenter.states.last??.cursor, 9)

        // Moving to another field disables the input method first, then enables it for the new one.
        let before = presenter.states.count
        window.inputDispatcher?.focus(other)
        XCTAssertEqual(loop.run(until: { presenter.states.count >= before + 2 }, timeout: .seconds(5)), .conditionMet)
        XCTAssertNil(presenter.states[before])
        XCTAssertEqual(presenter.states[before + 1]?.surroundingText, "")
        XCTAssertEqual(presenter.states[before + 1]?.contentType, TextContentType())

        window.inputDispatcher?.focus(nil)
        XCTAssertEqual(loop.run(until: { presenter.states.last.map { $0 == nil } == true }, timeout: .seconds(5)), .conditionMet)
        // Without a focused field an update is ignored.
        window.presenterDidReceiveTextInput(TextInputUpdate(commit: "x"))
        XCTAssertEqual(field.text, "日本語")
    }
}
