import Foundation
import SilkGeometry
import SilkRaster

/// Timings of the image pipeline's hot paths, for `silk bench-raster`. Run a release build:
/// debug Swift is 10–50× slower on these loops.
///
/// Inputs are made in memory from the demo photo `ladybird.jpg` (nothing large is committed):
/// - a 4000 × 2500 JPEG (the photo upscaled 5× with light deterministic noise so its entropy is
///   closer to a camera photo's), decoded in full and with a 500 px wide target (scale 1/8);
/// - a 512 × 512 crop blurred at radius 30 with the Texture tutorial's tint and saturation
///   (`Color(white: 0.5, alpha: 0.3)`, 1.8), and at radius 20 plain.
///
/// Each figure is the median of `runs` timed runs after one warm-up run.
public enum RasterBenchmarks {
    public struct Measurement: Sendable, CustomStringConvertible {
        public let name: String
        public let medianMilliseconds: Double
        public let minMilliseconds: Double
        /// Median CPU time of the measuring thread: steadier than wall time on a shared machine.
        public let medianCPUMilliseconds: Double
        public let runs: Int
        /// Input and output sizes, in words.
        public let detail: String
        public var description: String {
            let pad = name.padding(toLength: 40, withPad: " ", startingAt: 0)
            return pad + String(format: "median %8.2f ms  min %8.2f ms  cpu %8.2f ms  (%d runs)  ",
                                medianMilliseconds, minMilliseconds, medianCPUMilliseconds, runs) + detail
        }
    }

    /// Runs every benchmark; throws when the demo photo is missing or cannot be decoded.
    public static func run(runs: Int = 9) throws(RasterError) -> [Measurement] {
        guard let url = Assets.photo("ladybird.jpg") else {
            throw .io(path: "assets/photos/ladybird.jpg", reason: "demo photo not found (set SILK_ASSETS)")
        }
        let photo = try ImageDecoder.decode(contentsOf: url.path).bitmap
        var results: [Measurement] = []

        let large = try largePhotoJPEG(from: photo, width: 4000, height: 2500)
        let full = try ImageDecoder.decode(data: large).bitmap
        results.append(try measure("JPEG decode 4000×2500 full", runs: runs,
                                   detail: "\(large.count / 1024) KiB → \(full.width)×\(full.height)") { () throws(RasterError) in
            _ = try ImageDecoder.decode(data: large)
        })
        let scaled = try ImageDecoder.decode(data: large, targetSize: (500, 313))
        results.append(try measure("JPEG decode 4000×2500 target 500 wide", runs: runs,
                                   detail: "scale \(scaled.decodeScale) → \(scaled.bitmap.width)×\(scaled.bitmap.height)") { () throws(RasterError) in
            _ = try ImageDecoder.decode(data: large, targetSize: (500, 313))
        })

        let square = try Bitmap(width: 512, height: 512)
        Canvas(bitmap: square).draw(photo, in: square.bounds, contentMode: .aspectFill)
        results.append(try measure("blur 512×512 r30 tint+saturation 1.8", runs: runs, detail: "tutorial card blur") { () throws(RasterError) in
            _ = try square.blurred(radius: 30, tintColor: Color(white: 0.5, alpha: 0.3), saturationDeltaFactor: 1.8)
        })
        results.append(try measure("blur 512×512 r20", runs: runs, detail: "plain") { () throws(RasterError) in
            _ = try square.blurred(radius: 20)
        })

        results += try pathBenchmarks(runs: runs)

        let png = try square.pngData()
        results.append(try measure("PNG decode 512×512 RGBA", runs: runs, detail: "\(png.count / 1024) KiB") { () throws(RasterError) in
            _ = try ImageDecoder.decode(data: png)
        })
        return results
    }

