import Foundation
import Testing
import SilkGeometry
import SilkInput
@testable import SilkNodes

@Suite struct DropdownTests {
    @Test func theListOpensAsAPopoverOrASheetAndAChoiceSelects() {
        let screenNode = DisplayNode()
        screenNode.frame = Rect(x: 0, y: 0, width: 400, height: 300)
        let screen = NodeController(node: screenNode)
        let root = RootController(content: screen)
        let timer = ManualTimer()
        root.timer = timer.timer
        root.beginAppearanceTransition(true, animated: false)
        root.endAppearanceTransition(animated: false)
        let dropdown = DropdownNode(options: ["Red", "Green", "Blue"], selectedIndex: 0)
        dropdown.frame = Rect(x: 20, y: 20, width: 160, height: 40)
        screenNode.addSubnode(dropdown)
        dropdown.presentingController = screen
        let changes = Locked(0)
        dropdown.addTarget(for: .valueChanged) { _, _ in changes.withLock { $0 += 1 } }
        #expect(dropdown.accessibilityRole == .comboBox)

        // Enter opens a popover (rounded card); a row chosen there selects it and closes the list.
        let d = InputDispatcher(rootNode: root.node)
        d.focus(dropdown)
        d.key(.enter, at: 1)
        let list = (dropdown.presentedList as? PickerListController)?.list
        #expect(root.presentedControllers.count == 1 && list?.options == ["Red", "Green", "Blue"])
        #expect(dropdown.presentedList?.node.cornerRadius ?? 0 > 0 && dropdown.accessibilityStates.contains(.expanded))
        d.key(.down, at: 1.1)
        d.key(.down, at: 1.2)
        d.key(.enter, at: 1.3)
        timer.fire()
        #expect(dropdown.selectedIndex == 2 && changes.current == 1 && dropdown.presentedList == nil)
        #expect(root.presentedControllers.isEmpty && !dropdown.accessibilityStates.contains(.expanded))

        // No pass runs here: give the containers above the screen its size, for hit testing.
        var up = screenNode.supernode
        while let n = up { n.frame = screenNode.frame; up = n.supernode }
        // A finger opens a bottom sheet (square card); Escape closes it with nothing chosen.
        d.down(100, 40, at: 2)
        d.up(at: 2.05)
        #expect(root.presentedControllers.count == 1 && dropdown.presentedList?.node.cornerRadius == 0)
        d.key(.escape, at: 3)
        timer.fire()
        #expect(root.presentedControllers.isEmpty && dropdown.presentedList == nil)
        #expect(dropdown.selectedIndex == 2 && changes.current == 1)

        // The arrows step through the options without opening the list.
        d.focus(dropdown)
        d.key(.down, at: 4)
        #expect(dropdown.selectedIndex == 0 && root.presentedControllers.isEmpty && changes.current == 2)

        // No presenting controller: activation does nothing, and says nothing.
        dropdown.presentingController = nil
        d.key(.enter, at: 5)
        #expect(root.presentedControllers.isEmpty)
    }
}
