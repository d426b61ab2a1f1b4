import Foundation
import SilkGeometry
import SilkLayout

/// The mapping from the corpus's CSS-style properties to Silk (documented in docs/layout.md):
/// container properties go to `StackLayoutSpec`, item and box properties to `Style`.
/// Yoga's defaults apply where a property is absent: column direction, `alignItems: stretch`,
/// `flexShrink: 0`.
public enum CSSStyleMapping {
    /// Builds the spec for one node. Values Silk does not implement (e.g. `display: contents`,
    /// `boxSizing: content-box`) are appended to `unsupported`; malformed values throw.
    public static func stack(_ css: [String: Any], children: [any LayoutElement], path: String,
                             unsupported: inout [String]) throws(CorpusError) -> StackLayoutSpec {
        var style = Style()
        var direction = StackDirection.vertical
        var justify = StackJustifyContent.start
        var alignItems = StackAlignItems.stretch
        var alignContent = StackAlignContent.start
        var wrap = StackWrap.noWrap
        var rowGap: SilkLayout.Dimension = 0, columnGap: SilkLayout.Dimension = 0

        func bad(_ key: String, _ v: Any) -> CorpusError {
            CorpusError(message: "\(path): style \(key) has an invalid value \(CorpusFile.describe(v))")
        }
        func keyword(_ key: String, _ v: Any) throws(CorpusError) -> String {
            guard let s = v as? String else { throw bad(key, v) }
            return s
        }
        func length(_ key: String, _ v: Any) throws(CorpusError) -> SilkLayout.Dimension {
            if let d = CorpusFile.number(v) { return .points(d) }
            guard let s = v as? String else { throw bad(key, v) }
            let t = s.trimmingCharacters(in: .whitespaces)
            if t == "auto" { return .auto }
            if t.hasSuffix("%"), let p = Double(t.dropLast()), p.isFinite { return .fraction(p / 100) }
            if t.hasSuffix("px"), let p = Double(t.dropLast(2)), p.isFinite { return .points(p) }
            if let p = Double(t), p.isFinite { return .points(p) }
            // Intrinsic sizing keywords behave as `auto`, as in Yoga (which resolves them to
            // an undefined length).
            if ["max-content", "min-content", "fit-content", "stretch"].contains(t) { return .auto }
            throw bad(key, v)
        }
        func number(_ key: String, _ v: Any) throws(CorpusError) -> Double {
            guard let d = CorpusFile.number(v) else { throw bad(key, v) }
            return d
        }
        func unsupportedValue(_ key: String, _ value: String) { unsupported.append("\(key): \(value)") }

        for (key, v) in css.sorted(by: { $0.key < $1.key }) {
            if v is NSNull { continue }
            switch key {
            case "flexDirection":
                switch try keyword(key, v) {
                case "row": direction = .horizontal
                case "row-reverse": direction = .horizontalReverse
                case "column": direction = .vertical
                case "column-reverse": direction = .verticalReverse
                default: throw bad(key, v)
                }
            case "justifyContent":
                switch try keyword(key, v) {
                case "flex-start", "start", "left", "normal": justify = .start
                case "center": justify = .center
                case "flex-end", "end", "right": justify = .end
                case "space-between": justify = .spaceBetween
                case "space-around": justify = .spaceAround
                case "space-evenly": justify = .spaceEvenly
                default: throw bad(key, v)
                }
            case "alignItems":
                guard let a = itemsAlignment(try keyword(key, v)) else { throw bad(key, v) }
                alignItems = a
            case "alignSelf":
                let s = try keyword(key, v)
                if s == "auto" { style.alignSelf = .auto }
                else if let a = itemsAlignment(s) { style.alignSelf = selfAlignment(a) }
                else { throw bad(key, v) }
            case "alignContent":
                switch try keyword(key, v) {
                case "flex-start", "start", "normal": alignContent = .start
                case "flex-end", "end": alignContent = .end
                case "center": alignContent = .center
                case "stretch": alignContent = .stretch
                case "space-between": alignContent = .spaceBetween
                case "space-around": alignContent = .spaceAround
                case "space-evenly": alignContent = .spaceEvenly
                case "baseline": unsupportedValue(key, "baseline")
                default: throw bad(key, v)
                }
            case "flexWrap":
                switch try keyword(key, v) {
                case "nowrap", "no-wrap": wrap = .noWrap
                case "wrap": wrap = .wrap
                case "wrap-reverse": wrap = .wrapReverse
                default: throw bad(key, v)
                }
            case "flexGrow": style.flexGrow = try number(key, v)
            case "flexShrink": style.flexShrink = try number(key, v)
            case "flexBasis": style.flexBasis = try length(key, v)
            case "width": style.width = try length(key, v)
            case "height": style.height = try length(key, v)
            case "minWidth": style.minWidth = try length(key, v)
            case "minHeight": style.minHeight = try length(key, v)
            case "maxWidth": style.maxWidth = try length(key, v)
            case "maxHeight": style.maxHeight = try length(key, v)
            case "aspectRatio":
                if let s = v as? String, s == "auto" { break }
                let r = try number(key, v)
                if r > 0 { style.aspectRatio = r }
            case "positionType", "position":
                switch try keyword(key, v) {
                case "relative": style.positionType = .relative
                case "absolute": style.positionType = .absolute
                case "static": style.positionType = .static
                default: throw bad(key, v)
                }
            case "display":
                switch try keyword(key, v) {
                case "flex": style.display = .flex
                case "none": style.display = .none
                case "contents": style.display = .contents
                case let other: unsupportedValue(key, other)
                }
            case "overflow":
                switch try keyword(key, v) {
                case "visible": style.overflow = .visible
                case "hidden": style.overflow = .hidden
                case "scroll": style.overflow = .scroll
                default: throw bad(key, v)
                }
            case "boxSizing":
                switch try keyword(key, v) {
                case "border-box": style.boxSizing = .borderBox
                case "content-box": style.boxSizing = .contentBox
                case let other: unsupportedValue(key, other)
                }
            case "direction":
                switch try keyword(key, v) {
                case "ltr": style.direction = .ltr
                case "rtl": style.direction = .rtl
                case "inherit": style.direction = .inherit
                default: throw bad(key, v)
                }
            case "marginLeft": style.margin.left = try length(key, v)
            case "marginTop": style.margin.top = try length(key, v)
            case "marginRight": style.margin.right = try length(key, v)
            case "marginBottom": style.margin.bottom = try length(key, v)
            case "paddingLeft": style.padding.left = try length(key, v)
            case "paddingTop": style.padding.top = try length(key, v)
            case "paddingRight": style.padding.right = try length(key, v)
            case "paddingBottom": style.padding.bottom = try length(key, v)
            case "borderLeft": style.border.left = try number(key, v)
            case "borderTop": style.border.top = try number(key, v)
            case "borderRight": style.border.right = try number(key, v)
            case "borderBottom": style.border.bottom = try number(key, v)
            case "marginStart": style.margin.start = try length(key, v)
            case "marginEnd": style.margin.end = try length(key, v)
            case "paddingStart": style.padding.start = try length(key, v)
            case "paddingEnd": style.padding.end = try length(key, v)
            case "borderStart": style.borderStart = try number(key, v)
            case "borderEnd": style.borderEnd = try number(key, v)
            case "start": style.insets.start = try length(key, v)
            case "end": style.insets.end = try length(key, v)
            case "left": style.insets.left = try length(key, v)
            case "top": style.insets.top = try length(key, v)
            case "right": style.insets.right = try length(key, v)
            case "bottom": style.insets.bottom = try length(key, v)
            case "rowGap": rowGap = try length(key, v)
            case "columnGap": columnGap = try length(key, v)
            case "gap":
                let g = try length(key, v)
                if css["rowGap"] == nil { rowGap = g }
                if css["columnGap"] == nil { columnGap = g }
            default:
                break   // Properties with no effect on layout (colours, text…) are ignored.
            }
        }
        // CSS gaps are per physical axis; a stack's spacing runs along its direction.
        let isRow = direction == .horizontal || direction == .horizontalReverse
        return StackLayoutSpec(direction: direction, spacing: isRow ? columnGap : rowGap,
                               justifyContent: justify, alignItems: alignItems, flexWrap: wrap,
                               alignContent: alignContent, lineSpacing: isRow ? rowGap : columnGap,
                               style: style, children: children)
    }

    private static func itemsAlignment(_ s: String) -> StackAlignItems? {
        switch s {
        case "flex-start", "start", "self-start": return .start
        case "flex-end", "end", "self-end": return .end
        case "center": return .center
        case "stretch", "normal": return .stretch
        case "baseline", "first baseline": return .baselineFirst
        case "last baseline": return .baselineLast
        default: return nil
        }
    }
    private static func selfAlignment(_ a: StackAlignItems) -> AlignSelf {
        switch a {
        case .start: return .start
        case .end: return .end
        case .center: return .center
        case .stretch: return .stretch
        case .baselineFirst: return .baselineFirst
        case .baselineLast: return .baselineLast
        }
    }
}
