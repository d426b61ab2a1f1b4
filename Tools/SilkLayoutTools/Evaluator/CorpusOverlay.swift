import Foundation

// Overlay corpus files: the same trees as a base file with other expectations (the RTL half of
// the Yoga corpus). Schema (docs/layout.md, "Corpus files"):
//   { "base": "yoga-flexbox.json", "direction": "rtl",
//     "cases": [{ "name": NAME, "expected": [[left, top, width, height], …],   // pre-order
//                 "styles": { "0/1": STYLE, … } }] }                           // optional
// Each overlay case copies the base case called NAME, replaces every node's expected frame
// (in pre-order; the count must match) and the style of the nodes named by path ("" is the root,
// "0/1" the root's first child's second child).

enum CorpusOverlay {
    /// The merged file: the overlay's top-level keys, with full cases built from the base.
    static func merge(_ overlay: [String: Any], base name: String, directory: URL) throws(CorpusError) -> [String: Any] {
        // A bare file name next to the overlay: no paths, so a file cannot reach elsewhere.
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw CorpusError(message: "\"base\" must name a file next to the overlay, not \(CorpusFile.describe(name))")
        }
        let base: [String: Any]
        do {
            base = try CorpusFile.json(try CorpusFile.readFile(directory.appendingPathComponent(name).path))
        } catch {
            throw CorpusError(message: "base \(CorpusFile.describe(name)): \(error.message)")
        }
        if base["base"] != nil { throw CorpusError(message: "base \(CorpusFile.describe(name)) is itself an overlay") }
        guard let baseCases = base["cases"] as? [Any] else {
            throw CorpusError(message: "base \(CorpusFile.describe(name)): no \"cases\" array")
        }
        var byName: [String: [String: Any]] = [:]
        for c in baseCases {
            if let obj = c as? [String: Any], let n = obj["name"] as? String { byName[n] = obj }
        }
        guard let cases = overlay["cases"] as? [Any] else { throw CorpusError(message: "no \"cases\" array") }
        var merged: [Any] = []
        merged.reserveCapacity(cases.count)
        for (i, c) in cases.enumerated() {
            guard let obj = c as? [String: Any] else { throw CorpusError(message: "cases[\(i)] is not an object") }
            guard let caseName = obj["name"] as? String else { throw CorpusError(message: "cases[\(i)] has no \"name\"") }
            let at = "case \"\(CorpusFile.excerpt(caseName))\""
            guard var full = byName[caseName] else { throw CorpusError(message: "\(at): no such case in the base file") }
            guard var root = full["root"] as? [String: Any] else { throw CorpusError(message: "\(at): base case has no root") }
            if let e = obj["expected"], !(e is NSNull) {
                guard let frames = e as? [Any] else { throw CorpusError(message: "\(at): \"expected\" is not an array") }
                var index = 0
                try apply(frames, to: &root, index: &index, at: at, depth: 0)
                if index != frames.count {
                    throw CorpusError(message: "\(at): \(frames.count) expected frames for \(index) nodes")
                }
            }
            if let s = obj["styles"], !(s is NSNull) {
                guard let styles = s as? [String: Any] else { throw CorpusError(message: "\(at): \"styles\" is not an object") }
                for (path, style) in styles {
                    guard style is [String: Any] else { throw CorpusError(message: "\(at): styles[\"\(CorpusFile.excerpt(path))\"] is not an object") }
                    try replaceStyle(in: &root, path: path.split(separator: "/").map(String.init)[...], style: style, at: at, full: path)
                }
            }
            full["root"] = root
            if let d = obj["direction"] { full["direction"] = d }
            merged.append(full)
        }
        var out = overlay
        out["cases"] = merged
        out["base"] = nil
        return out
    }

    private static func apply(_ frames: [Any], to node: inout [String: Any], index: inout Int, at: String,
                              depth: Int) throws(CorpusError) {
        if depth > CorpusFile.maximumFileDepth { throw CorpusError(message: "\(at): nested too deep") }
        guard index < frames.count else { throw CorpusError(message: "\(at): fewer expected frames than nodes") }
        guard let f = frames[index] as? [Any], f.count == 4,
              let l = CorpusFile.number(f[0]), let t = CorpusFile.number(f[1]),
              let w = CorpusFile.number(f[2]), let h = CorpusFile.number(f[3]) else {
            throw CorpusError(message: "\(at): expected[\(index)] is not [left, top, width, height]")
        }
        node["expected"] = ["left": l, "top": t, "width": w, "height": h]
        index += 1
        guard var children = node["children"] as? [Any] else { return }
        for i in children.indices {
            guard var child = children[i] as? [String: Any] else { continue }
            try apply(frames, to: &child, index: &index, at: at, depth: depth + 1)
            children[i] = child
        }
        node["children"] = children
    }

    private static func replaceStyle(in node: inout [String: Any], path: ArraySlice<String>, style: Any, at: String,
                                     full: String) throws(CorpusError) {
        guard let first = path.first else { node["style"] = style; return }
        guard let i = Int(first), var children = node["children"] as? [Any], children.indices.contains(i),
              var child = children[i] as? [String: Any] else {
            throw CorpusError(message: "\(at): styles path \"\(CorpusFile.excerpt(full))\" names no node")
        }
        try replaceStyle(in: &child, path: path.dropFirst(), style: style, at: at, full: full)
        children[i] = child
        node["children"] = children
    }
}
