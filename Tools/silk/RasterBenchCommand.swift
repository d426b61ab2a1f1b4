import ArgumentParser
import Foundation
import SilkGeometry
import SilkNodes
import SilkRaster
import SilkBench
import SilkScenes

/// `silk raster-bench`: the rasterizer's figures (median of several runs; build with -c release):
/// JPEG decode of a 4000×3000 photo in full and with scaled decode to 500 px wide, the card blur
/// (512×512, radius 30, tint and saturation), and a 300-character paragraph laid out and drawn
/// with a cold and a warm glyph cache, vector paths and an SVG icon (`--only paths`);
/// `--only card`: the rainforest card (`silk snapshot card`)
/// as a whole, cold and warm, and its pieces, in process CPU time.
struct RasterBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raster-bench", abstract: "Measure image decoding, blur, text and path rasterization.")

    @Option(help: "Runs per figure (the median is reported).") var runs: Int = 9
    @Option(help: "Only one figure: jpeg, blur, text, paths or card (for instruction counts under callgrind).") var only: String?

    func validate() throws {
        guard (1...1000).contains(runs) else { throw ValidationError("--runs \(runs): must be between 1 and 1000") }
        if let only, !["jpeg", "blur", "text", "paths", "card"].contains(only) {
            throw ValidationError("--only \(CLIArguments.excerpt(only)): expected jpeg, blur, text, paths or card")
        }
    }

    func run() throws {
        let runs = self.runs
        func median(_ body: () throws -> Void) rethrows -> Double {
            var t: [Double] = []
            for _ in 0..<runs {
                let t0 = DispatchTime.now().uptimeNanoseconds
                try body()
                t.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
            }
            return t.sorted()[t.count / 2]
        }
        guard let photoPath = Assets.photo("ladybird.jpg")?.path else { fail("assets/photos/ladybird.jpg not found") }
        let photo = try ImageDecoder.decode(contentsOf: photoPath).bitmap
        if only == nil || only == "jpeg" { try jpegFigures(photo, median: median) }
        if only == nil || only == "blur" { try blurFigure(photo, median: median) }
        if only == nil || only == "text" { try textFigures(median: median) }
        if only == nil || only == "paths" {
            // Vector paths (cairo) and one SVG icon (librsvg); see RasterBenchmarks.pathBenchmarks.
            for m in try RasterBenchmarks.pathBenchmarks(runs: runs) { print(m) }
        }
        if only == nil || only == "card" { try cardFigures(photoPath: photoPath) }
    }

    /// The rainforest card of `silk snapshot card` (360×420), timed in this process: CPU of the
    /// whole process (the card is built on a background queue; display is synchronous), median
    /// of `runs`. Cold: glyph caches (rasterized glyphs and loaded outlines) and image caches
    /// emptied and a new card (its text shaped again); warm: the caches kept, a new card. Then
    /// the pieces, each cold and warm; the text pieces in this thread's CPU time.
    func cardFigures(photoPath: String) throws {
        func processCPU() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
            return Double(t.tv_sec) * 1e3 + Double(t.tv_nsec) / 1e6
        }
        func median(_ body: () throws -> Void) rethrows -> Double {
            var t: [Double] = []
            for _ in 0..<runs {
                let t0 = processCPU()
                try body()
                t.append(processCPU() - t0)
            }
            return t.sorted()[t.count / 2]
        }
        func emptyCaches() {
            emptyGlyphCaches()
            ImageNode.decodedImageCache.removeAll()
            ImageNode.modifiedImageCache.removeAll()
        }
        let entry = RainforestCatalog.entries[0]
        var png = Data()
        _ = try CardScene.render()  // fonts, fontconfig and code paths loaded once
        let cold = try median { emptyCaches(); _ = try CardScene.render() }
        let warm = try median { _ = try CardScene.render() }
        let card = try CardScene.render()
        let encode = try median { png = try card.pngData() }
        let size = CardScene.defaultSize
        let decode = try median { _ = try ImageDecoder.decode(contentsOf: photoPath, targetSize: (Int(size.width), Int(size.height))) }
        let backdrop = try Bitmap(size: size)
        Canvas(bitmap: backdrop).draw(try ImageDecoder.decode(contentsOf: photoPath, targetSize: (Int(size.width), Int(size.height))).bitmap,
                                      in: backdrop.bounds, contentMode: .aspectFill, filter: .highQuality)
        let blur = try median {
            _ = try backdrop.blurred(radius: CardNode.blurRadius, tintColor: CardNode.blurTint, saturationDeltaFactor: CardNode.blurSaturation)
        }
        let title = AttributedText(entry.title, attributes: TextAttributes(fontSize: 26, fontWeight: .bold, color: .white))
        let description = AttributedText(entry.description, attributes: TextAttributes(fontSize: 14, color: .white, lineHeightMultiple: 1.15))
        let target = try Bitmap(size: size)
        // The text pieces run on this thread: its CPU time, as `cairo_card --time-text` measures
        // Pango's (bench/peers/bench-peers.sh prints the two side by side).
        func text(_ t: AttributedText, lines: Int, cold: Bool, draws: Bool = true) -> Double {
            var times: [Double] = []
            for _ in 0..<runs {
                if cold { emptyGlyphCaches() }
                times.append(timedText(t, width: size.width - 32, lines: lines, draws: draws, into: target))
            }
            return times.sorted()[times.count / 2]
        }
        let titleCold = text(title, lines: 2, cold: true), titleWarm = text(title, lines: 2, cold: false)
        let descriptionCold = text(description, lines: 0, cold: true), descriptionWarm = text(description, lines: 0, cold: false)
        let titleLayout = text(title, lines: 2, cold: false, draws: false)
        let descriptionLayout = text(description, lines: 0, cold: false, draws: false)
        print(String(format: "card 360x420 whole (layout, display, composite), cold:  %8.2f ms CPU", cold))
        print(String(format: "card 360x420 whole, warm (glyph and image caches kept): %8.2f ms CPU", warm))
        print(String(format: "  piece: JPEG decode of the photo at 360x420:          %8.2f ms", decode))
        print(String(format: "  piece: blur 360x420 radius 30 + tint + saturation:    %8.2f ms", blur))
        print(String(format: "  piece: title shape + draw, cold / warm glyphs:        %8.3f / %.3f ms", titleCold, titleWarm))
        print(String(format: "  piece: description shape + draw, cold / warm glyphs:  %8.3f / %.3f ms", descriptionCold, descriptionWarm))
        print(String(format: "  piece: title layout only (no drawing):                %8.3f ms", titleLayout))
        print(String(format: "  piece: description layout only (no drawing):          %8.3f ms", descriptionLayout))
        print(String(format: "  piece: PNG encode (%d KB):                            %8.2f ms", png.count / 1024, encode))
    }

    /// One timed text run (thread CPU ms); its own function so that callgrind can count each
    /// run: `--toggle-collect='*timedText*' --dump-after='*timedText*'` writes one profile per
    /// run, in the order title cold, warm, description cold, warm, then the layout-only runs.
    @inline(never)
    func timedText(_ t: AttributedText, width: Double, lines: Int, draws: Bool, into target: Bitmap) -> Double {
        let t0 = RasterBenchmarks.threadCPUMilliseconds()
        let layout = TextLayout(text: t, constrainedTo: Size(width: width, height: .infinity), maximumLines: lines)
        if draws { layout.draw(into: target) }
        return RasterBenchmarks.threadCPUMilliseconds() - t0
    }

    /// Cold text: every rasterized glyph and every loaded (hinted) outline dropped, fonts still
    /// matched and open, HarfBuzz's fonts and the caches' tables kept — what a glyph seen for
    /// the first time costs in a running app (as cairo's process-wide pixman glyph cache is
    /// kept across Pango's cold runs).
    func emptyGlyphCaches() {
        GlyphCache.shared.removeAll(keepingCapacity: true)
        FontDatabase.shared.removeCachedOutlines(keepingCapacity: true)
    }

    func jpegFigures(_ photo: Bitmap, median: (() throws -> Void) throws -> Double) throws {
        // A 4000×3000 JPEG made from a demo photo (upscaled, quality 90).
        let big = try Bitmap(width: 4000, height: 3000)
        Canvas(bitmap: big).draw(photo, in: big.bounds, contentMode: .aspectFill, filter: .bilinear)
        let jpeg = try big.jpegData(quality: 90)
        var scaledSize = (0, 0), scale = 0.0
        let full = try median { _ = try ImageDecoder.decode(data: jpeg) }
        let scaled = try median {
            let d = try ImageDecoder.decode(data: jpeg, targetSize: (500, 375))
            scaledSize = (d.bitmap.width, d.bitmap.height); scale = d.decodeScale
        }
        print(String(format: "JPEG 4000x3000 (%d KB) full decode:            %8.2f ms", jpeg.count / 1024, full))
        print(String(format: "JPEG 4000x3000 scaled decode to %dx%d (1/%g): %8.2f ms  (%.1fx faster)",
                     scaledSize.0, scaledSize.1, 1 / scale, scaled, full / scaled))

    }

    func blurFigure(_ photo: Bitmap, median: (() throws -> Void) throws -> Double) throws {
        let square = try Bitmap(width: 512, height: 512)
        Canvas(bitmap: square).draw(photo, in: square.bounds, contentMode: .aspectFill)
        let blur = try median {
            _ = try square.blurred(radius: 30, tintColor: Color(white: 0.5, alpha: 0.3), saturationDeltaFactor: 1.8)
        }
        print(String(format: "blur 512x512 radius 30 + tint + saturation:   %8.2f ms", blur))

    }

    func textFigures(median: (() throws -> Void) throws -> Double) throws {
        let paragraph = String(repeating: "Silk brings the ideas of Texture to Linux: layout, text shaping and drawing run on display queues while the main thread stays free for input. ", count: 3).prefix(300)
        let text = AttributedText(String(paragraph), attributes: TextAttributes(fontSize: 15))
        let cache = GlyphCache(byteBudget: 32 << 20)
        let probe = TextLayout(text: text, constrainedTo: Size(width: 320, height: .infinity))  // loads fonts
        let target = try Bitmap(size: Size(width: 320, height: probe.size.height + 4))
        let cold = try median {
            cache.removeAll()
            TextLayout(text: text, constrainedTo: Size(width: 320, height: .infinity)).draw(into: target, glyphCache: cache)
        }
        let warm = try median {
            TextLayout(text: text, constrainedTo: Size(width: 320, height: .infinity)).draw(into: target, glyphCache: cache)
        }
        print(String(format: "text 300 chars layout+draw, cold glyph cache: %8.3f ms", cold))
        print(String(format: "text 300 chars layout+draw, warm glyph cache: %8.3f ms  (%.1fx)", warm, cold / warm))
    }
}
