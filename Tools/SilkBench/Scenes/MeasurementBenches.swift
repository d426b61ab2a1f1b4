import Foundation
import SilkGeometry
import SilkLayout
import SilkLayoutTools
import SilkRaster
import SilkScenes

/// `image-decode`: decoding throughput of the image decoders on one thread — a 1920×1080 photo
/// (a demo photo drawn at that size; 960×540 with `--quick`, whose setup would otherwise be
/// dominated by encoding the PNG) as a quality-85 JPEG (TurboJPEG) and as a PNG (libpng), each
/// decoded repeatedly for a fixed time.
public enum ImageDecodeBench: MeasurementBench {
    public static let name = "image-decode"
    public static let summary = "JPEG and PNG decoding throughput, 1920x1080 photo (960x540 with --quick), one thread"

    static func secondsPerFormat(_ s: BenchSettings) -> Double { s.quick ? 0.25 : 1.5 }
    public static func estimatedSeconds(_ s: BenchSettings) -> Double { 2 * secondsPerFormat(s) + 1 }

    public static func measure(_ settings: BenchSettings, progress: (Double) -> Void) throws -> (figures: [Figure], notes: [String]) {
        guard let path = Assets.photo("ladybird.jpg")?.path else { throw SceneError("image-decode: assets/photos/ladybird.jpg not found (set SILK_ASSETS)") }
        let photo = try ImageDecoder.decode(contentsOf: path).bitmap
        let image = settings.quick ? try Bitmap(width: 960, height: 540) : try Bitmap(width: 1920, height: 1080)
        Canvas(bitmap: image).draw(photo, in: image.bounds, contentMode: .aspectFill, filter: .bilinear)
        let encoded: [(String, Data)] = [("jpeg", try image.jpegData(quality: 85)), ("png", try image.pngData())]
        let megapixels = Double(image.width * image.height) / 1e6
        var figures: [Figure] = [], notes: [String] = []
        for (i, (format, data)) in encoded.enumerated() {
            let budget = secondsPerFormat(settings)
            var times: [Double] = []
            let start = ProcessMeasurements.now()
            repeat {
                let t0 = ProcessMeasurements.now()
                _ = try ImageDecoder.decode(data: data)
                times.append(ProcessMeasurements.now() - t0)
                progress((Double(i) + min(1, (ProcessMeasurements.now() - start) / budget)) / Double(encoded.count))
            } while ProcessMeasurements.now() - start < budget || times.count < 3
            let perImage = ProcessMeasurements.median(times)
            figures += [Figure("\(format)ImagesPerSecond", 1 / perImage, "images/s"),
                        Figure("\(format)MegapixelsPerSecond", megapixels / perImage, "MPx/s"),
                        Figure("\(format)DecodeMs", perImage * 1000, "ms")]
            notes.append("\(format): \(image.width)x\(image.height), \(data.count / 1024) KiB, \(times.count) decodes (median)")
        }
        return (figures, notes)
    }
}

/// `layout`: the 1,000-element feed tree (`silk layout-bench`) laid out at 375 pt: cold (every
/// cache empty), cached (same constraints again) and after one cell's text changed.
public enum LayoutBench: MeasurementBench {
    public static let name = "layout"
    public static let summary = "the 1,000-element feed tree laid out: cold, cached, one cell invalidated"

    static func budget(_ s: BenchSettings) -> Double { s.quick ? 0.3 : 1.5 }
    public static func estimatedSeconds(_ s: BenchSettings) -> Double { budget(s) + 0.3 }

    public static func measure(_ settings: BenchSettings, progress: (Double) -> Void) throws -> (figures: [Figure], notes: [String]) {
        // A short probe sizes the run to the time budget (a debug build is ~20x slower).
        let t0 = ProcessMeasurements.now()
        _ = benchmarkFeedLayout(cells: 100, width: 375, iterations: 1)
        let probe = max(1e-4, (ProcessMeasurements.now() - t0) / 6)  // 5 warm-up runs + 1
        progress(0.2)
        let iterations = max(5, min(400, Int(budget(settings) / probe)))
        let r = benchmarkFeedLayout(cells: 100, width: 375, iterations: iterations)
        progress(1)
        return ([Figure("elements", Double(r.elementCount), "elements"),
                 Figure("coldMs", r.cold * 1000, "ms"), Figure("coldBestMs", r.coldBest * 1000, "ms"),
                 Figure("cachedMs", r.cached * 1000, "ms"), Figure("oneCellInvalidatedMs", r.oneCellInvalidated * 1000, "ms")],
                ["median of \(iterations) runs, 100 cells at 375 pt"])
    }
}

/// `startup`: process launch to the first complete frame, measured from outside — this program
/// spawns its startup probe (`silk bench-startup-probe`: the rainforest demo on the headless
/// backend, exiting once every card on the first screen shows its contents and that frame was
/// presented) and times from `posix_spawn` to the probe's report. The probe also reports the
/// same span from its own `main`, so the difference is the loader and runtime start.
public enum StartupBench: MeasurementBench {
    public static let name = "startup"
    public static let summary = "process launch to the first complete frame (rainforest demo, headless, child process)"

    static func launches(_ s: BenchSettings) -> Int { s.quick ? 1 : 3 }
    public static func estimatedSeconds(_ s: BenchSettings) -> Double { Double(launches(s)) * (s.quick ? 2 : 1) }

    public static func measure(_ settings: BenchSettings, progress: (Double) -> Void) throws -> (figures: [Figure], notes: [String]) {
        guard let command = settings.startupCommand, let executable = command.first else {
            throw SceneError("startup: this program has no startup probe")
        }
        var total: [Double] = [], inProcess: [Double] = []
        let n = launches(settings)
        for i in 0..<n {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = Array(command.dropFirst()) + ["--size", "\(Int(settings.size.width))x\(Int(settings.size.height))"]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            let t0 = ProcessMeasurements.now()
            try process.run()
            let killer = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
            DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: killer)
            // Read until the report line; its arrival is the moment of the first complete frame.
            var buffer = Data(), line: String?
            while line == nil {
                let chunk = pipe.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                let text = String(decoding: buffer, as: UTF8.self)
                line = text.split(separator: "\n").first { $0.hasPrefix("first complete frame") }.map(String.init)
            }
            let t1 = ProcessMeasurements.now()
            process.waitUntilExit()
            killer.cancel()
            // "first complete frame <ms since main> ms"
            guard let line, let ms = line.split(separator: " ").compactMap({ Double($0) }).first else {
                throw SceneError("startup: the probe exited (status \(process.terminationStatus)) without reporting a complete frame")
            }
            total.append((t1 - t0) * 1000)
            inProcess.append(ms)
            progress(Double(i + 1) / Double(n))
        }
        return ([Figure("launchToCompleteFrameMs", ProcessMeasurements.median(total), "ms"),
                 Figure("launchToCompleteFrameBestMs", total.min() ?? 0, "ms"),
                 Figure("mainToCompleteFrameMs", ProcessMeasurements.median(inProcess), "ms")],
                ["median of \(n) launches of \((executable as NSString).lastPathComponent) \(command.dropFirst().joined(separator: " ")); measured in a child process"])
    }
}
