import Foundation
import Testing
import SilkGeometry
import SilkRaster
import SilkSystem
import SilkTestSupport

/// Lottie through rlottie: the spinner asset's frames (a golden of frame 0 and frame 30, frames
/// that differ), and hostile documents — each ends in one `RasterError` naming the file before
/// rlottie sees it (rlottie 0.1 overflows its stack on deep nesting and runs for minutes on a
/// repeater or dash bomb: see `LottieAnimation`).
@Suite struct LottieTests {
    let dir = Golden.directory()

    static func spinnerPath() throws -> String {
        try #require(Assets.directory).appendingPathComponent("lottie/spinner.json").path
    }

    @Test func spinnerReadsItsHeaderAndRendersFramesThatMove() throws {
        let lottie = try LottieAnimation(contentsOf: try Self.spinnerPath())
        #expect(lottie.size == Size(width: 120, height: 120))
        #expect(lottie.frameRate == 30 && lottie.frameCount == 60 && lottie.duration == 2)
        let b = try Bitmap(width: 200, height: 100)
        let c = Canvas(bitmap: b)
        c.clear(.white)
        try lottie.draw(frame: 0, in: c, rect: Rect(x: 0, y: 0, width: 100, height: 100))
        try lottie.draw(frame: 30, in: c, rect: Rect(x: 100, y: 0, width: 100, height: 100))
        try Golden.verify(b, named: "lottie-spinner-frames-0-30", in: dir)
        // The centre dot is orange at frame 0 and redder at frame 30; frames differ.
        let f0 = try lottie.render(frame: 0, width: 60, height: 60)
        let f15 = try lottie.render(frame: 15, width: 60, height: 60)
        #expect(f0.argb32(x: 30, y: 30) >> 24 == 255)
        #expect(f0.argb32(x: 0, y: 0) == 0)
        var differing = 0
        for y in 0..<60 { for x in 0..<60 where f0.argb32(x: x, y: y) != f15.argb32(x: x, y: y) { differing += 1 } }
        #expect(differing > 100, "frames 0 and 15 differ in \(differing) pixels")
    }

    @Test func rendersAtTheRequestedPixelSizeAndFitsTheAspect() throws {
        let lottie = try LottieAnimation(contentsOf: try Self.spinnerPath())
        let wide = try lottie.render(frame: 0, width: 240, height: 60, contentMode: .aspectFit)
        // Fitted: a 60×60 square in the middle; the sides stay clear.
        #expect(wide.argb32(x: 120, y: 30) >> 24 == 255)
        #expect(wide.argb32(x: 20, y: 30) == 0 && wide.argb32(x: 220, y: 30) == 0)
        // Frame numbers out of range are clamped, not handed to rlottie.
        _ = try lottie.render(frame: -5, width: 10, height: 10)
        _ = try lottie.render(frame: 1_000_000, width: 10, height: 10)
    }

    @Test func concurrentRendersMatchASingleThreadedRender() throws {
        // Display queues render different nodes' animations at the same time: rlottie's shared
        // rasterizer must give each the pixels a lone render gives.
        let lottie = try LottieAnimation(contentsOf: try Self.spinnerPath())
        let expected = try (0..<8).map { try lottie.render(frame: $0 * 7, width: 90, height: 90).pngData() }
        let results = Locked([Data?](repeating: nil, count: 64))
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            let png = try? lottie.render(frame: (i % 8) * 7, width: 90, height: 90).pngData()
            results.withLock { $0[i] = png }
        }
        for (i, png) in results.current.enumerated() { #expect(png == expected[i % 8], "render \(i)") }
    }

    // MARK: Hostile documents

    static let ks = #""ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":0,"k":[50,50]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]}}"#
    static let rect = #"{"ty":"rc","p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[40,40]},"r":{"a":0,"k":4}}"#
    static let fill = #"{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}"#

    static func document(w: String = "100", h: String = "100", fr: String = "30", ip: String = "0", op: String = "60",
                         assets: String = "[]", layers: String? = nil) -> String {
        let layers = layers ?? "[" + layer(shapes: rect + "," + fill) + "]"
        return #"{"v":"5.7.4","fr":\#(fr),"ip":\#(ip),"op":\#(op),"w":\#(w),"h":\#(h),"assets":\#(assets),"layers":\#(layers)}"#
    }

