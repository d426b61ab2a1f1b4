import CRlottie
import Foundation
import SilkGeometry
import SilkSystem

/// A Lottie (Bodymovin JSON) animation, rendered with rlottie at whatever pixel size it is
/// drawn (vectors: sharp at any size and scale).
///
/// rlottie 0.1 trusts its input: a deeply nested document overflows the stack, a repeater of
/// 10⁸ copies or a dash pattern of 10⁻⁴ runs for minutes and takes gigabytes, and an image asset
/// with a path is read from disk. So Silk checks the document **before** rlottie sees it:
/// - files over ``maximumBytes`` are refused unread;
/// - JSON nesting deeper than ``maximumNesting`` is refused by a byte scan (no recursion), then
///   the document must parse as JSON (Foundation) into an object with `w`, `h` (1 …
///   ``maximumDimension``), `fr` (above 0, at most ``maximumFrameRate``), `ip` < `op` and at most
///   ``maximumFrameCount`` frames;
/// - every number is finite and at most ``maximumMagnitude`` in size;
/// - repeaters: copies (static or keyframed) multiplied along nesting at most
///   ``maximumRepeaterCopies``; dashes and gaps at least ``minimumDashLength`` each;
/// - precompositions: no cycle, at most ``maximumLayers`` layers once every precomposition is
///   expanded (a precomposition used ten times by ten levels is 10¹⁰ layers);
/// - image assets only as embedded `data:` URLs (no file is read: an asset naming a path is
///   refused), each at most ``maximumImagePixels`` by its own header.
/// Every failure is one `RasterError.io(path:reason:)` naming the file.
///
/// A value type over immutable bytes: `Sendable`. Each render parses into its own rlottie
/// animation (``LottieRenderer`` keeps one for playing frame after frame).
public struct LottieAnimation: Sendable {
    /// Files larger than this (8 MiB) are refused unread.
    public static let maximumBytes = 8 << 20
    /// Deepest JSON nesting accepted (objects and arrays); real files use about 20.
    public static let maximumNesting = 96
    /// Largest `w` or `h`, in points.
    public static let maximumDimension = 16_384.0
    /// Highest frame rate accepted (frames per second).
    public static let maximumFrameRate = 240.0
    /// Most frames (`op − ip`) accepted.
    public static let maximumFrameCount = 1_000_000.0
    /// Most layers once every precomposition is expanded where it is used.
    public static let maximumLayers = 10_000
    /// Most copies a shape gets from repeaters (nested repeaters multiply).
    public static let maximumRepeaterCopies = 1_000.0
    /// Shortest dash or gap of a dashed stroke.
    public static let minimumDashLength = 0.5
    /// Largest magnitude of any number in the document (as large as the frame count may be).
    public static let maximumMagnitude = 1e6
    /// Most pixels of one embedded image asset.
    public static let maximumImagePixels = 4096 * 4096

    /// The document's bytes.
    public let data: Data
    /// The name errors use: the file's path, or the name given with the data.
    public let name: String
    /// The composition's size (`w`×`h`), in points.
    public let size: Size
    /// Frames per second (`fr`).
    public let frameRate: Double
    /// Number of frames (`op − ip`, at least 1); frames are numbered from 0.
    public let frameCount: Int
    /// Seconds one play takes: `frameCount / frameRate`.
    public var duration: Double { Double(frameCount) / frameRate }

