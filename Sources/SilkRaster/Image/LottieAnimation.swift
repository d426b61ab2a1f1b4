import CRlottie
import Foundation
import SilkGeometry
import SilkSystem

/// A Lottie (Bodymovin JSON) animation, rendered with rlottie at whatever pixel size it is
/// drawn (vectors: sharp at any size and scale).
///
/// rlottie 0.1 trusts its input: a deeply nested document overflows the stack, a repeater of
/// 10⁸ copies, a dash pattern of 10⁻⁴ or a shape magnified 10¹³ times runs for minutes and takes gigabytes, and an image asset
/// with a path is read from disk. So Silk checks the document **before** rlottie sees it:
/// - files over ``maximumBytes`` are refused unread;
/// - JSON nesting deeper than ``maximumNesting`` is refused by a byte scan (no recursion), then
///   the document must parse as JSON (Foundation) into an object with `w`, `h` (1 …
///   ``maximumDimension``), `fr` (above 0, at most ``maximumFrameRate``), `ip` < `op` and at most
///   ``maximumFrameCount`` frames;
/// - every number is finite and at most ``maximumMagnitude`` in size;
/// - repeaters: copies (static or keyframed) multiplied along nesting at most
///   ``maximumRepeaterCopies``; dashes and gaps at least ``minimumDashLength`` each;
/// - what a frame costs: transforms (with parents, precompositions, groups and repeater copies
///   compounding) magnify a shape at most ``maximumMagnification`` times, a frame has at most
///   ``maximumShapePoints`` path points and about ``maximumDashes`` dashes;
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
    /// Most a shape may be magnified by the transforms above it (layers, parents,
    /// precompositions, groups, repeater copies compounding): beyond this rlottie's fixed-point
    /// rasterizer overflows and runs without end.
    public static let maximumMagnification = 10_000.0
    /// Most path points one frame may have with repeaters and precompositions expanded
    /// (a rectangle is 8, a star 2 per point, a path 3 per vertex).
    public static let maximumShapePoints = 500_000.0
    /// Most dashes one frame may have: each dashed stroke's path length over its shortest dash
    /// or gap, times its copies and how unevenly it is scaled.
    public static let maximumDashes = 20_000.0
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
///
/// Besides counts and magnitudes, the walk estimates what a frame costs rlottie, because each
/// bound alone still lets a product through: a 40-point rectangle repeated five times at 900 %
/// scale per copy is 10¹³ pixels wide (rlottie's 26.6 fixed-point rasterizer then runs without
/// end), and a 100-point square dashed every half point in 1,000 copies is 400,000 dashes per
/// frame (seconds each). So every layer and shape group carries the transform context it is
/// drawn in: how much it is magnified at most (the product of the largest scale of every
/// transform above it, repeaters' per-copy scale compounded over their copies, skew included)
/// and how unevenly (the product of each transform's largest axis ratio: rlottie scales a dash
/// by the matrix's mean scale, so a stretched path gets more dashes than its length says).
struct LottieCheck {
    struct Failure: Error { let reason: String }
    let root: [String: Any]

    /// How a layer or shape is drawn relative to the composition.
    struct Context {
        var magnification = 1.0
        var anisotropy = 1.0
        var copies = 1.0
        func concatenating(_ t: (magnification: Double, anisotropy: Double)) -> Context {
            Context(magnification: magnification * t.magnification, anisotropy: anisotropy * t.anisotropy, copies: copies)
        }
    }

