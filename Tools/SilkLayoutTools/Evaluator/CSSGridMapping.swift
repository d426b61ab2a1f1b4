import Foundation
import SilkGeometry
import SilkLayout

/// The mapping from CSS grid properties to `GridLayoutSpec` (docs/layout.md, "Grid"): a node
/// with `display: grid` becomes a grid whose children are its items. Container keys:
/// `gridTemplateColumns`/`gridTemplateRows` (lengths, `%`, `fr`, `auto`, `minmax(a, b)`,
/// `repeat(N, …)`), `gridAutoColumns`/`gridAutoRows`, `gridAutoFlow`, `rowGap`/`columnGap`/`gap`,
/// `justifyItems`, `alignItems`, `justifyContent`, `alignContent`. Item keys: `gridColumn`,
/// `gridRow` (`"2"`, `"2 / 4"`, `"1 / -1"`, `"span 2"`, `"3 / span 2"`), `justifySelf`,
/// `alignSelf`. Every other key of the node (size, margins, padding…) maps as for a stack.
public enum CSSGridMapping {
    static let gridKeys: Set<String> = ["display", "gridTemplateColumns", "gridTemplateRows", "gridAutoColumns",
                                        "gridAutoRows", "gridAutoFlow", "justifyItems", "alignItems",
                                        "justifyContent", "alignContent", "rowGap", "columnGap", "gap"]

    /// Builds the grid for one node; `children` pairs each child's element with its CSS style.
    public static func grid(_ css: [String: Any], children: [(any LayoutElement, [String: Any])], path: String,
                            unsupported: inout [String]) throws(CorpusError) -> GridLayoutSpec {
        func bad(_ key: String, _ v: Any) -> CorpusError {
            CorpusError(message: "\(path): style \(key) has an invalid value \(CorpusFile.describe(v))")
        }
        func keyword(_ key: String, _ v: Any) throws(CorpusError) -> String {
            guard let s = v as? String else { throw bad(key, v) }
            return s.trimmingCharacters(in: .whitespaces)
        }
        // The box itself (size, margins, padding, border, position) maps as a stack's would.
        let box = try CSSStyleMapping.stack(css.filter { !gridKeys.contains($0.key) }, children: [], path: path,
                                            unsupported: &unsupported)
        func tracks(_ key: String) throws(CorpusError) -> [GridTrack] {
            guard let v = css[key], !(v is NSNull) else { return [] }
            guard let list = parseTrackList(try keyword(key, v)) else { throw bad(key, v) }
            return list
        }
        func single(_ key: String) throws(CorpusError) -> GridTrack {
            guard let v = css[key], !(v is NSNull) else { return .auto }
            guard let list = parseTrackList(try keyword(key, v)), list.count == 1 else { throw bad(key, v) }
            return list[0]
        }
        func gap(_ key: String) throws(CorpusError) -> Double {
            let v = css[key] ?? css["gap"]
            guard let v, !(v is NSNull) else { return 0 }
            if let d = CorpusFile.number(v) { return d }
            if let s = v as? String, let d = Double(s.replacingOccurrences(of: "px", with: "")), d.isFinite { return d }
            throw bad(key, v)
        }
        func itemAlignment(_ key: String, _ v: Any?) throws(CorpusError) -> GridItemAlignment? {
            guard let v, !(v is NSNull) else { return nil }
            switch try keyword(key, v) {
            case "stretch", "normal": return .stretch
            case "start", "flex-start", "self-start", "left": return .start
            case "end", "flex-end", "self-end", "right": return .end
            case "center": return .center
            case "auto": return nil
            default: throw bad(key, v)
            }
        }
        func contentAlignment(_ key: String) throws(CorpusError) -> GridContentAlignment {
            // Absent: the corpus's base style (Yoga's fixtures) sets `align-content` and
            // `justify-content` to flex-start on every div.
            guard let v = css[key], !(v is NSNull) else { return .start }
            switch try keyword(key, v) {
            case "stretch", "normal": return .stretch
            case "start", "flex-start", "left": return .start
            case "end", "flex-end", "right": return .end
            case "center": return .center
            case "space-between": return .spaceBetween
            case "space-around": return .spaceAround
            case "space-evenly": return .spaceEvenly
            default: throw bad(key, v)
            }
        }
        var flow = GridAutoFlow.row
        if let v = css["gridAutoFlow"], !(v is NSNull) {
            switch try keyword("gridAutoFlow", v) {
            case "row": flow = .row
            case "column": flow = .column
            case "row dense", "dense", "dense row": flow = .rowDense
            case "column dense", "dense column": flow = .columnDense
            default: throw bad("gridAutoFlow", v)
            }
        }
        var items: [GridItem] = []
        for (i, (element, childCSS)) in children.enumerated() {
            let at = "\(path)/\(i)"
            func placement(_ key: String) throws(CorpusError) -> GridPlacement {
                guard let v = childCSS[key], !(v is NSNull) else { return .auto }
                if let n = CorpusFile.number(v), n == n.rounded(), abs(n) < 1e6 { return GridPlacement(start: Int(n)) }
                guard let s = v as? String, let p = parsePlacement(s) else {
                    throw CorpusError(message: "\(at): style \(key) has an invalid value \(CorpusFile.describe(v))")
                }
                return p
            }
            items.append(GridItem(element, column: try placement("gridColumn"), row: try placement("gridRow"),
                                  justifySelf: try itemAlignment("justifySelf", childCSS["justifySelf"]),
                                  alignSelf: try itemAlignment("alignSelf", childCSS["alignSelf"])))
        }
        return GridLayoutSpec(columns: try tracks("gridTemplateColumns"), rows: try tracks("gridTemplateRows"),
                              autoColumns: try single("gridAutoColumns"), autoRows: try single("gridAutoRows"),
                              columnGap: try gap("columnGap"), rowGap: try gap("rowGap"), autoFlow: flow,
                              justifyItems: try itemAlignment("justifyItems", css["justifyItems"]) ?? .stretch,
                              alignItems: try itemAlignment("alignItems", css["alignItems"]) ?? .stretch,
                              justifyContent: try contentAlignment("justifyContent"),
                              alignContent: try contentAlignment("alignContent"),
                              style: box.style, items: items)
    }

