import Foundation
import Testing
import SilkGeometry
import SilkRaster
import SilkTestSupport

/// SVG through librsvg: icons at three scales (goldens), and hostile documents — each ends in
/// one `RasterError` naming the file, or renders harmlessly, never reading another file.
@Suite struct SVGTests {
    let dir = Golden.directory()
    static let icons = ["home", "check", "gauge"]

    static func iconPath(_ name: String) throws -> String {
        try #require(Assets.directory).appendingPathComponent("icons/\(name).svg").path
    }

    @Test(arguments: [1.0, 2.0, 3.0])
    func iconsAtThreeScales(scale: Double) throws {
        let b = try Bitmap(width: Int(96 * scale), height: Int(32 * scale))
        let c = Canvas(bitmap: b, scale: scale)
        c.clear(.white)
        for (i, name) in Self.icons.enumerated() {
            let svg = try SVGImage(contentsOf: try Self.iconPath(name))
            #expect(svg.intrinsicSize == Size(width: 24, height: 24))
            try svg.draw(in: c, rect: Rect(x: 4 + Double(i) * 32, y: 4, width: 24, height: 24))
        }
        try Golden.verify(b, named: "svg-icons@\(Int(scale))x", in: dir)
    }

    @Test func renderCacheReturnsTheSameBitmapPerSize() throws {
        SVGRenderCache.removeAll()
        let path = try Self.iconPath("check")
        let a = try SVGRenderCache.render(path: path, width: 48, height: 48, contentMode: .aspectFit)
        let again = try SVGRenderCache.render(path: path, width: 48, height: 48, contentMode: .aspectFit)
        let other = try SVGRenderCache.render(path: path, width: 96, height: 96, contentMode: .aspectFit)
        #expect(a === again)
        #expect(a !== other && other.width == 96)
        #expect(a.argb32(x: 24, y: 6) >> 24 == 255)  // inside the circle's top edge
    }

    // MARK: Hostile documents

