import Foundation
import SilkGeometry
import SilkLayout

// Reading layout-corpus files (the schema of Tests/SilkLayoutTests/Fixtures/README.md) into
// Silk specs. Each CSS-style node becomes a `StackLayoutSpec` (every node is a flex container,
// leaves included); the mapping is documented in docs/layout.md.

/// A frame as the corpus writes it: border box relative to the parent's border box.
public struct CorpusFrame: Hashable, Sendable {
    public var left: Double, top: Double, width: Double, height: Double
    public init(left: Double, top: Double, width: Double, height: Double) {
        self.left = left; self.top = top; self.width = width; self.height = height
    }
}

/// One node of a case: the spec built from its style (a stack, or a grid for `display: grid`),
/// its children, its expected frame.
public struct CorpusNode: Sendable {
    public let element: any LayoutElement
    public let children: [CorpusNode]
    public let expected: CorpusFrame?
    /// The node as a stack. A case's root always is one (the parser refuses a grid root); a
    /// grid node is returned inside a stack of its own.
    public var spec: StackLayoutSpec { element as? StackLayoutSpec ?? StackLayoutSpec(children: [element]) }
}

/// One case: a tree and what to lay it out in. `unsupported` lists style values Silk does not
/// implement (such a case fails without being laid out).
public struct CorpusCase: Sendable {
    public let name: String
    public let features: [String]
    public let available: (width: Double?, height: Double?)
    public let root: CorpusNode?
    public let unsupported: [String]
    /// The direction the tree is laid out in (the case's `direction`, else the file's; `ltr`).
    public let direction: LayoutDirection
}

/// A malformed corpus file: what is wrong and where.
public struct CorpusError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}

public enum CorpusFile {
    /// Parses a corpus file. Throws `CorpusError` for anything that is not the schema (not
    /// JSON, no `cases` array, a node that is not an object, a length that is not a length).
    public static func load(contentsOf url: URL) throws(CorpusError) -> [CorpusCase] {
        try parse(try readFile(url.path), directory: url.deletingLastPathComponent())
    }

    /// Largest corpus file read (the Yoga corpus is 0.6 MB); JSONSerialization needs many times
    /// a file's size in objects, so this bounds the parser's memory.
    public static let maximumFileBytes = 32 << 20
    /// Largest number of nodes in one file, all cases together (the Yoga corpus has about
    /// 5,000); each node becomes a spec and a layout, about 2 KB together with its JSON, so
    /// 100,000 nodes stay near 200 MB (a million took 1.9 GB).
    public static let maximumNodes = 100_000

