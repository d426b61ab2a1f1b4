import Foundation
import SilkAccessibility
import SilkNodes
import SilkSystem

/// The process's AT-SPI2 bridge, started by the first window that shows a root node: nil when
/// no accessibility bus is reachable (one debug log line says why), so a kiosk without a
/// desktop pays nothing.
enum AccessibilityExport {
    static let bridge: AccessibilityBridge? = AccessibilityBridge.start(appName: ProcessInfo.processInfo.processName)
}

extension Window {
    /// The bridge exporting this window's tree, if any (tests and diagnostics). Main thread.
    public var accessibilityBridge: AccessibilityBridge? { AccessibilityExport.bridge }

    /// Exports the root node's tree (again, with the new size) as this window's AT-SPI frame.
    func exportAccessibility() {
        guard let root = nodePass?.rootNode else { return }
        startTalkBack(root)
        guard let bridge = AccessibilityExport.bridge else { return }
        bridge.addWindow(root: root, title: accessibilityTitle, size: size) { [weak self] node in
            MainActor.assumeIsolated {
                guard let self, let dispatcher = self.inputDispatcher, node.isFocusable else { return false }
                dispatcher.focus(node, showsRing: true)
                return true
            }
        }
    }

    /// Starts talk-back when `SILK_TALKBACK=1` (once), or points it at the new root node.
    private func startTalkBack(_ root: DisplayNode) {
        if let talkBack { talkBack.root = root; return }
        let config = SilkConfiguration.current
        guard config.talkBack else { return }
        talkBack = TalkBack.start(root: root, options: TalkBackOptions(configuration: config)) { [weak self] in self?.inputDispatcher }
    }

    /// Stops exporting the root node's tree.
    func unexportAccessibility() {
        guard let root = nodePass?.rootNode else { return }
        AccessibilityExport.bridge?.removeWindow(root: root)
    }
}