    func withFile(_ name: String, _ text: String, _ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("silk-svg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A secret beside the SVG: librsvg with a base URL would be allowed to load it.
        try Data("SECRET".utf8).write(to: folder.appendingPathComponent("secret.txt"))
        let red = try Bitmap(width: 8, height: 8); red.fill(.red)
        try red.writePNG(to: folder.appendingPathComponent("secret.png").path)
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try body(path)
    }

    func expectError(_ text: String, containing fragment: String, file: String = "bad.svg") throws {
        try withFile(file, text) { path in
            do {
                let svg = try SVGImage(contentsOf: path)
                _ = try svg.render(width: 64, height: 64)
                Issue.record("no error for \(file)")
            } catch let error as RasterError {
                #expect(error.description.contains(path), "\(error)")
                #expect(error.description.contains(fragment), "\(error)")
            }
        }
    }

    @Test func corruptAndTruncatedDocumentsFailNamingTheFile() throws {
        try expectError("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\"><rect", containing: "invalid SVG")
        try expectError("<svg xmlns=\"http://www.w3.org/2000/svg\"><g></svg>", containing: "invalid SVG")
        try expectError("\u{89}PNG not svg at all", containing: "not an SVG")
        try expectError("", containing: "not an SVG")
    }

    @Test func enormousElementCountsAreRefusedBeforeParsing() throws {
        let body = String(repeating: "<rect width=\"1\" height=\"1\"/>", count: SVGImage.maximumElements + 10)
        try expectError("<svg xmlns=\"http://www.w3.org/2000/svg\">\(body)</svg>", containing: "elements")
    }

    @Test func deepNestingEndsInAnError() throws {
        let depth = 5_000
        let text = "<svg xmlns=\"http://www.w3.org/2000/svg\">" + String(repeating: "<g>", count: depth)
            + "<rect width=\"5\" height=\"5\"/>" + String(repeating: "</g>", count: depth) + "</svg>"
        try expectError(text, containing: "invalid SVG")
    }

    @Test func hugeViewBoxRendersAtTheRequestedSize() throws {
        let text = """
        <svg xmlns="http://www.w3.org/2000/svg" width="1000000" height="1000000" viewBox="0 0 1000000 1000000">
          <circle cx="500000" cy="500000" r="400000" fill="blue"/>
        </svg>
        """
        try withFile("huge.svg", text) { path in
            let svg = try SVGImage(contentsOf: path)
            #expect(svg.intrinsicSize == Size(width: SVGImage.maximumIntrinsicDimension, height: SVGImage.maximumIntrinsicDimension))
            let b = try svg.render(width: 50, height: 50)
            #expect(b.argb32(x: 25, y: 25) == 0xFF00_00FF)
            #expect(b.argb32(x: 1, y: 1) == 0)
        }
    }

    /// No reference leaves the file: external entities, `<image>` and `<use>` of files beside
    /// it or absolute `file:` URLs, XInclude — each renders exactly like the same document
    /// without the reference.
    @Test func externalReferencesAreNeverLoaded() throws {
        let references = [
            "<!DOCTYPE svg [<!ENTITY x SYSTEM \"secret.txt\">]>|<text x=\"0\" y=\"40\" font-size=\"40\">&x;</text>",
            "<!DOCTYPE svg [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>|<text x=\"0\" y=\"40\" font-size=\"40\">&x;</text>",
            "|<image xlink:href=\"secret.png\" width=\"64\" height=\"64\"/>",
            "|<image href=\"secret.png\" width=\"64\" height=\"64\"/>",
            "|<image xlink:href=\"file:///usr/share/pixmaps/debian-logo.png\" width=\"64\" height=\"64\"/>",
            "|<use xlink:href=\"other.svg#r\"/>",
            "|<image xlink:href=\"http://127.0.0.1:9/x.png\" width=\"64\" height=\"64\"/>",
            "|<xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\" href=\"secret.txt\" parse=\"text\"/>",
        ]
        for entry in references {
            let parts = entry.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            let open = "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"64\" height=\"64\">"
            let hostile = parts[0] + open + parts[1] + "</svg>"
            let other = "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect id=\"r\" width=\"64\" height=\"64\" fill=\"red\"/></svg>"
            try withFile("hostile.svg", hostile) { path in
                try Data(other.utf8).write(to: URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("other.svg"))
                guard let svg = try? SVGImage(contentsOf: path) else { return }  // refusing is fine too
                let b = try svg.render(width: 64, height: 64)
                var painted = 0
                for y in 0..<64 { for x in 0..<64 where b.argb32(x: x, y: y) != 0 { painted += 1 } }
                #expect(painted == 0, "a reference was loaded: \(entry)")
            }
        }
    }

    /// The billion-laughs entity bomb ends quickly (libxml2's amplification check).
    @Test func entityExpansionBombEnds() throws {
        var decl = "<!ENTITY a0 \"lol\">"
        for k in 1...10 { decl += "<!ENTITY a\(k) \"" + String(repeating: "&a\(k - 1);", count: 10) + "\">" }
        let text = "<?xml version=\"1.0\"?><!DOCTYPE svg [\(decl)]><svg xmlns=\"http://www.w3.org/2000/svg\"><text>&a10;</text></svg>"
        let start = ContinuousClock.now
        try withFile("bomb.svg", text) { path in
            if let svg = try? SVGImage(contentsOf: path) { _ = try? svg.render(width: 32, height: 32) }
        }
        #expect(ContinuousClock.now - start < .seconds(20))
    }

    /// A `<use>` bomb (10 levels of 10 references: 10⁹ rectangles from 100 elements) ends in
    /// librsvg's 500,000-reference limit, one error naming the file (~2 s of CPU).
    @Test func useReferenceBombEndsInAnError() throws {
        var text = "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"50\" height=\"50\"><defs><rect id=\"l0\" width=\"1\" height=\"1\"/>"
        for k in 1..<10 {
            text += "<g id=\"l\(k)\">" + String(repeating: "<use xlink:href=\"#l\(k - 1)\"/>", count: 10) + "</g>"
        }
        text += "</defs><use xlink:href=\"#l9\"/></svg>"
        try expectError(text, containing: "referenced elements", file: "bomb.svg")
    }

    @Test func missingAndOversizedFiles() throws {
        #expect(throws: RasterError.self) { try SVGImage(contentsOf: "/nonexistent/icon.svg") }
        #expect(throws: RasterError.self) { try SVGImage(contentsOf: "/tmp") }
        let big = Data(count: SVGImage.maximumBytes + 1)
        #expect(throws: RasterError.self) { try SVGImage(data: big, name: "big.svg") }
    }
}
