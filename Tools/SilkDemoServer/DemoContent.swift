import Foundation
import SilkGeometry
import SilkRaster
import SilkSystem

/// What the demo server serves: a deterministic feed of photo posts and the images it links,
/// generated (no files, no network). The same post ID always gives the same post and photo.
///
/// `/feed?page=N&count=M` answers
/// ```json
/// {"page":0,"count":2,"total":10000,"hasMore":true,"posts":[
///   {"id":0,"author":{"id":3,"name":"Ada Park","avatarURL":"http://127.0.0.1:PORT/avatar/3.png"},
///    "time":1735682400,"caption":"…","photoURL":"http://…/photo/0.jpg?w=600&h=400",
///    "photoWidth":600,"photoHeight":400,"progressive":true,"likes":120,"comments":4}, …]}
/// ```
public final class DemoContent: @unchecked Sendable {
    /// Posts in the whole feed.
    public let feedLength: Int
    private let lock = Lock()
    private var _baseURL = "http://127.0.0.1"
    private var photoCache: [String: Data] = [:]
    private var photoCacheOrder: [String] = []

    public init(feedLength: Int = 10_000) {
        self.feedLength = max(0, feedLength)
    }
    private func locked<R>(_ body: () -> R) -> R { lock.withLock(body) }

    /// Prefix of the URLs in the feed (set by the server once it knows its port).
    public var baseURL: String {
        get { locked { _baseURL } }
        set { locked { _baseURL = newValue } }
    }

    public func respond(to request: DemoRequest) -> DemoResponse {
        let path = request.path
        if path == "/health" { return DemoResponse(status: 200, contentType: "text/plain", body: Data("ok\n".utf8)) }
        if path == "/feed" {
            return feed(page: request.int("page") ?? 0, count: request.int("count") ?? 20, overfill: request.int("overfill"))
        }
        if request.query["garbage"] != nil {
            var rng = SplitMix64(seed: UInt64(path.utf8.count) &* 7919)
            return DemoResponse(status: 200, contentType: "image/jpeg", body: Data((0..<4096).map { _ in UInt8(truncatingIfNeeded: rng.next()) }))
        }
        if path.hasPrefix("/photo/"), path.hasSuffix(".jpg"), let id = Int(path.dropFirst(7).dropLast(4)), 0...DemoContent.maximumID ~= id {
            let w = min(2048, max(16, request.int("w") ?? 600)), h = min(2048, max(16, request.int("h") ?? 400))
            let progressive = request.int("progressive").map { $0 != 0 } ?? (id % 2 == 0)
            guard var data = photo(id: id, width: w, height: h, progressive: progressive) else {
                return DemoResponse(status: 500, contentType: "text/plain", body: Data("could not render\n".utf8))
            }
            if request.query["huge"] != nil { DemoContent.claimHugeSize(&data) }
            return DemoResponse(status: 200, contentType: "image/jpeg", body: data)
        }
        if path.hasPrefix("/animated/"), path.hasSuffix(".gif"), let id = Int(path.dropFirst(10).dropLast(4)), 0...DemoContent.maximumID ~= id {
            let w = min(640, max(8, request.int("w") ?? 160)), h = min(480, max(8, request.int("h") ?? 90))
            let frames = min(500, max(1, request.int("frames") ?? 12)), delay = min(1000, max(0, request.int("delay") ?? 8))
            // Made once per variant and kept with the photos (64 most recent).
            let key = "gif-\(id)-\(w)x\(h)-\(frames)-\(delay)"
            if let hit = locked({ photoCache[key] }) { return DemoResponse(status: 200, contentType: "image/gif", body: hit) }
            let data = DemoGIF.make(id: id, width: w, height: h, frames: frames, delayCentiseconds: delay, loop: 0)
            locked {
                photoCache[key] = data
                photoCacheOrder.append(key)
                if photoCacheOrder.count > 64 { photoCache.removeValue(forKey: photoCacheOrder.removeFirst()) }
            }
            return DemoResponse(status: 200, contentType: "image/gif", body: data)
        }
        if path.hasPrefix("/avatar/"), path.hasSuffix(".png"), let id = Int(path.dropFirst(8).dropLast(4)), 0...DemoContent.maximumID ~= id,
           let data = avatar(id: id) {
            return DemoResponse(status: 200, contentType: "image/png", body: data)
        }
        return DemoResponse(status: 404, contentType: "text/plain", body: Data("not found: \(path)\n".utf8))
    }