    /// Whether `data` looks like JSON (after whitespace and an optional BOM, it starts with `{`):
    /// no image format Silk decodes does, so an ImageNode hands such files to Lottie.
    public static func isLottie(_ data: Data) -> Bool {
        let first = data.prefix(4096).first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }
        return first == UInt8(ascii: "{")
    }

    /// Whether the file at `path` starts like a Lottie document (reads at most 4 KiB; false for
    /// anything but a regular file).
    public static func isLottie(path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, let h = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? h.close() }
        return isLottie((try? h.read(upToCount: 4096)) ?? Data())
    }

    /// Reads and checks the Lottie file at `path`. Throws `.io` naming the path. Any thread.
    public init(contentsOf path: String) throws(RasterError) {
        var st = stat()
        guard stat(path, &st) == 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw .io(path: path, reason: "not a regular file") }
        guard Int(st.st_size) <= LottieAnimation.maximumBytes else {
            throw .io(path: path, reason: "Lottie file of \(st.st_size) bytes is over the limit of \(LottieAnimation.maximumBytes)")
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .io(path: path, reason: "cannot read: \(error.localizedDescription)")
        }
        try self.init(data: data, name: path)
    }

    /// Checks Lottie `data` (see the type's list) and parses it once with rlottie; `name` is used
    /// in error messages. Any thread.
    public init(data: Data, name: String = "Lottie data") throws(RasterError) {
        func fail(_ reason: String) -> RasterError { .io(path: name, reason: reason) }
        guard data.count <= LottieAnimation.maximumBytes else {
            throw fail("Lottie data of \(data.count) bytes is over the limit of \(LottieAnimation.maximumBytes)")
        }
        guard LottieAnimation.isLottie(data) else { throw fail("not a Lottie animation (JSON object)") }
        let depth = LottieAnimation.nestingDepth(data)
        guard depth <= LottieAnimation.maximumNesting else {
            throw fail("Lottie JSON nested \(depth) levels deep, over the limit of \(LottieAnimation.maximumNesting)")
        }
        let root: [String: Any]
        do {
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw fail("not a Lottie animation (JSON object)")
            }
            root = object
        } catch let e as RasterError { throw e } catch {
            throw fail("invalid Lottie JSON")
        }
        func number(_ key: String) -> Double? { (root[key] as? NSNumber).map { $0.doubleValue }.flatMap { $0.isFinite ? $0 : nil } }
        guard let w = number("w"), let h = number("h"), w >= 1, h >= 1,
              w <= LottieAnimation.maximumDimension, h <= LottieAnimation.maximumDimension else {
            throw fail("Lottie size (w, h) missing or not between 1 and \(Int(LottieAnimation.maximumDimension))")
        }
        guard let fr = number("fr"), fr > 0, fr <= LottieAnimation.maximumFrameRate else {
            throw fail("Lottie frame rate (fr) missing or not above 0 and at most \(Int(LottieAnimation.maximumFrameRate))")
        }
        guard let ip = number("ip"), let op = number("op"), op > ip, op - ip <= LottieAnimation.maximumFrameCount else {
            throw fail("Lottie frames (ip, op) missing, empty or more than \(Int(LottieAnimation.maximumFrameCount))")
        }
        guard root["layers"] is [Any] else { throw fail("Lottie document has no layers") }
        do throws(LottieCheck.Failure) {
            try LottieCheck(root: root).run()
        } catch {
            throw fail(error.reason)
        }
        self.data = data
        self.name = name
        self.size = Size(width: w, height: h)
        self.frameRate = fr
        self.frameCount = max(1, Int((op - ip).rounded(.down)))
        // rlottie must accept it too (it has its own, stricter, ideas about some fields).
        _ = try LottieRenderer(self)
    }

    /// The deepest nesting of `{` and `[` outside strings (a linear byte scan).
    static func nestingDepth(_ data: Data) -> Int {
        var depth = 0, deepest = 0, inString = false, escaped = false
        for b in data {
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch b {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1; deepest = max(deepest, depth)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// Where the animation lands when fitted into `rect` with `contentMode`.
    public func destinationRect(in rect: Rect, contentMode: ContentMode) -> Rect {
        contentMode.destinationRect(imageSize: size, in: rect)
    }

    /// Renders frame `frame` (clamped to the animation's frames) into a new `width`×`height`
    /// bitmap, fitted by `contentMode`. Any thread (parses its own rlottie animation).
    public func render(frame: Int = 0, width: Int, height: Int, contentMode: ContentMode = .aspectFit) throws(RasterError) -> Bitmap {
        let bitmap = try Bitmap(width: width, height: height)
        let dest = destinationRect(in: bitmap.bounds, contentMode: contentMode)
        try LottieRenderer(self).draw(frame: frame, into: Canvas(bitmap: bitmap), rect: dest)
        return bitmap
    }

    /// Draws frame `frame` fitted into `rect` (user space) by `contentMode`, clipped to it,
    /// through the canvas's transform: rendered at the device pixel size it covers, then
    /// composited. Any thread (parses its own rlottie animation).
    public func draw(frame: Int = 0, in canvas: Canvas, rect: Rect, contentMode: ContentMode = .aspectFit) throws(RasterError) {
        guard rect.size.isValidExtent, !rect.isEmpty else { return }
        canvas.save()
        defer { canvas.restore() }
        canvas.clip(to: rect)
        try LottieRenderer(self).draw(frame: frame, into: canvas, rect: destinationRect(in: rect, contentMode: contentMode))
    }
}

/// One parsed rlottie animation that renders frame after frame (the player's; parsing once per
/// pass instead of per frame).
///
/// Not thread-safe: use it from one thread at a time (a serial display queue). Memory: rlottie's
/// model and render tree of the document; released with the renderer.
public final class LottieRenderer: @unchecked Sendable {
    private let handle: OpaquePointer
    /// The checked animation this renders.
    public let animation: LottieAnimation

    /// Parses `animation` with rlottie. Throws `.io` naming it when rlottie refuses the document.
    public init(_ animation: LottieAnimation) throws(RasterError) {
        self.animation = animation
        var bytes = [CChar](repeating: 0, count: animation.data.count + 1)
        animation.data.withUnsafeBytes { raw in
            bytes.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[...])) }
        }
        // No cache key (rlottie caches models by key forever) and no resource path (image
        // assets are embedded; paths were refused by the check).
        guard let h = lottie_animation_from_data(bytes, "", "") else {
            throw .io(path: animation.name, reason: "invalid Lottie animation (rlottie could not load it)")
        }
        handle = h
    }

    deinit { lottie_animation_destroy(handle) }

    /// Renders frame `frame` (clamped) into `bitmap`, which must be premultiplied ARGB32: the
    /// whole bitmap is the composition, scaled to its size (aspect ratio as the bitmap's).
    public func render(frame: Int, into bitmap: Bitmap) {
        guard bitmap.format == .argb32, bitmap.width > 0, bitmap.height > 0 else { return }
        let f = min(max(0, frame), animation.frameCount - 1)
        lottie_animation_render(handle, f, bitmap.data.assumingMemoryBound(to: UInt32.self),
                                bitmap.width, bitmap.height, bitmap.stride)
    }

    /// Renders frame `frame` at the device pixel size `rect` covers on `canvas` and composites it
    /// there (clipped and faded as the canvas is).
    public func draw(frame: Int, into canvas: Canvas, rect: Rect) throws(RasterError) {
        let device = canvas.transform.apply(to: rect)
        // Checked before converting: Int() of a non-finite or enormous size would trap.
        let limit = Double(RasterLimits.maxBitmapDimension)
        guard device.width.isFinite, device.height.isFinite, device.width <= limit, device.height <= limit else {
            throw .invalidSize(width: 0, height: 0, reason: "Lottie drawn \(device.width)×\(device.height) pixels, over \(Int(limit)) a side")
        }
        let w = Int(device.width.rounded()), h = Int(device.height.rounded())
        guard w > 0, h > 0 else { return }
        let pixels = try Bitmap(width: w, height: h)
        render(frame: frame, into: pixels)
        canvas.draw(pixels, in: rect, contentMode: .scaleToFill, filter: .bilinear)
    }
}

