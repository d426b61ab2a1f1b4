import Foundation
import SilkGeometry
import SilkLayout

/// A computed frame and those of the node's children, in the case's tree shape.
public struct CorpusResultNode: Sendable {
    public let frame: CorpusFrame
    public let children: [CorpusResultNode]
}

/// The outcome of one case: the computed tree (nil when it could not be laid out) and, when it
/// failed, why (the first differing frames, or the unsupported feature or layout error).
public struct CorpusCaseResult: Sendable {
    public let name: String
    public let features: [String]
    public let computed: CorpusResultNode?
    public let failure: String?
    public var passed: Bool { failure == nil }
}

/// Lays out corpus cases the way Yoga's `calculateLayout` would (root at the available size,
/// root margins and offsets moving it, frames rounded to whole points), and compares them with
/// the expected frames.
public enum CorpusEvaluator {
    /// Runs one case. A frame matches when every edge is within `tolerance` points.
    /// `yogaCompatible` lays out with Yoga's behaviour where it differs from the browser's (for
    /// expectations that come from Yoga itself rather than a browser).
    public static func run(_ corpusCase: CorpusCase, tolerance: Double = 1, pointScale: Double = 1,
                           yogaCompatible: Bool = false) -> CorpusCaseResult {
        guard let root = corpusCase.root else {
            return CorpusCaseResult(name: corpusCase.name, features: corpusCase.features, computed: nil,
                                    failure: "unsupported: " + corpusCase.unsupported.joined(separator: ", "))
        }
        let layout: Layout
        do {
            layout = try rootLayout(root.spec, available: corpusCase.available,
                                    context: LayoutContext(direction: corpusCase.direction, yogaCompatible: yogaCompatible))
                .roundedToPixelGrid(scale: pointScale)
        } catch {
            return CorpusCaseResult(name: corpusCase.name, features: corpusCase.features, computed: nil,
                                    failure: "layout error: \(error)")
        }
        let computed = resultTree(layout)
        var mismatches: [String] = []
        compare(root, computed, path: "root", tolerance: tolerance, into: &mismatches)
        let failure: String?
        if mismatches.isEmpty {
            failure = nil
        } else {
            let shown = mismatches.prefix(3).joined(separator: "; ")
            failure = mismatches.count > 3 ? shown + "; … (\(mismatches.count) nodes differ)" : shown
        }
        return CorpusCaseResult(name: corpusCase.name, features: corpusCase.features, computed: computed, failure: failure)
    }

    /// The root's layout as Yoga's `calculateLayout(available…)` computes it: a definite style
    /// size is exact, else a max size is the fit-content limit, else a known available length
    /// is exact. The root is placed at its margin plus its relative offset.
    public static func rootLayout(_ spec: StackLayoutSpec, available: (width: Double?, height: Double?),
                                  context: LayoutContext = LayoutContext()) throws(LayoutError) -> Layout {
        // The root's own logical edges follow its direction; its offsets are placed as Yoga
        // places a root, from the left (it has no parent to mirror in).
        let style = spec.style.physical(for: spec.style.direction.resolved(parent: context.direction))
        let aw = available.width ?? .nan, ah = available.height ?? .nan
        if style.display == .none { return Layout(element: spec, size: .zero) }
        let layout = try spec.layoutAsYogaRoot(ownerWidth: aw, ownerHeight: ah, context: context)
        func offset(_ start: SilkLayout.Dimension?, _ end: SilkLayout.Dimension?, _ size: Double) -> Double {
            if style.positionType == .static { return 0 }
            if let start, !start.isAuto { return start.resolve(size) ?? 0 }
            if let end, let v = end.resolve(size) { return -v }
            return 0
        }
        let marginLeft = style.margin.left.resolve(aw) ?? 0, marginTop = style.margin.top.resolve(aw) ?? 0
        return layout.positioned(at: Point(x: marginLeft + offset(style.insets.left, style.insets.right, aw),
                                           y: marginTop + offset(style.insets.top, style.insets.bottom, ah)))
    }

    static func resultTree(_ layout: Layout) -> CorpusResultNode {
        CorpusResultNode(frame: CorpusFrame(left: layout.position.x, top: layout.position.y,
                                            width: layout.size.width, height: layout.size.height),
                         children: layout.sublayouts.map(resultTree))
    }

    private static func compare(_ node: CorpusNode, _ result: CorpusResultNode, path: String, tolerance: Double,
                                into out: inout [String]) {
        if let e = node.expected {
            let f = result.frame
            var diffs: [String] = []
            func check(_ name: String, _ got: Double, _ want: Double) {
                if !(abs(got - want) <= tolerance) { diffs.append("\(name) \(formatPoints(got)) (want \(formatPoints(want)))") }
            }
            check("left", f.left, e.left); check("top", f.top, e.top)
            check("width", f.width, e.width); check("height", f.height, e.height)
            if !diffs.isEmpty { out.append("\(path): " + diffs.joined(separator: ", ")) }
        }
        guard node.children.count == result.children.count else {
            out.append("\(path): \(result.children.count) children laid out, \(node.children.count) expected")
            return
        }
        for (i, child) in node.children.enumerated() {
            compare(child, result.children[i], path: "\(path)/\(i)", tolerance: tolerance, into: &out)
        }
    }

    /// `{"cases": [{"name": …, "root": {"left", "top", "width", "height", "children": […]}}]}`;
    /// a case that could not be laid out has `"root": null` and an `"error"`.
    public static func emitJSON(_ results: [CorpusCaseResult]) -> String {
        var s = "{\"cases\": [\n"
        for (i, r) in results.enumerated() {
            s += "  {\"name\": \(jsonString(r.name)), \"root\": "
            if let c = r.computed { writeNode(c, into: &s) } else { s += "null" }
            if r.computed == nil, let f = r.failure { s += ", \"error\": \(jsonString(f))" }
            s += i == results.count - 1 ? "}\n" : "},\n"
        }
        s += "]}\n"
        return s
    }

    private static func writeNode(_ n: CorpusResultNode, into s: inout String) {
        let f = n.frame
        s += "{\"left\": \(jsonNumber(f.left)), \"top\": \(jsonNumber(f.top)), "
        s += "\"width\": \(jsonNumber(f.width)), \"height\": \(jsonNumber(f.height)), \"children\": ["
        for (i, c) in n.children.enumerated() {
            if i > 0 { s += ", " }
            writeNode(c, into: &s)
        }
        s += "]}"
    }

    private static func jsonNumber(_ v: Double) -> String {
        if !v.isFinite { return "null" }
        if v == v.rounded() && abs(v) < 1e15 { return String(Int(v)) }
        return String(v)
    }

    static func jsonString(_ text: String) -> String {
        var s = "\""
        for u in text.unicodeScalars {
            switch u {
            case "\"": s += "\\\""
            case "\\": s += "\\\\"
            case "\n": s += "\\n"
            case "\r": s += "\\r"
            case "\t": s += "\\t"
            default:
                if u.value < 0x20 { s += String(format: "\\u%04x", u.value) } else { s.unicodeScalars.append(u) }
            }
        }
        return s + "\""
    }
}