    /// The largest photo or avatar ID served (larger ones are 404): IDs come from the URL, and
    /// the generators do arithmetic on them (`/avatar/9223372036854775807.png` used to trap).
    public static let maximumID = Int(Int32.max)

    // MARK: Feed

    struct Author: Encodable { let id: Int; let name: String; let avatarURL: String }
    struct Post: Encodable {
        let id: Int; let author: Author; let time: Int; let caption: String
        let photoURL: String; let photoWidth: Int; let photoHeight: Int; let progressive: Bool
        let likes: Int; let comments: Int
    }
    struct Page: Encodable { let page: Int; let count: Int; let total: Int; let hasMore: Bool; let posts: [Post] }

    static let firstNames = ["Ada", "Grace", "Linus", "Margaret", "Ken", "Barbara", "Dennis", "Frances", "Alan", "Hedy",
                             "Edsger", "Radia", "Donald", "Karen", "Niklaus", "Sophie", "Bjarne", "Anita", "Tim", "Joan"]
    static let lastNames = ["Park", "Okafor", "Lindqvist", "Moreau", "Tanaka", "Silva", "Novak", "Haddad", "Kowalski", "Reyes",
                            "Nakamura", "Fischer", "Mensah", "Rossi", "Chen", "Dubois", "Ivanova", "Larsen", "Costa", "Singh"]
    static let captions = ["Morning light over the ridge", "Found this on the way home", "Quiet lake, loud colours",
                           "The hills never get old", "Sunset from the top floor", "Evening walk with a view",
                           "Colours like this are why I carry a camera", "Low clouds, high spirits"]

    func post(id: Int) -> Post {
        var rng = SplitMix64(seed: UInt64(id) &* 0x9E37_79B9 &+ 17)
        let authorID = Int(rng.next() % 40)
        var nameRNG = SplitMix64(seed: UInt64(authorID) &+ 1000)
        let name = DemoContent.firstNames[Int(nameRNG.next() % 20)] + " " + DemoContent.lastNames[Int(nameRNG.next() % 20)]
        let shapes = [(600, 400), (600, 600), (600, 450), (480, 600)]
        let (w, h) = shapes[Int(rng.next() % UInt64(shapes.count))]
        let base = baseURL
        return Post(id: id, author: Author(id: authorID, name: name, avatarURL: "\(base)/avatar/\(authorID).png"),
                    time: 1_735_682_400 - id * 937 - Int(rng.next() % 600),
                    caption: DemoContent.captions[Int(rng.next() % UInt64(DemoContent.captions.count))],
                    photoURL: "\(base)/photo/\(id).jpg?w=\(w)&h=\(h)", photoWidth: w, photoHeight: h,
                    progressive: id % 2 == 0, likes: Int(rng.next() % 2000), comments: Int(rng.next() % 120))
    }