    /// What a subtree costs per frame, relative to the context it was measured in.
    struct Cost {
        var layers = 0.0
        var points = 0.0
        var dashes = 0.0
        var magnification = 1.0
        /// Length of the paths of a shape list, in the list's coordinates.
        var length = 0.0
        mutating func add(_ other: Cost, anisotropy: Double = 1, magnification m: Double = 1) {
            layers += other.layers
            points += other.points
            dashes += Cost.stretched(other.dashes, by: anisotropy)
            magnification = max(magnification, other.magnification * m)
        }
        /// Dashes under an anisotropy; no dashes stay none even under an unbounded one.
        static func stretched(_ dashes: Double, by anisotropy: Double) -> Double {
            dashes == 0 ? 0 : dashes * anisotropy
        }
    }

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
        // Each precomposition is measured once in its own frame (identity context), then scaled
        // into every place it is used; a cycle is an error.
        var memo: [String: Cost] = [:]
        var visiting: Set<String> = []
        func measure(_ layers: [Any]) throws(Failure) -> Cost {
            var cost = Cost()
            var byIndex: [Int: [String: Any]] = [:]
            for case let layer as [String: Any] in layers {
                if let ind = (layer["ind"] as? NSNumber)?.intValue { byIndex[ind] = layer }
            }
            for case let layer as [String: Any] in layers {
                cost.layers += 1
                let context = Context().concatenating(chainTransform(of: layer, in: byIndex))
                let shapes = try measureShapes(layer["shapes"] as? [Any] ?? [], context: context)
                cost.add(shapes)
                guard let ref = layer["refId"] as? String, let inner = precomps[ref] else { continue }
                let innerCost: Cost
                if let m = memo[ref] { innerCost = m } else {
                    guard !visiting.contains(ref) else { throw Failure(reason: "Lottie precomposition '\(ref)' contains itself") }
                    visiting.insert(ref)
                    innerCost = try measure(inner)
                    visiting.remove(ref)
                    memo[ref] = innerCost
                }
                cost.add(innerCost, anisotropy: context.anisotropy, magnification: context.magnification)
                if cost.layers > Double(LottieAnimation.maximumLayers) { break }
            }
            return cost
        }
        let total = try measure(root["layers"] as? [Any] ?? [])
        guard total.layers <= Double(LottieAnimation.maximumLayers) else {
            throw Failure(reason: "Lottie animation has more than \(LottieAnimation.maximumLayers) layers with its precompositions expanded")
        }
        guard total.magnification <= LottieAnimation.maximumMagnification else {
            throw Failure(reason: "Lottie transforms magnify a shape \(Self.format(total.magnification))×, over \(Self.format(LottieAnimation.maximumMagnification))×")
        }
        guard total.points <= LottieAnimation.maximumShapePoints else {
            throw Failure(reason: "Lottie frame has about \(Self.format(total.points)) path points with repeaters and precompositions expanded, over \(Self.format(LottieAnimation.maximumShapePoints))")
        }
        guard total.dashes.isFinite else {
            throw Failure(reason: "Lottie dashed stroke is scaled to 0 along one axis only, which makes its dashes unbounded")
        }
        guard total.dashes <= LottieAnimation.maximumDashes else {
            throw Failure(reason: "Lottie frame has about \(Self.format(total.dashes)) dashes, over \(Self.format(LottieAnimation.maximumDashes))")
        }
    }

    private static func format(_ v: Double) -> String {
        v < 1e6 ? String(Int(v.rounded())) : String(format: "%.1e", v)
    }

    /// A layer's transform composed with its parents' (`parent` names another layer's `ind`
    /// in the same list; a parent cycle is cut where it closes, as rlottie does).
    private func chainTransform(of layer: [String: Any], in byIndex: [Int: [String: Any]]) -> (magnification: Double, anisotropy: Double) {
        var m = 1.0, a = 1.0
        var current: [String: Any]? = layer
        var seen: Set<Int> = []
        while let l = current {
            let t = transformFactors(l["ks"])
            m *= t.magnification; a *= t.anisotropy
            guard let parent = (l["parent"] as? NSNumber)?.intValue, seen.insert(parent).inserted else { break }
            current = byIndex[parent]
        }
        return (m, a)
    }

    /// How much one transform object (`ks`, a group's `tr`) magnifies at most, and its largest
    /// axis ratio, over all its keyframes. Scale is in percent; skew `sk` in degrees stretches
    /// by up to 1 + |tan sk|. A keyframe with both axes 0 draws nothing, so it adds no ratio; one
    /// axis 0 and the other not is an unbounded ratio.
    private func transformFactors(_ transform: Any?) -> (magnification: Double, anisotropy: Double) {
        guard let t = transform as? [String: Any] else { return (1, 1) }
        var magnification = 0.0, anisotropy = 1.0
        let scales = vectors(of: t["s"])
        for s in scales {
            let x = abs(s.first ?? 100) / 100, y = abs(s.count > 1 ? s[1] : 100) / 100
            magnification = max(magnification, x, y)
            let low = min(x, y), high = max(x, y)
            if high > 0 { anisotropy = max(anisotropy, low > 0 ? high / low : .infinity) }
        }
        if scales.isEmpty { magnification = 1 }
        if let skew = values(of: t["sk"]).map({ abs($0) }).max(), skew > 0 {
            let stretch = 1 + abs(tan(skew.truncatingRemainder(dividingBy: 180) * .pi / 180))
            magnification *= stretch; anisotropy *= stretch * stretch
        }
        return (magnification, anisotropy)
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
        vectors(of: property).flatMap { $0 }
    }

    /// Each value an animatable property takes, as a vector: the static value, or every
    /// keyframe's start and end.
    private func vectors(of property: Any?) -> [[Double]] {
        guard let p = property as? [String: Any], let k = p["k"] else { return [] }
        func numbers(_ v: Any) -> [Double]? {
            if let n = v as? NSNumber { return [n.doubleValue] }
            if let a = v as? [Any], a.allSatisfy({ $0 is NSNumber }) { return a.map { ($0 as! NSNumber).doubleValue } }
            return nil
        }
        if let v = numbers(k) { return [v] }
        var result: [[Double]] = []
        for case let kf as [String: Any] in k as? [Any] ?? [] {
            for v in [kf["s"], kf["e"]].compactMap({ $0 }) { if let n = numbers(v) { result.append(n) } }
        }
        return result
    }

    /// Each shape a path property (`sh`'s `ks`) takes: static `{"k": {"v": …}}` or keyframes
    /// whose `s` holds one.
    private func pathShapes(_ property: Any?) -> [[String: Any]] {
        guard let p = property as? [String: Any], let k = p["k"] else { return [] }
        if let shape = k as? [String: Any] { return [shape] }
        var result: [[String: Any]] = []
        for case let kf as [String: Any] in k as? [Any] ?? [] {
            for v in [kf["s"], kf["e"]] {
                if let s = v as? [String: Any] { result.append(s) }
                if let a = v as? [Any] { result += a.compactMap { $0 as? [String: Any] } }
            }
        }
        return result
    }

    /// Points and a length bound of one path shape (`rc`, `el`, `sr`, `sh`) in its own
    /// coordinates: the perimeter of a rectangle or ellipse's box, a star's edges at their
    /// longest, a Bézier path's control polygon (never shorter than the curve).
    private func pathMeasure(_ shape: [String: Any], type: String) -> (points: Double, length: Double) {
        func largest(_ key: String) -> Double { values(of: shape[key]).map { abs($0) }.max() ?? 0 }
        switch type {
        case "rc", "el":
            return (type == "rc" ? 8 : 4, 4 * largest("s"))
        case "sr":
            let points = largest("pt")  // at most maximumMagnitude, by checkNumbers
            return (2 * points, 2 * points * (largest("or") + largest("ir")))
        case "sh":
            var points = 0.0, length = 0.0
            for s in pathShapes(shape["ks"]) {
                let v = (s["v"] as? [Any] ?? []).map(point), i = (s["i"] as? [Any] ?? []).map(point), o = (s["o"] as? [Any] ?? []).map(point)
                points = max(points, Double(v.count) * 3)
                var l = 0.0
                for n in v.indices {
                    let next = v[(n + 1) % v.count]
                    l += hypot(next.0 - v[n].0, next.1 - v[n].1)
                    if n < o.count { l += 2 * hypot(o[n].0, o[n].1) }
                    if n < i.count { l += 2 * hypot(i[n].0, i[n].1) }
                }
                length = max(length, l)
            }
            return (points, length)
        default:
            return (0, 0)
        }
    }

    private func point(_ value: Any) -> (Double, Double) {
        guard let a = value as? [Any], a.count >= 2, let x = a[0] as? NSNumber, let y = a[1] as? NSNumber else { return (0, 0) }
        return (x.doubleValue, y.doubleValue)
    }

    /// One shape list (a layer's `shapes` or a group's `it`): repeater copies multiplied down
    /// nested groups, points per frame, the dashes of every dashed stroke over the paths it
    /// strokes (all the list's paths and its groups' paths, in the list's coordinates), and how
    /// much the list's own transforms magnify.
    private func measureShapes(_ shapes: [Any], context outer: Context) throws(Failure) -> Cost {
        var context = outer
        var cost = Cost()
        cost.magnification = outer.magnification
        for case let shape as [String: Any] in shapes {
            switch shape["ty"] as? String {
            case "rp":
                let copies = max(1, largestValue(shape["c"]) ?? 1)
                context.copies *= copies
                // Each copy applies the repeater's transform once more: the last is magnified
                // by its scale to the power copies − 1.
                let step = transformFactors(shape["tr"])
                let n = min(copies - 1, 4096)
                context.magnification *= pow(max(1, step.magnification), n)
                context.anisotropy *= pow(step.anisotropy, n)
            case "tr":
                context = context.concatenating(transformFactors(shape))
            default: break
            }
        }
        guard context.copies <= LottieAnimation.maximumRepeaterCopies else {
            throw Failure(reason: "Lottie repeaters make more than \(Int(LottieAnimation.maximumRepeaterCopies)) copies of a shape")
        }
        cost.magnification = max(cost.magnification, context.magnification)
        // Path length in this list's coordinates (nested groups scaled into them).
        var length = 0.0
        var strokes: [[String: Any]] = []
        for case let shape as [String: Any] in shapes {
            let type = shape["ty"] as? String ?? ""
            switch type {
            case "gr":
                let inner = try measureShapes(shape["it"] as? [Any] ?? [], context: Context(magnification: 1, anisotropy: 1, copies: context.copies))
                // The group was measured in its own frame: bring it into this one.
                cost.add(inner, anisotropy: context.anisotropy, magnification: context.magnification)
                length += inner.length * inner.magnification
            case "st", "gs":
                if shape["d"] is [Any] { strokes.append(shape) }
            default:
                let m = pathMeasure(shape, type: type)
                cost.points += m.points * context.copies
                length += m.length
            }
        }
        cost.length = length
        for stroke in strokes {
            var shortest = Double.infinity
            for case let dash as [String: Any] in stroke["d"] as? [Any] ?? [] where (dash["n"] as? String) != "o" {
                guard let v = smallestValue(dash["v"]) else {
                    throw Failure(reason: "Lottie dash entry '\(dash["n"] as? String ?? "?")' has no value")
                }
                shortest = min(shortest, v)
            }
            guard shortest.isFinite else { continue }
            guard shortest >= LottieAnimation.minimumDashLength else {
                throw Failure(reason: "Lottie dash or gap of \(shortest) is shorter than \(LottieAnimation.minimumDashLength)")
            }
            cost.dashes += Cost.stretched(length / shortest * context.copies, by: context.anisotropy)
        }
        return cost
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