/// The structural checks of ``LottieAnimation`` (one walk over the parsed JSON).
struct LottieCheck {
    struct Failure: Error { let reason: String }
    let root: [String: Any]

    func run() throws(Failure) {
        try checkNumbers(root, depth: 0)
        let assets = root["assets"] as? [Any] ?? []
        var precomps: [String: [Any]] = [:]
        for case let asset as [String: Any] in assets {
            let id = (asset["id"] as? String) ?? ""
            if let layers = asset["layers"] as? [Any] { precomps[id] = layers; continue }
            if let p = asset["p"] as? String { try checkImage(p, id: id) }
            if asset["u"] is String, !(asset["p"] is String) { throw Failure(reason: "Lottie image asset '\(id)' has no embedded data") }
        }
        // Layers with every precomposition expanded where it is used; a cycle is an error.
        var memo: [String: Double] = [:]
        var visiting: Set<String> = []
        func count(_ layers: [Any]) throws(Failure) -> Double {
            var n = 0.0
            for case let layer as [String: Any] in layers {
                n += 1
                try checkShapes(layer["shapes"] as? [Any] ?? [], copies: 1)
                guard let ref = layer["refId"] as? String, let inner = precomps[ref] else { continue }
                if let m = memo[ref] { n += m; continue }
                guard !visiting.contains(ref) else { throw Failure(reason: "Lottie precomposition '\(ref)' contains itself") }
                visiting.insert(ref)
                let m = try count(inner)
                visiting.remove(ref)
                memo[ref] = m
                n += m
                if n > Double(LottieAnimation.maximumLayers) { break }
            }
            return n
        }
        let total = try count(root["layers"] as? [Any] ?? [])
        guard total <= Double(LottieAnimation.maximumLayers) else {
            throw Failure(reason: "Lottie animation has more than \(LottieAnimation.maximumLayers) layers with its precompositions expanded")
        }
    }