    /// `overfill` (a fault option) puts that many posts on the page (at most 100,000) whatever
    /// `count` asked for: a client must keep only what it asked for.
    func feed(page: Int, count: Int, overfill: Int? = nil) -> DemoResponse {
        let count = overfill.map { min(100_000, max(1, $0)) } ?? min(100, max(1, count)), page = max(0, page)
        // page × count comes from the URL: where it or the end of the page overflows
        // (`page=461168601842738790`: 20 × that fits, + 20 did not) the answer is a 400.
        let (start, overflow) = page.multipliedReportingOverflow(by: count)
        guard !overflow, !start.addingReportingOverflow(count).overflow else {
            return DemoResponse(status: 400, contentType: "text/plain", body: Data("bad request: page \(page) is out of range\n".utf8))
        }
        let ids = start < feedLength ? Array(start..<(start + min(count, feedLength - start))) : []
        let body = Page(page: page, count: ids.count, total: feedLength, hasMore: start < feedLength - count,
                        posts: ids.map(post(id:)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(body)) ?? Data("{}".utf8)
        return DemoResponse(status: 200, contentType: "application/json", body: data)
    }

    // MARK: Images

    /// A generated landscape: a sky gradient, a sun, three ridges of hills and a lake, in one
    /// of eight palettes, as JPEG (progressive when asked). Rendered once per size and kept
    /// (64 most recent).
    public func photo(id: Int, width: Int, height: Int, progressive: Bool) -> Data? {
        let key = "\(id)-\(width)x\(height)-\(progressive)"
        if let hit = locked({ photoCache[key] }) { return hit }
        guard let bitmap = try? DemoContent.renderPhoto(id: id, width: width, height: height),
              let data = try? bitmap.jpegData(quality: 82, progressive: progressive) else { return nil }
        locked {
            photoCache[key] = data
            photoCacheOrder.append(key)
            if photoCacheOrder.count > 64 { photoCache.removeValue(forKey: photoCacheOrder.removeFirst()) }
        }
        return data
    }

    static func renderPhoto(id: Int, width: Int, height: Int) throws -> Bitmap {
        let bitmap = try Bitmap(width: width, height: height)
        let c = Canvas(bitmap: bitmap)
        var rng = SplitMix64(seed: UInt64(id) &+ 0xC0FFEE)
        // Neighbouring posts get well-separated hues (the golden angle), with a little noise.
        let hue = (Double(id) * 0.381966 + Double(rng.next() % 40) / 360).truncatingRemainder(dividingBy: 1)
        let w = Double(width), h = Double(height)
        let horizon = h * (0.45 + Double(rng.next() % 20) / 100)
        let skyTop = Color(hue: hue, saturation: 0.55, brightness: 0.55)
        let skyLow = Color(hue: (hue + 0.08).truncatingRemainder(dividingBy: 1), saturation: 0.45, brightness: 0.98)
        c.fill(Rect(x: 0, y: 0, width: w, height: h), with: .linearGradient(LinearGradient(
            start: Point(x: 0, y: 0), end: Point(x: 0, y: horizon), stops: [GradientStop(0, skyTop), GradientStop(1, skyLow)])))
        // The sun, with a glow.
        let sun = Point(x: w * (0.2 + Double(rng.next() % 60) / 100), y: horizon * (0.35 + Double(rng.next() % 40) / 100))
        let r = min(w, h) * 0.09
        c.fill(Rect(x: sun.x - r * 3, y: sun.y - r * 3, width: r * 6, height: r * 6), with: .radialGradient(RadialGradient(
            center: sun, radius: r * 3, stops: [GradientStop(0, Color(red: 1, green: 0.95, blue: 0.8, alpha: 0.9)),
                                                 GradientStop(0.33, Color(red: 1, green: 0.9, blue: 0.6, alpha: 0.35)),
                                                 GradientStop(1, .clear)])))
        c.fillEllipse(in: Rect(x: sun.x - r, y: sun.y - r, width: 2 * r, height: 2 * r), with: .color(Color(red: 1, green: 0.97, blue: 0.88)))
        // Three ridges, further ones paler.
        for layer in 0..<3 {
            let t = Double(layer) / 2
            let base = horizon + h * 0.06 * Double(layer)
            var points = [Point(x: 0, y: h)]
            let steps = 7 + Int(rng.next() % 5)
            for s in 0...steps {
                let x = w * Double(s) / Double(steps)
                let peak = h * (0.08 + Double(rng.next() % 100) / 100 * (0.22 - 0.05 * Double(layer)))
                points.append(Point(x: x, y: base - peak))
            }
            points.append(Point(x: w, y: h))
            let ridge = Color(hue: (hue + 0.35 + 0.05 * t).truncatingRemainder(dividingBy: 1),
                              saturation: 0.35 + 0.2 * t, brightness: 0.62 - 0.22 * t)
            c.fillPolygon(points, with: .color(ridge))
        }
        // A lake reflecting the sky.
        let lakeTop = h * 0.82
        c.fill(Rect(x: 0, y: lakeTop, width: w, height: h - lakeTop), with: .linearGradient(LinearGradient(
            start: Point(x: 0, y: lakeTop), end: Point(x: 0, y: h),
            stops: [GradientStop(0, skyLow.withAlpha(0.9)), GradientStop(1, skyTop.withAlpha(0.95))])))
        for i in 0..<4 {
            let y = lakeTop + (h - lakeTop) * (0.2 + 0.18 * Double(i))
            c.fill(Rect(x: w * 0.1 + Double(i) * w * 0.05, y: y, width: w * 0.35, height: max(1, h * 0.004)),
                   with: .color(Color(white: 1, alpha: 0.35)))
        }
        let label = TextLayout(text: AttributedText("#\(id)", attributes: TextAttributes(fontSize: max(10, h * 0.035), fontWeight: .bold,
                                                                                           color: Color(white: 1, alpha: 0.8))),
                               constrainedTo: Size(width: w, height: h))
        c.draw(label, at: Point(x: w - label.size.width - w * 0.03, y: h - label.size.height - h * 0.03))
        return bitmap
    }

    /// A 96 × 96 avatar: a colour disc-friendly square with the author's initials (the client
    /// rounds it).
    public func avatar(id: Int) -> Data? {
        var nameRNG = SplitMix64(seed: UInt64(id) &+ 1000)
        let first = DemoContent.firstNames[Int(nameRNG.next() % 20)], last = DemoContent.lastNames[Int(nameRNG.next() % 20)]
        guard let bitmap = try? Bitmap(width: 96, height: 96) else { return nil }
        let c = Canvas(bitmap: bitmap)
        let hue = Double((id % 360) * 47 % 360) / 360
        c.fill(bitmap.bounds, with: .linearGradient(LinearGradient(
            start: Point(x: 0, y: 0), end: Point(x: 96, y: 96),
            stops: [GradientStop(0, Color(hue: hue, saturation: 0.5, brightness: 0.9)),
                    GradientStop(1, Color(hue: hue, saturation: 0.7, brightness: 0.6))])))
        let initials = String(first.prefix(1)) + String(last.prefix(1))
        let text = TextLayout(text: AttributedText(initials, attributes: TextAttributes(fontSize: 38, fontWeight: .bold, color: .white)),
                              constrainedTo: Size(width: 96, height: 96))
        c.draw(text, at: Point(x: (96 - text.size.width) / 2, y: (96 - text.size.height) / 2))
        return try? bitmap.pngData()
    }

    /// Rewrites the frame header (SOF0/SOF2) of a JPEG to claim 30000 × 30000 pixels: a real
    /// file whose header asks for a 3.6 GB decode.
    static func claimHugeSize(_ data: inout Data) {
        var i = 2
        while i + 8 < data.count, data[i] == 0xFF {
            let marker = data[i + 1]
            let length = Int(data[i + 2]) << 8 | Int(data[i + 3])
            if marker == 0xC0 || marker == 0xC2 {
                data[i + 5] = 0x75; data[i + 6] = 0x30  // height 30000
                data[i + 7] = 0x75; data[i + 8] = 0x30  // width 30000
                return
            }
            i += 2 + length
        }
    }
}

extension Color {
    /// HSB (all 0…1) to sRGB.
    init(hue: Double, saturation s: Double, brightness v: Double, alpha: Double = 1) {
        let h = (hue - hue.rounded(.down)) * 6
        let i = Int(h) % 6, f = h - Double(Int(h))
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        let (r, g, b): (Double, Double, Double) = switch i {
        case 0: (v, t, p)
        case 1: (q, v, p)
        case 2: (p, v, t)
        case 3: (p, q, v)
        case 4: (t, p, v)
        default: (v, p, q)
        }
        self.init(red: r, green: g, blue: b, alpha: alpha)
    }
}