    /// Vector paths (cairo) on a 512×512 canvas at 1×: a closed curve of 1,000 cubic segments
    /// filled (non-zero) and stroked 2 points wide; a 100-point chart line stroked 2 points
    /// wide with round joins, solid and dashed; and, for the choice between cairo and Silk's own
    /// pixman trapezoids, the same outline flattened to a 1,000-gon filled both ways
    /// (`fillPolygon` takes only shapes star-shaped around their first vertex). Last: one 24-point
    /// SVG icon rendered at 48 px (librsvg, parse included); a Lottie frame (rlottie).
    public static func pathBenchmarks(runs: Int) throws(RasterError) -> [Measurement] {
        let canvasBitmap = try Bitmap(width: 512, height: 512)
        let canvas = Canvas(bitmap: canvasBitmap)
        let center = Point(x: 256, y: 256)
        func wobble(_ a: Double) -> Point {
            let r = 200 + 30 * sin(7 * a)
            return Point(x: center.x + r * cos(a), y: center.y + r * sin(a))
        }
        var curve = Path()
        curve.move(to: wobble(0))
        for k in 1...1000 {
            let a0 = 2 * Double.pi * Double(k - 1) / 1000, a1 = 2 * Double.pi * Double(k) / 1000
            let p0 = wobble(a0), p1 = wobble(a1)
            curve.addCurve(to: p1, control1: Point(x: p0.x + (p1.x - p0.x) / 3 + 0.5, y: p0.y + (p1.y - p0.y) / 3),
                           control2: Point(x: p0.x + 2 * (p1.x - p0.x) / 3, y: p0.y + 2 * (p1.y - p0.y) / 3 - 0.5))
        }
        curve.closeSubpath()
        let polygon = (0..<1000).map { wobble(2 * Double.pi * Double($0) / 1000) }
        var polygonPath = Path(); polygonPath.addLines(polygon); polygonPath.closeSubpath()
        var chart = Path()
        var rng = SplitMix64(seed: 7)
        chart.addLines((0..<100).map { Point(x: 6 + Double($0) * 5, y: 256 + 180 * sin(Double($0) / 9) + Double(rng.next() % 40) - 20) })
        let blue = Paint.color(Color(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.9))
        var out: [Measurement] = []
        out.append(try measure("path fill 1,000-segment curve", runs: runs, detail: "cairo, 512×512, non-zero") { () throws(RasterError) in
            canvas.fill(curve, with: blue)
        })
        out.append(try measure("path stroke 1,000-segment curve", runs: runs, detail: "cairo, 2 pt, miter joins") { () throws(RasterError) in
            canvas.stroke(curve, style: StrokeStyle(lineWidth: 2), with: blue)
        })
        out.append(try measure("path stroke 100-point chart line", runs: runs, detail: "cairo, 2 pt, round joins") { () throws(RasterError) in
            canvas.stroke(chart, style: StrokeStyle(lineWidth: 2, lineCap: .round, lineJoin: .round), with: blue)
        })
        out.append(try measure("path stroke 100-point chart line dashed", runs: runs, detail: "cairo, 2 pt, dashes 6 3") { () throws(RasterError) in
            canvas.stroke(chart, style: StrokeStyle(lineWidth: 2, lineJoin: .round, dashes: [6, 3]), with: blue)
        })
        out.append(try measure("path fill 1,000-gon (cairo)", runs: runs, detail: "the curve flattened, Canvas.fill(Path)") { () throws(RasterError) in
            canvas.fill(polygonPath, with: blue)
        })
        out.append(try measure("polygon fill 1,000-gon (pixman traps)", runs: runs, detail: "the same, Canvas.fillPolygon (convex/star only)") { () throws(RasterError) in
            canvas.fillPolygon(polygon, with: blue)
        })
        if let icon = Assets.directory?.appendingPathComponent("icons/gauge.svg").path {
            let svg = try SVGImage(contentsOf: icon)
            out.append(try measure("SVG icon 24 pt at 48 px", runs: runs, detail: "librsvg, parse + render gauge.svg") { () throws(RasterError) in
                _ = try svg.render(width: 48, height: 48)
            })
        }
        if let file = Assets.directory?.appendingPathComponent("lottie/spinner.json").path {
            // One frame of a playing animation: the player keeps its rlottie renderer, so parsing
            // is not part of a frame; the frame number moves as it would while playing.
            let lottie = try LottieAnimation(contentsOf: file)
            let renderer = try LottieRenderer(lottie)
            let frame = try Bitmap(width: 120, height: 120)
            var n = 0
            out.append(try measure("Lottie frame 120×120", runs: runs, detail: "rlottie, spinner.json, renderer kept") { () throws(RasterError) in
                n = (n + 7) % lottie.frameCount
                renderer.render(frame: n, into: frame)
            })
            out.append(try measure("Lottie parse + first frame 120×120", runs: runs, detail: "checks + rlottie parse + render") { () throws(RasterError) in
                _ = try LottieAnimation(contentsOf: file).render(frame: 0, width: 120, height: 120)
            })
        }
        return out
    }

    /// `run(runs:)` as printable lines.
    public static func report(runs: Int = 9) throws(RasterError) -> String {
        try run(runs: runs).map(\.description).joined(separator: "\n")
    }

    static func measure(_ name: String, runs: Int, detail: String,
                        _ body: () throws(RasterError) -> Void) throws(RasterError) -> Measurement {
        try body()  // warm-up: page in code and caches, fail early
        var times: [Double] = [], cpu: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<max(1, runs) {
            let cpuStart = threadCPUMilliseconds()
            let start = clock.now
            try body()
            let d = clock.now - start
            cpu.append(threadCPUMilliseconds() - cpuStart)
            times.append(Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) * 1e-15)
        }
        times.sort(); cpu.sort()
        return Measurement(name: name, medianMilliseconds: times[times.count / 2], minMilliseconds: times[0],
                           medianCPUMilliseconds: cpu[cpu.count / 2], runs: times.count, detail: detail)
    }

    /// CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID), in milliseconds.
    public static func threadCPUMilliseconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) * 1e-6
    }

    /// `photo` scaled to width × height with ±6 levels of deterministic noise, as a quality-85 JPEG.
    static func largePhotoJPEG(from photo: Bitmap, width: Int, height: Int) throws(RasterError) -> Data {
        let big = try Bitmap(width: width, height: height)
        Canvas(bitmap: big).draw(photo, in: big.bounds, contentMode: .scaleToFill)
        var seed: UInt32 = 0x9E37_79B9
        for y in 0..<height {
            let row = (big.data + y * big.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let n = Int(seed >> 28) - 6  // -6…9, cheap and good enough
                let p = row[x]
                func c(_ s: UInt32) -> UInt32 { UInt32(max(0, min(255, Int((p >> s) & 0xff) + n))) << s }
                row[x] = 0xff00_0000 | c(16) | c(8) | c(0)
            }
        }
        return try JPEGEncoder.encode(big, quality: 85)
    }
}
