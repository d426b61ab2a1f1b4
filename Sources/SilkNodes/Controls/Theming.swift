import Foundation
import SilkGeometry

/// A node that reacts when the theme it inherits changes: the standard controls adopt it
/// (`ThemedControlNode`), and an app's own nodes may too.
public protocol ThemeObserver: AnyObject {
    /// The node's `effectiveTheme` may have changed: a theme was set or cleared on it or an
    /// ancestor. Called on the thread that set the theme, outside every node lock. Redraw
    /// (`setNeedsDisplay()`) only if what the node shows changed.
    func effectiveThemeDidChange()
}

// Theme inheritance. A theme set on a node applies to its subtree, down to the nodes that set
// their own. Resolving walks up the supernodes (one lock at a time, never nested), so it is
// always current, wherever a node moves. Setting a theme walks the subtree it applies to and
// tells each `ThemeObserver`; the controls compare what they would draw with what they drew and
// redraw only when it differs — so switching light to dark redraws every control, while a
// derived theme that changes only the accent redraws only the controls that show the accent.
extension DisplayNode {
    /// The theme set on this node, inherited by its subtree unless a subnode sets its own (nil:
    /// inherit from the supernode). Set it on the window's root to theme the whole window.
    /// Setting it tells the `ThemeObserver`s of the subtree it applies to (see
    /// `ThemeObserver`). Any thread.
    public var theme: Theme? {
        get { lock.withLock { _themeOverride } }
        set {
            let changed = lock.withLock { () -> Bool in
                defer { _themeOverride = newValue }
                return _themeOverride != newValue
            }
            if changed { notifyThemeChange(includingSelf: true) }
        }
    }

    /// The theme this node shows: its own `theme`, else the nearest ancestor's, else
    /// `Theme.light`. Any thread.
    public var effectiveTheme: Theme { explicitTheme ?? .light }

    /// The nearest theme set on this node or an ancestor, nil when none is.
    var explicitTheme: Theme? {
        var node: DisplayNode? = self
        while let n = node {
            if let t = n.theme { return t }
            node = n.supernode
        }
        return nil
    }

    /// The focus ring's colour on this node: its theme's `focusRing` when a theme is set on it or
    /// an ancestor, else `FocusRing.color` (so trees without themes look as before themes).
    var focusRingColor: Color { explicitTheme?.colors.focusRing ?? FocusRing.color }

    /// Tells the observers of this subtree that their theme may have changed, skipping subtrees
    /// whose root sets its own theme (theirs did not change).
    func notifyThemeChange(includingSelf: Bool) {
        if includingSelf {
            (self as? any ThemeObserver)?.effectiveThemeDidChange()
            // The focus ring's colour comes from the theme: the pass re-applies layer state (no
            // redraw) so a focused node's ring follows.
            markDirty()
        }
        for child in subnodes where child.theme == nil {
            child.notifyThemeChange(includingSelf: true)
        }
    }
}
