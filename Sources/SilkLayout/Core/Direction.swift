import Glibc
import SilkGeometry
import SilkSystem

/// The inline direction of an element's content (CSS `direction`): which horizontal edge is the
/// *start*. `inherit` (the default) takes the parent's; the root of a pass takes
/// ``LayoutContext/direction``.
///
/// Right-to-left mirrors, as a browser does: horizontal stacks run from the right
/// (`horizontal` behaves as `horizontalReverse` and back), a vertical stack's cross axis starts at
/// the right (`alignItems: .start` is the right edge), logical edges (`start`/`end` of margins,
/// padding, borders and position insets) resolve to the right/left, a relatively or absolutely
/// positioned box with both `left` and `right` honours `right`, and the Texture-style specs mirror
/// their horizontal vocabulary (inset left/right, relative start/end, corner left/right,
/// `layoutPosition.x`) — see docs/layout.md, "Direction". Physical `left`/`right` style edges
/// stay physical, as in CSS.
public enum LayoutDirection: Hashable, Sendable {
    case inherit, ltr, rtl

    /// `self`, or `parent` for `inherit` (`parent` is never `inherit` in a resolved tree).
    @inline(__always)
    public func resolved(parent: LayoutDirection) -> LayoutDirection {
        self == .inherit ? (parent == .inherit ? .ltr : parent) : self
    }
}

extension LayoutDirection {
    private static let appDefault = Locked<LayoutDirection>(LayoutDirection.forLocale(processLocale()))

    /// The direction a node tree takes when its root does not set one: from the process's locale
    /// (`LC_ALL`, `LC_MESSAGES`, `LANG`: Arabic, Hebrew, Persian, Urdu and other right-to-left
    /// languages give `rtl`) until an app sets it. Read by the node pass for each layout; any
    /// thread (a lock guards it).
    public static var applicationDefault: LayoutDirection {
        get { appDefault.withLock { $0 } }
        set { appDefault.withLock { $0 = newValue == .inherit ? .ltr : newValue } }
    }

    /// `rtl` for a locale identifier (`ar_EG.UTF-8`, `he`, `fa-IR`, …) of a right-to-left
    /// language, else `ltr`.
    public static func forLocale(_ identifier: String) -> LayoutDirection {
        let language = identifier.lowercased().prefix { $0.isLetter }
        let rightToLeft: Set<Substring> = ["ar", "he", "iw", "fa", "ur", "yi", "ps", "sd", "ug", "dv", "ckb", "syr"]
        return rightToLeft.contains(language) ? .rtl : .ltr
    }

    private static func processLocale() -> String {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let v = getenv(name), let s = String(validatingCString: v), !s.isEmpty { return s }
        }
        return ""
    }
}

extension Style {
    /// True when any edge is given as `start`/`end` (the style needs the direction to be
    /// resolved to physical edges).
    var hasLogicalEdges: Bool {
        margin.start != nil || margin.end != nil || padding.start != nil || padding.end != nil
            || borderStart != nil || borderEnd != nil || insets.start != nil || insets.end != nil
    }

    /// This style with its logical edges folded into physical ones for `direction` (`start` is
    /// the left edge in LTR and the right edge in RTL; a logical edge wins over the physical one
    /// it lands on, as in Yoga). Physical edges are kept as they are.
    public func physical(for direction: LayoutDirection) -> Style {
        guard hasLogicalEdges else { return self }
        let rtl = direction == .rtl
        var s = self
        if let v = margin.start { if rtl { s.margin.right = v } else { s.margin.left = v } }
        if let v = margin.end { if rtl { s.margin.left = v } else { s.margin.right = v } }
        if let v = padding.start { if rtl { s.padding.right = v } else { s.padding.left = v } }
        if let v = padding.end { if rtl { s.padding.left = v } else { s.padding.right = v } }
        if let v = borderStart { if rtl { s.border.right = v } else { s.border.left = v } }
        if let v = borderEnd { if rtl { s.border.left = v } else { s.border.right = v } }
        if let v = insets.start { if rtl { s.insets.right = v } else { s.insets.left = v } }
        if let v = insets.end { if rtl { s.insets.left = v } else { s.insets.right = v } }
        s.margin.start = nil; s.margin.end = nil
        s.padding.start = nil; s.padding.end = nil
        s.borderStart = nil; s.borderEnd = nil
        s.insets.start = nil; s.insets.end = nil
        return s
    }
}

extension EdgeInsets {
    /// Left and right swapped (the Texture-style specs' insets in a right-to-left pass).
    var mirrored: EdgeInsets { EdgeInsets(top: top, left: right, bottom: bottom, right: left) }
}
