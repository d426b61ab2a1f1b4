import Foundation
import SilkAccessibility
import SilkNodes
import SilkSystem

/// The process's AT-SPI2 bridge, started by the first window that shows a root node: nil when
/// no accessibility bus is reachable (one debug log line says why), so a kiosk without a
/// desktop pays nothing. Finding the bus asks the session bus and may wait for it (up to two
/// 2-second D-Bus calls), so the bridge starts on its own short-lived thread and the window's
/// first frame never waits for it; windows added or removed meanwhile are applied, in order,
/// once it is up.
enum AccessibilityExport {
    private struct State {
        var started = false
        var ready = false
        var bridge: AccessibilityBridge?
        var waiting: [@Sendable (AccessibilityBridge) -> Void] = []
    }
    private static let state = Locked(State())

    /// The bridge once started (nil while starting, or when there is no bus). Any thread.
    static var bridge: AccessibilityBridge? { state.withLock { $0.bridge } }

    /// Runs `body` with the bridge now if it is up, later (on the starting thread) if it is
    /// still starting, never if there is no bus. Bodies run in the order given. Any thread.
    static func withBridge(_ body: @escaping @Sendable (AccessibilityBridge) -> Void) {
        enum Now { case run(AccessibilityBridge), start, nothing }
        let now: Now = state.withLock { s in
            if s.ready { return s.bridge.map { .run($0) } ?? .nothing }
            s.waiting.append(body)
            if s.started { return .nothing }
            s.started = true
            return .start
        }
        switch now {
        case .run(let bridge): body(bridge)
        case .nothing: break
        case .start:
            let name = ProcessInfo.processInfo.processName
            let t = Thread {
                let bridge = AccessibilityBridge.start(appName: name)
                // Drain in order; a body queued while draining runs in the next round.
                while true {
                    let bodies: [@Sendable (AccessibilityBridge) -> Void] = state.withLock { s in
                        defer { s.waiting.removeAll() }
                        if s.waiting.isEmpty { s.ready = true; s.bridge = bridge }
                        return s.waiting
                    }
                    if bodies.isEmpty { return }
                    if let bridge { bodies.forEach { $0(bridge) } }
                }
            }
            t.name = "silk.a11y-start"
            t.start()
        }
    }
}

extension Window {
    /// The bridge exporting this window's tree, if any (tests and diagnostics). Main thread.
    public var accessibilityBridge: AccessibilityBridge? { AccessibilityExport.bridge }

    /// Exports the root node's tree (again, with the new size) as this window's AT-SPI frame.
    func exportAccessibility() {
        guard let root = nodePass?.rootNode else { return }
        startTalkBack(root)
        let title = accessibilityTitle, size = size
        let focus: @Sendable (DisplayNode) -> Bool = { [weak self] node in
            MainActor.assumeIsolated {
                guard let self, let dispatcher = self.inputDispatcher, node.isFocusable else { return false }
                dispatcher.focus(node, showsRing: true)
                return true
            }
        }
        AccessibilityExport.withBridge { $0.addWindow(root: root, title: title, size: size, focus: focus) }
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
        AccessibilityExport.withBridge { $0.removeWindow(root: root) }
    }
}