    /// Reads a regular file of at most `maximumFileBytes`. Opened non-blocking, so a FIFO is
    /// refused instead of blocking in open(2) until a writer appears.
    static func readFile(_ path: String) throws(CorpusError) -> Data {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw CorpusError(message: code == ENOENT ? "no such file" : "cannot open: \(String(cString: strerror(code)))")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw CorpusError(message: "cannot read: \(String(cString: strerror(errno)))") }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            throw CorpusError(message: (st.st_mode & S_IFMT) == S_IFDIR ? "is a directory" : "is not a regular file")
        }
        guard st.st_size <= maximumFileBytes else {
            throw CorpusError(message: "file of \(st.st_size) bytes is larger than the limit of \(maximumFileBytes) bytes")
        }
        var data = Data(count: Int(st.st_size))
        var total = 0
        while total < data.count {
            let n = data.withUnsafeMutableBytes { read(fd, $0.baseAddress! + total, $0.count - total) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CorpusError(message: "cannot read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            total += n
        }
        data.count = total
        return data
    }

    /// Parses a corpus file's bytes. An overlay file (one with `"base"`) needs `directory`, where
    /// its base file is read from.
    public static func parse(_ data: Data, directory: URL? = nil) throws(CorpusError) -> [CorpusCase] {
        let top = try json(data)
        if let base = top["base"] {
            guard let name = base as? String else { throw CorpusError(message: "\"base\" is not a file name") }
            guard let directory else { throw CorpusError(message: "an overlay (\"base\") must be read from a file") }
            return try parse(try CorpusOverlay.merge(top, base: name, directory: directory))
        }
        return try parse(top)
    }

    /// The top-level object of a corpus file, with the size checks made before parsing.
    static func json(_ data: Data) throws(CorpusError) -> [String: Any] {
        // Counted before JSONSerialization builds an object per container: a node is at most
        // four (itself, style, expected, children), so more than that many times the node limit
        // cannot be a file within it, and is refused before using the memory.
        let brackets = bracketCounts(data)
        let containers = brackets.containers
        if containers > 4 * maximumNodes {
            throw CorpusError(message: "\(containers) JSON objects and arrays; a file may hold at most \(maximumNodes) nodes")
        }
        let json: Any
        do { json = try JSONSerialization.jsonObject(with: data) } catch {
            let depth = brackets.deepest
            if depth > 512 {
                throw CorpusError(message: "JSON nests \(depth) levels deep; the reader accepts at most 512 (about 250 nested nodes)")
            }
            // Foundation's localizedDescription here is a generic "error 3840"; the debug
            // description says where ("Unexpected character … around line 3, column 7").
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
            throw CorpusError(message: "not valid JSON (\(excerpt(detail, limit: 120)))")
        }
        guard let top = json as? [String: Any] else { throw CorpusError(message: "top level is not an object") }
        return top
    }

    static func direction(_ v: Any?, _ what: String) throws(CorpusError) -> LayoutDirection? {
        guard let v, !(v is NSNull) else { return nil }
        switch v as? String {
        case "ltr": return .ltr
        case "rtl": return .rtl
        case "inherit": return .inherit
        default: throw CorpusError(message: "\(what) \"direction\" is \(describe(v)), not \"ltr\", \"rtl\" or \"inherit\"")
        }
    }

    static func parse(_ top: [String: Any]) throws(CorpusError) -> [CorpusCase] {
        guard let cases = top["cases"] as? [Any] else { throw CorpusError(message: "no \"cases\" array") }
        let fileDirection = try direction(top["direction"], "the file's") ?? .ltr
        var out: [CorpusCase] = []
        out.reserveCapacity(min(cases.count, maximumNodes))
        var nodeCount = 0
        for (i, c) in cases.enumerated() {
            guard let obj = c as? [String: Any] else { throw CorpusError(message: "cases[\(i)] is not an object") }
            let name = (obj["name"] as? String) ?? "case \(i)"
            let at = "case \"\(excerpt(name))\""
            guard let rootJSON = obj["root"] as? [String: Any] else {
                throw CorpusError(message: "\(at): missing \"root\" object")
            }
            var available: (Double?, Double?) = (nil, nil)
            if let a = obj["available"], !(a is NSNull) {
                guard let arr = a as? [Any], arr.count == 2 else {
                    throw CorpusError(message: "\(at): \"available\" is not [width, height]")
                }
                available = (try optionalNumber(arr[0], "\(at) available[0]"), try optionalNumber(arr[1], "\(at) available[1]"))
            }
            let features = (obj["features"] as? [Any])?.compactMap { $0 as? String } ?? []
            var unsupported: [String] = []
            let root = try node(rootJSON, path: "\(at) root", depth: 0, unsupported: &unsupported, count: &nodeCount)
            if !(root.element is StackLayoutSpec) {
                unsupported.append("display: grid at the root (wrap the grid in a flex container)")
            }
            let caseDirection = try direction(obj["direction"], at) ?? fileDirection
            out.append(CorpusCase(name: name, features: features, available: available,
                                  root: unsupported.isEmpty ? root : nil, unsupported: unsupported,
                                  direction: caseDirection == .inherit ? .ltr : caseDirection))
        }
        return out
    }

    /// Nodes nested deeper than this are rejected as malformed rather than risking the stack.
    static let maximumFileDepth = 1000

    private static func node(_ json: [String: Any], path: String, depth: Int,
                             unsupported: inout [String], count: inout Int) throws(CorpusError) -> CorpusNode {
        if depth > maximumFileDepth { throw CorpusError(message: "\(path): nested deeper than \(maximumFileDepth) levels") }
        count += 1
        if count > maximumNodes { throw CorpusError(message: "\(path): more than \(maximumNodes) nodes in the file (the limit)") }
        var children: [CorpusNode] = []
        var childStyles: [[String: Any]] = []
        if let c = json["children"], !(c is NSNull) {
            guard let arr = c as? [Any] else { throw CorpusError(message: "\(path): \"children\" is not an array") }
            for (i, child) in arr.enumerated() {
                guard let obj = child as? [String: Any] else {
                    throw CorpusError(message: "\(path)/\(i): node is not an object")
                }
                children.append(try node(obj, path: "\(path)/\(i)", depth: depth + 1, unsupported: &unsupported, count: &count))
                childStyles.append(try style(obj, path: "\(path)/\(i)"))
            }
        }
        let styleJSON = try style(json, path: path)
        let spec: any LayoutElement
        if let display = styleJSON["display"] as? String, display == "grid" {
            spec = try CSSGridMapping.grid(styleJSON, children: Array(zip(children.map(\.element), childStyles)),
                                           path: path, unsupported: &unsupported)
        } else {
            spec = try CSSStyleMapping.stack(styleJSON, children: children.map(\.element), path: path,
                                             unsupported: &unsupported)
        }
        var expected: CorpusFrame?
        if let e = json["expected"], !(e is NSNull) {
            guard let obj = e as? [String: Any] else { throw CorpusError(message: "\(path): \"expected\" is not an object") }
            func field(_ k: String) throws(CorpusError) -> Double {
                guard let v = obj[k], let d = number(v) else {
                    throw CorpusError(message: "\(path): expected.\(k) is missing or not a number")
                }
                return d
            }
            expected = CorpusFrame(left: try field("left"), top: try field("top"),
                                   width: try field("width"), height: try field("height"))
        }
        return CorpusNode(element: spec, children: children, expected: expected)
    }

    private static func style(_ json: [String: Any], path: String) throws(CorpusError) -> [String: Any] {
        guard let s = json["style"], !(s is NSNull) else { return [:] }
        guard let obj = s as? [String: Any] else { throw CorpusError(message: "\(path): \"style\" is not an object") }
        return obj
    }

    /// One pass over the raw JSON outside strings: how deep brackets nest (to explain a parser
    /// refusal) and how many objects and arrays open (to refuse a huge file before parsing it).
    static func bracketCounts(_ data: Data) -> (deepest: Int, containers: Int) {
        var depth = 0, deepest = 0, containers = 0, inString = false, escaped = false
        for b in data {
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true }
                else if b == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch b {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1; containers += 1; deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return (deepest, containers)
    }

    /// A JSON value as a user wrote it, for error messages.
    static func describe(_ v: Any) -> String {
        if let n = v as? NSNumber, String(describing: type(of: v)).contains("Bool") { return n.boolValue ? "true" : "false" }
        // Quoted values are cut: a message must not echo megabytes of a bad file back.
        if let s = v as? String { return "\"\(excerpt(s))\"" }
        if v is [Any] { return "an array" }
        if v is [String: Any] { return "an object" }
        return "\(v)"
    }

    /// `s` cut to `limit` characters with an ellipsis (names and values quoted in messages).
    static func excerpt(_ s: String, limit: Int = 60) -> String {
        s.count <= limit ? s : String(s.prefix(limit)) + "…"
    }

    static func number(_ v: Any) -> Double? {
        // JSON booleans also arrive as NSNumber (a CFBoolean subclass); they are not lengths.
        guard let n = v as? NSNumber, !String(describing: type(of: v)).contains("Bool") else { return nil }
        let d = n.doubleValue
        return d.isFinite ? d : nil
    }
    private static func optionalNumber(_ v: Any, _ what: String) throws(CorpusError) -> Double? {
        if v is NSNull { return nil }
        guard let d = number(v) else { throw CorpusError(message: "\(what) is not a number or null") }
        return d
    }
}