    static func layer(shapes: String, extra: String = #""ty":4"#) -> String {
        #"{\#(extra),"ind":1,"ip":0,"op":60,"st":0,\#(ks),"shapes":[\#(shapes)]}"#
    }

    func withFile(_ text: String, _ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("silk-lottie-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("bad.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try body(path)
    }

    func expectError(_ text: String, containing fragment: String, _ comment: Comment? = nil) throws {
        try withFile(text) { path in
            do {
                let lottie = try LottieAnimation(contentsOf: path)
                _ = try lottie.render(width: 64, height: 64)
                Issue.record("no error: \(comment ?? "")")
            } catch let error as RasterError {
                #expect(error.description.contains(path), "\(error)")
                #expect(error.description.contains(fragment), "\(comment ?? ""): \(error)")
            }
        }
    }

    @Test func theMinimalDocumentOfTheseTestsIsAccepted() throws {
        // The hostile cases below differ from this one in one field each.
        try withFile(Self.document()) { path in
            let b = try LottieAnimation(contentsOf: path).render(width: 100, height: 100)
            #expect(b.argb32(x: 50, y: 50) == 0xFFFF_0000)
        }
    }

    @Test func corruptTruncatedAndNonLottieJSONFailNamingTheFile() throws {
        let good = Self.document()
        try expectError(String(good.prefix(good.count / 2)), containing: "invalid Lottie JSON", "truncated")
        try expectError("{ not json", containing: "invalid Lottie JSON")
        try expectError("[1, 2, 3]", containing: "not a Lottie animation")
        try expectError(#"{"hello": "world"}"#, containing: "size (w, h)")
        try expectError(Self.document(layers: #""none""#), containing: "no layers")
        // Valid for Silk's checks, refused by rlottie (a layer of an unknown type is fine, but a
        // negative in-point after out-point is not).
        try expectError(Self.document(ip: "100", op: "10"), containing: "frames (ip, op)")
    }

    @Test func absurdSizesFrameRatesAndFrameCountsAreRefused() throws {
        try expectError(Self.document(w: "1000000", h: "1000000"), containing: "size (w, h)")
        try expectError(Self.document(w: "0"), containing: "size (w, h)")
        try expectError(Self.document(w: "-5"), containing: "size (w, h)")
        try expectError(Self.document(fr: "0"), containing: "frame rate")
        try expectError(Self.document(fr: "-30"), containing: "frame rate")
        try expectError(Self.document(fr: "1000000"), containing: "frame rate")
        try expectError(Self.document(fr: "1e400"), containing: "Lottie")  // JSON's infinity
        try expectError(Self.document(op: "1e15"), containing: "frames (ip, op)")
        try expectError(Self.document(op: "0"), containing: "frames (ip, op)")
    }

    @Test func deepNestingIsRefusedBeforeRlottieRecursesIntoIt() throws {
        // 100,000 nested groups overflow rlottie's stack (measured: SIGSEGV); refused by the scan.
        let inner = String(repeating: #"{"ty":"gr","it":["#, count: 100_000) + Self.rect + String(repeating: "]}", count: 100_000)
        try expectError(Self.document(layers: "[" + Self.layer(shapes: inner) + "]"), containing: "nested")
        // Brackets inside strings do not count.
        let text = Self.document(assets: #"[{"id":"x","nm":"\#(String(repeating: "[{", count: 500))"}]"#)
        try withFile(text) { path in _ = try LottieAnimation(contentsOf: path) }
    }

    @Test func repeaterAndDashBombsAreRefused() throws {
        let repeater = #"{"ty":"rp","c":{"a":0,"k":5000},"o":{"a":0,"k":0},"tr":{"ty":"tr","p":{"a":0,"k":[1,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"so":{"a":0,"k":100},"eo":{"a":0,"k":100}}}"#
        try expectError(Self.document(layers: "[" + Self.layer(shapes: Self.rect + "," + Self.fill + "," + repeater) + "]"),
                        containing: "repeaters")
        // Nested repeaters multiply: 40 × 40 copies.
        let r40 = repeater.replacingOccurrences(of: "5000", with: "40")
        let nested = #"{"ty":"gr","it":[\#(Self.rect),\#(Self.fill),\#(r40)]},\#(r40)"#
        try expectError(Self.document(layers: "[" + Self.layer(shapes: nested) + "]"), containing: "repeaters")
        let dash = #"{"ty":"st","c":{"a":0,"k":[0,0,1,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":2},"lc":1,"lj":1,"d":[{"n":"d","v":{"a":0,"k":0.0001}},{"n":"g","v":{"a":0,"k":0.0001}},{"n":"o","v":{"a":0,"k":0}}]}"#
        try expectError(Self.document(layers: "[" + Self.layer(shapes: Self.rect + "," + dash) + "]"), containing: "dash")
        try expectError(Self.document(layers: "[" + Self.layer(shapes: Self.rect.replacingOccurrences(of: "[40,40]", with: "[4e9,4e9]")) + "]"),
                        containing: "beyond")
    }

    /// Each bound of the check alone lets a product through; these run for minutes in rlottie
    /// 0.1 (measured with the fuzzer, which found the first: > 20 s for one frame) and are refused.
    @Test func magnificationAndDashCostBombsAreRefused() throws {
        func repeater(copies: Int, scale: String) -> String {
            #"{"ty":"rp","c":{"a":0,"k":\#(copies)},"o":{"a":0,"k":0},"tr":{"ty":"tr","p":{"a":0,"k":[8,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":\#(scale)},"r":{"a":0,"k":10},"so":{"a":0,"k":100},"eo":{"a":0,"k":50}}}"#
        }
        func grouped(_ items: String) -> String { "[" + Self.layer(shapes: #"{"ty":"gr","it":[\#(items)]}"#) + "]" }
        // Five copies stretched 902 % each along x: the last is 10¹¹ times as wide (the fuzzer's input).
        try expectError(Self.document(layers: grouped(Self.rect + "," + Self.fill + "," + repeater(copies: 5, scale: "[90190,100]"))),
                        containing: "magnify")
        // Three nested layer levels at 10,000 % each: 10⁶.
        func precomp(_ ref: String, scale: String) -> String {
            #"{"ty":0,"ind":1,"refId":"\#(ref)","ip":0,"op":60,"st":0,"w":100,"h":100,\#(Self.ks.replacingOccurrences(of: "[100,100]", with: scale))}"#
        }
        let scaled = Self.layer(shapes: Self.rect + "," + Self.fill).replacingOccurrences(of: "[100,100]", with: "[10000,10000]")
        try expectError(Self.document(assets: #"[{"id":"a","layers":[\#(scaled)]},{"id":"b","layers":[\#(precomp("a", scale: "[10000,10000]"))]}]"#,
                                      layers: "[" + precomp("b", scale: "[10000,10000]") + "]"),
                        containing: "magnify")
        // A square dashed every half point, in 1,000 copies: 800,000 dashes a frame.
        let dash = #"{"ty":"st","c":{"a":0,"k":[0,0,1,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":2},"lc":1,"lj":1,"d":[{"n":"d","v":{"a":0,"k":0.5}},{"n":"g","v":{"a":0,"k":0.5}}]}"#
        let square = Self.rect.replacingOccurrences(of: "[40,40]", with: "[100,100]")
        try expectError(Self.document(layers: grouped(square + "," + dash + "," + repeater(copies: 1000, scale: "[100,100]"))), containing: "dashes")
        // The same dashes on one copy are 800 and drawn.
        try withFile(Self.document(layers: grouped(square + "," + dash))) { path in _ = try LottieAnimation(contentsOf: path).render(width: 64, height: 64) }
        // Squashed flat along one axis, rlottie's dash scale no longer follows the path.
        let squashed = Self.document(layers: "[" + Self.layer(shapes: Self.rect + "," + dash).replacingOccurrences(of: "[100,100]", with: "[100,0]") + "]")
        try expectError(squashed, containing: "unbounded")
        // A dash entry without a value.
        try expectError(Self.document(layers: grouped(Self.rect + "," + dash.replacingOccurrences(of: #""n":"g","v""#, with: #""n":"g","V""#))),
                        containing: "has no value")
        // A star of 10⁶ points in 1,000 copies.
        let star = #"{"ty":"sr","sy":1,"pt":{"a":0,"k":1000},"p":{"a":0,"k":[0,0]},"r":{"a":0,"k":0},"or":{"a":0,"k":30},"os":{"a":0,"k":0},"ir":{"a":0,"k":15},"is":{"a":0,"k":0}}"#
        try expectError(Self.document(layers: grouped(star + "," + Self.fill + "," + repeater(copies: 1000, scale: "[100,100]"))), containing: "path points")
        // A zoom to 5,000 % and a pop-in from 0 are ordinary and drawn.
        let zoom = Self.document(layers: "[" + Self.layer(shapes: Self.rect + "," + Self.fill + "," + dash)
            .replacingOccurrences(of: #""s":{"a":0,"k":[100,100]}"#, with: #""s":{"a":1,"k":[{"t":0,"s":[0,0]},{"t":30,"s":[5000,5000]}]}"#) + "]")
        try withFile(zoom) { path in _ = try LottieAnimation(contentsOf: path).render(frame: 20, width: 64, height: 64) }
    }

    @Test func precompositionCyclesAndBombsAreRefused() throws {
        func precomp(_ ref: String) -> String {
            #"{"ty":0,"ind":1,"refId":"\#(ref)","ip":0,"op":60,"st":0,"w":100,"h":100,\#(Self.ks)}"#
        }
        try expectError(Self.document(assets: #"[{"id":"a","layers":[\#(precomp("a"))]}]"#, layers: "[" + precomp("a") + "]"),
                        containing: "contains itself")
        // Ten levels, each using the next ten times: 10¹⁰ layers from 100.
        var assets: [String] = []
        for level in 0..<10 {
            let uses = level == 9 ? Self.layer(shapes: Self.rect) : Array(repeating: precomp("p\(level + 1)"), count: 10).joined(separator: ",")
            assets.append(#"{"id":"p\#(level)","layers":[\#(uses)]}"#)
        }
        try expectError(Self.document(assets: "[" + assets.joined(separator: ",") + "]", layers: "[" + precomp("p0") + "]"),
                        containing: "layers with its precompositions")
    }

    @Test func imageAssetsMayOnlyBeEmbedded() throws {
        let image = #"{"ty":2,"ind":1,"refId":"i","ip":0,"op":60,"st":0,\#(Self.ks)}"#
        // rlottie would open "/etc/passwd" (seen with strace); Silk refuses the document.
        try expectError(Self.document(assets: #"[{"id":"i","w":10,"h":10,"u":"/etc/","p":"passwd","e":0}]"#, layers: "[" + image + "]"),
                        containing: "refers to a file")
        try expectError(Self.document(assets: #"[{"id":"i","w":10,"h":10,"u":"","p":"data:image/png;base64,AAAA","e":1}]"#,
                                      layers: "[" + image + "]"), containing: "not a readable embedded image")
        // A real embedded PNG is fine.
        let png = try Bitmap(width: 4, height: 4)
        png.fill(.blue)
        let encoded = try png.pngData().base64EncodedString()
        try withFile(Self.document(assets: #"[{"id":"i","w":4,"h":4,"u":"","p":"data:image/png;base64,\#(encoded)","e":1}]"#,
                                   layers: "[" + image + "]")) { path in _ = try LottieAnimation(contentsOf: path).render(width: 8, height: 8) }
    }

    @Test func missingOversizedAndSpecialFiles() throws {
        #expect(throws: RasterError.self) { try LottieAnimation(contentsOf: "/nonexistent/x.json") }
        #expect(throws: RasterError.self) { try LottieAnimation(contentsOf: "/tmp") }
        let big = Data(repeating: UInt8(ascii: " "), count: LottieAnimation.maximumBytes + 1)
        #expect(throws: RasterError.self) { try LottieAnimation(data: big, name: "big.json") }
        #expect(!LottieAnimation.isLottie(path: "/dev/zero"))
    }
}