    /// `"100px 1fr minmax(20px, 30%) repeat(2, auto)"` → tracks; nil when malformed.
    public static func parseTrackList(_ text: String) -> [GridTrack]? {
        var tokens: [String] = []
        var depth = 0, current = ""
        for ch in text {
            if ch == "(" { depth += 1 }
            if ch == ")" { depth -= 1; if depth < 0 { return nil } }
            if ch == " " && depth == 0 {
                if !current.isEmpty { tokens.append(current); current = "" }
            } else {
                current.append(ch)
            }
        }
        if depth != 0 { return nil }
        if !current.isEmpty { tokens.append(current) }
        if text.trimmingCharacters(in: .whitespaces) == "none" { return [] }
        var out: [GridTrack] = []
        for t in tokens {
            if t.hasPrefix("repeat(") && t.hasSuffix(")") {
                let inner = t.dropFirst(7).dropLast()
                guard let comma = inner.firstIndex(of: ","),
                      let n = Int(inner[..<comma].trimmingCharacters(in: .whitespaces)), n >= 1,
                      let list = parseTrackList(String(inner[inner.index(after: comma)...])), !list.isEmpty,
                      out.count + n * list.count <= GridLayoutSpec.maximumTracks else { return nil }
                for _ in 0..<n { out += list }
            } else if t.hasPrefix("minmax(") && t.hasSuffix(")") {
                let inner = t.dropFirst(7).dropLast()
                let parts = inner.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, let a = breadth(parts[0]), let b = breadth(parts[1]) else { return nil }
                if case .flex = a { return nil }   // A flexible minimum is invalid in CSS.
                out.append(.minmax(a, b))
            } else {
                guard let b = breadth(t) else { return nil }
                out.append(GridTrack(min: b, max: b))
            }
            if out.count > GridLayoutSpec.maximumTracks { return nil }
        }
        return out
    }

    static func breadth(_ t: String) -> GridTrackBreadth? {
        if t == "auto" { return .auto }
        if t.hasSuffix("fr"), let v = Double(t.dropLast(2)), v.isFinite, v >= 0 { return .flex(v) }
        if t.hasSuffix("%"), let v = Double(t.dropLast()), v.isFinite, v >= 0 { return .fraction(v / 100) }
        if t.hasSuffix("px"), let v = Double(t.dropLast(2)), v.isFinite, v >= 0 { return .points(v) }
        if let v = Double(t), v.isFinite, v >= 0 { return .points(v) }
        return nil
    }

    /// `"2"`, `"2 / 4"`, `"1 / -1"`, `"span 2"`, `"3 / span 2"`, `"span 2 / 5"`, `"auto"`.
    public static func parsePlacement(_ text: String) -> GridPlacement? {
        let parts = text.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 1 || parts.count == 2 else { return nil }
        enum Part { case auto, line(Int), span(Int) }
        func part(_ s: String) -> Part? {
            if s == "auto" { return .auto }
            if s.hasPrefix("span ") {
                guard let n = Int(s.dropFirst(5).trimmingCharacters(in: .whitespaces)), n >= 1 else { return nil }
                return .span(n)
            }
            guard let n = Int(s), n != 0, abs(n) <= 10_000 else { return nil }
            return .line(n)
        }
        guard let a = part(parts[0]) else { return nil }
        let b: Part = parts.count == 2 ? (part(parts[1]) ?? .span(-1)) : .auto
        if case .span(-1) = b { return nil }
        switch (a, b) {
        case (.auto, .auto): return .auto
        case (.line(let s), .auto): return GridPlacement(start: s)
        case (.line(let s), .line(let e)): return GridPlacement(start: s, end: e)
        case (.line(let s), .span(let n)): return GridPlacement(start: s, span: n)
        case (.span(let n), .auto), (.auto, .span(let n)), (.span(let n), .span(_)): return .span(n)
        case (.span(let n), .line(let e)): return GridPlacement(end: e, span: n)
        case (.auto, .line(let e)): return GridPlacement(end: e)
        }
    }
}
