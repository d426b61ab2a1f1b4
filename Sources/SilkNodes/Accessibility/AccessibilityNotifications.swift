import Foundation
import Synchronization
import SilkSystem

/// What changed about an accessibility element (see `AccessibilityChange`).
public enum AccessibilityChangeKind: Hashable, Sendable {
    /// `isAccessibilityElement` or `accessibilityRole` changed: exporters rebuild the element.
    case role
    /// `accessibilityLabel` changed (the element's name).
    case label
    /// `accessibilityValue` changed (for a text field, its text).
    case value
    /// `accessibilityHint` changed (the element's description).
    case hint
    /// `accessibilityStates` changed from `old` to `new` (focus gained or lost arrives here too,
    /// and as `focus`).
    case states(old: AccessibilityStates, new: AccessibilityStates)
    /// `accessibilityActions` changed.
    case actions
    /// `accessibilityValueRange` changed.
    case valueRange
    /// Subnodes were added or removed, or a container's loaded items or item count changed.
    case children
    /// Keyboard focus moved to this element (the window's input dispatcher posts it).
    case focus
    /// The element's selected children changed (a list's current item, a tab bar's tab).
    case selection
}

/// One change to one node's accessibility, posted to the observers (exporters such as the
/// AT-SPI2 bridge) on the thread that made it.
public struct AccessibilityChange: Hashable, Sendable {
    /// The changed node's `accessibilityID`.
    public let nodeID: UInt64
    /// What changed.
    public let kind: AccessibilityChangeKind
    /// Creates a change record.
    public init(nodeID: UInt64, kind: AccessibilityChangeKind) {
        self.nodeID = nodeID
        self.kind = kind
    }
}

/// Receives accessibility changes: an exporter of the tree (the AT-SPI2 bridge) or a test.
/// `accessibilityDidChange` is called on whatever thread made the change, outside every node
/// lock: it must return quickly (queue the change and handle it on the observer's own thread).
public protocol AccessibilityObserver: AnyObject, Sendable {
    /// `change` happened to `node`. Any thread; do not block.
    func accessibilityDidChange(_ change: AccessibilityChange, node: DisplayNode)
}

/// The process-wide list of accessibility observers. Posting costs one atomic load when none
/// is registered, so nodes post every change unconditionally. Any thread.
public enum AccessibilityNotifications {
    private static let observers = Locked<[(id: UInt64, observer: any AccessibilityObserver)]>([])
    private static let count = Atomic<Int>(0)
    private static let nextID = Atomic<UInt64>(1)

    /// Identifies a registered observer, for `removeObserver(_:)`.
    public struct Token: Hashable, Sendable { let id: UInt64 }

    /// Whether any observer is registered (posting is skipped when not). Any thread.
    public static var hasObservers: Bool { count.load(ordering: .acquiring) > 0 }

    /// Registers `observer` (kept strongly until removed). Any thread.
    @discardableResult
    public static func addObserver(_ observer: any AccessibilityObserver) -> Token {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        observers.withLock { list in
            list.append((id, observer))
            count.store(list.count, ordering: .releasing)
        }
        return Token(id: id)
    }

    /// Unregisters the observer added with `token`; it hears nothing posted after this returns
    /// (a post already running on another thread may still reach it). Any thread.
    public static func removeObserver(_ token: Token) {
        observers.withLock { list in
            list.removeAll { $0.id == token.id }
            count.store(list.count, ordering: .releasing)
        }
    }

    /// Tells every observer that `kind` changed on `node`. Any thread, outside node locks.
    public static func post(_ kind: AccessibilityChangeKind, for node: DisplayNode) {
        guard hasObservers else { return }
        let list = observers.withLock { $0.map(\.observer) }
        let change = AccessibilityChange(nodeID: node.accessibilityID, kind: kind)
        for o in list { o.accessibilityDidChange(change, node: node) }
    }

    /// Hands out node ids: unique in the process, never reused.
    static let idCounter = Atomic<UInt64>(1)
}