    /// Every number finite and within ``LottieAnimation/maximumMagnitude``.
    private func checkNumbers(_ value: Any, depth: Int) throws(Failure) {
        switch value {
        case let d as [String: Any]: for v in d.values { try checkNumbers(v, depth: depth + 1) }
        case let a as [Any]: for v in a { try checkNumbers(v, depth: depth + 1) }
        case let n as NSNumber:
            let v = n.doubleValue
            guard v.isFinite, abs(v) <= LottieAnimation.maximumMagnitude else {
                throw Failure(reason: "Lottie number \(v) is beyond ±\(LottieAnimation.maximumMagnitude)")
            }
        default: break
        }
    }

    /// The largest value an animatable property takes: `{"k": n}`, `{"k": [n…]}` or keyframes
    /// `{"k": [{"s": [n…]}, …]}`.
    private func largestValue(_ property: Any?) -> Double? { values(of: property).max() }

    /// The smallest value an animatable property takes (the forms as for `largestValue`).
    private func smallestValue(_ property: Any?) -> Double? { values(of: property).min() }

    /// Every number an animatable property holds, keyframes' start and end values included.
    private func values(of property: Any?) -> [Double] {
        guard let p = property as? [String: Any], let k = p["k"] else { return [] }
        var values: [Double] = []
        func collect(_ v: Any) {
            if let n = v as? NSNumber { values.append(n.doubleValue) }
            else if let a = v as? [Any] { a.forEach(collect) }
            else if let kf = v as? [String: Any] { [kf["s"], kf["e"]].compactMap { $0 }.forEach(collect) }
        }
        collect(k)
        return values
    }

    /// Repeater copies (multiplied down nested groups) and dash lengths.
    private func checkShapes(_ shapes: [Any], copies: Double) throws(Failure) {
        var here = copies
        for case let shape as [String: Any] in shapes where shape["ty"] as? String == "rp" {
            here *= max(1, largestValue(shape["c"]) ?? 1)
        }
        guard here <= LottieAnimation.maximumRepeaterCopies else {
            throw Failure(reason: "Lottie repeaters make more than \(Int(LottieAnimation.maximumRepeaterCopies)) copies of a shape")
        }
        for case let shape as [String: Any] in shapes {
            let type = shape["ty"] as? String
            if type == "gr" { try checkShapes(shape["it"] as? [Any] ?? [], copies: here) }
            if type == "st" || type == "gs", let dashes = shape["d"] as? [Any] {
                for case let dash as [String: Any] in dashes where (dash["n"] as? String) != "o" {
                    if let v = smallestValue(dash["v"]), v < LottieAnimation.minimumDashLength {
                        throw Failure(reason: "Lottie dash or gap of \(v) is shorter than \(LottieAnimation.minimumDashLength)")
                    }
                }
            }
        }
    }

    /// An image asset must be an embedded `data:` URL of a PNG or JPEG within the pixel limit.
    private func checkImage(_ p: String, id: String) throws(Failure) {
        guard p.hasPrefix("data:"), let comma = p.firstIndex(of: ",") else {
            throw Failure(reason: "Lottie image asset '\(id)' refers to a file ('\(p.prefix(60))'); only embedded data: images are loaded")
        }
        guard let bytes = Data(base64Encoded: String(p[p.index(after: comma)...]), options: .ignoreUnknownCharacters),
              let info = try? ImageDecoder.probe(data: bytes) else {
            throw Failure(reason: "Lottie image asset '\(id)' is not a readable embedded image")
        }
        guard info.width * info.height <= LottieAnimation.maximumImagePixels else {
            throw Failure(reason: "Lottie image asset '\(id)' is \(info.width)×\(info.height), over \(LottieAnimation.maximumImagePixels) pixels")
        }
    }
}
