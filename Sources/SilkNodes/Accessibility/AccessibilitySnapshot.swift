import Foundation
import SilkGeometry

/// One element of an accessibility tree snapshot: an immutable value, safe to hand to any
/// thread (the AT-SPI2 bridge reads it on its D-Bus thread).
public struct AccessibilityElement: Hashable, Sendable {
    /// The node's `accessibilityID`: stable for the node's life, never reused.
    public var id: UInt64
    /// What the element is.
    public var role: AccessibilityRole
    /// Its name: the node's `accessibilityLabel`, or for a leaf element without one (a tile, a
    /// list row) the labels of the elements inside it, joined by ", ".
    public var label: String?
    /// Its value (a text field's text; nil for a password field unless the app set one).
    public var value: String?
    /// What activating it does.
    public var hint: String?
    /// Its states.
    public var states: AccessibilityStates
    /// What it can be asked to do.
    public var actions: [AccessibilityAction]
    /// Its numeric value, if any.
    public var valueRange: AccessibilityValueRange?
    /// Its frame in window coordinates (points), through every ancestor's position, transform and
    /// scroll offset.
    public var frame: Rect
    /// For a container (a list, a table): how many items it has in all; `children` holds only
    /// the loaded ones (as Texture exposes them). Nil for anything else.
    public var itemCount: Int?
    /// The elements inside it, front to back in tree order.
    public var children: [AccessibilityElement]

    /// Creates an element (tests and exporters; nodes make theirs with
    /// `DisplayNode.accessibilitySnapshot()`).
    public init(id: UInt64, role: AccessibilityRole, label: String? = nil, value: String? = nil, hint: String? = nil,
                states: AccessibilityStates = [], actions: [AccessibilityAction] = [],
                valueRange: AccessibilityValueRange? = nil, frame: Rect = .zero, itemCount: Int? = nil,
                children: [AccessibilityElement] = []) {
        self.id = id
        self.role = role
        self.label = label
        self.value = value
        self.hint = hint
        self.states = states
        self.actions = actions
        self.valueRange = valueRange
        self.frame = frame
        self.itemCount = itemCount
        self.children = children
    }

    /// This element and its descendants, depth first (parents before children).
    public var allElements: [AccessibilityElement] {
        var out: [AccessibilityElement] = []
        func walk(_ e: AccessibilityElement) { out.append(e); e.children.forEach(walk) }
        walk(self)
        return out
    }

    /// The first element, depth first, that `predicate` accepts.
    public func first(where predicate: (AccessibilityElement) -> Bool) -> AccessibilityElement? {
        if predicate(self) { return self }
        for c in children { if let hit = c.first(where: predicate) { return hit } }
        return nil
    }

    /// The roles whose elements show the elements inside them as children; every other element
    /// is a leaf that speaks for its subtree (a button's title text is not an element of its own).
    public static let containerRoles: Set<AccessibilityRole> = [
        .window, .list, .table, .group, .scrollPane, .dialog, .alert, .radioGroup, .pageTabList, .none,
    ]
}

extension DisplayNode {
    /// A snapshot of the accessibility tree from this node down: nodes that are elements (plus
    /// this node, always), with their frames in the coordinates of this node's root (the window).
    /// Hidden subtrees and fully transparent ones are left out; a labelled-less image is left out;
    /// a leaf element's subtree is folded into its label. Reads each node under its own lock, one
    /// at a time, and frames from the laid-out tree, so it never waits for the main or render
    /// thread. Any thread.
    public func accessibilitySnapshot() -> AccessibilityElement {
        // The transform from this node's bounds into the root's coordinates.
        var toRoot = SilkGeometry.AffineTransform.identity
        var n: DisplayNode = self
        while let parent = n.supernode {
            let origin = parent.boundsOrigin
            toRoot = toRoot.concatenating(n.transformToSupernode)
                .concatenating(SilkGeometry.AffineTransform(translationX: -origin.x, y: -origin.y))
            n = parent
        }
        let root = element(toWindow: toRoot)
        let children = subnodeElements(toWindow: toRoot)
        return finish(root, children: children)
    }

    /// The element for this node alone (no children), its frame through `toWindow`.
    private func element(toWindow: SilkGeometry.AffineTransform) -> AccessibilityElement {
        let (a, size) = lock.withLock { (_accessibility, frameSize) }
        return AccessibilityElement(
            id: accessibilityID, role: a.role, label: a.label ?? a.defaultLabel, value: a.value ?? a.defaultValue,
            hint: a.hint, states: a.states, actions: a.actions, valueRange: a.valueRange,
            frame: toWindow.apply(to: Rect(size: size)), itemCount: a.itemCount)
    }

    private func finish(_ e: AccessibilityElement, children: [AccessibilityElement]) -> AccessibilityElement {
        var e = e
        if AccessibilityElement.containerRoles.contains(e.role) {
            e.children = children
        } else if e.label == nil {
            let inner = children.flatMap(\.allElements).compactMap(\.label).filter { !$0.isEmpty }
            if !inner.isEmpty { e.label = inner.joined(separator: ", ") }
        }
        return e
    }

    /// The elements of the subnodes (a non-element subnode contributes its own subnodes'
    /// elements in its place).
    private func subnodeElements(toWindow: SilkGeometry.AffineTransform) -> [AccessibilityElement] {
        let origin = boundsOrigin
        let inner = SilkGeometry.AffineTransform(translationX: -origin.x, y: -origin.y).concatenating(toWindow)
        var out: [AccessibilityElement] = []
        for child in subnodes {
            let (hidden, opacity, isElement) = child.lock.withLock { (child._isHiddenForAccessibility, child._opacityForAccessibility, child._accessibility.isElement) }
            if hidden || opacity < 0.01 { continue }
            let t = child.transformToSupernode.concatenating(inner)
            let children = child.subnodeElements(toWindow: t)
            if isElement {
                let e = child.finish(child.element(toWindow: t), children: children)
                if e.role == .image && e.label == nil { continue }
                out.append(e)
            } else {
                out.append(contentsOf: children)
            }
        }
        return out
    }
}
