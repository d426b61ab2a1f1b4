import ArgumentParser
import Foundation
import SilkDemoServer
import SilkGeometry
import SilkNetworkImage
import SilkNodes
import SilkRaster
import SilkSystem

/// `silk bench-netimage`: network images against the local demo server — time to the first
/// progressive refinement versus the final image over a throttled connection, prefix and full
/// decode costs, and cache hit rates over repeated passes. Prints JSON.
struct NetworkImageBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-netimage",
        abstract: "Measure progressive network image display and the image cache against the local demo server.")

    @Option(help: "Runs per measurement (the median is reported).") var runs = 5
    @Option(help: "Photos in the cache passes.") var photos = 60
    @Option(help: "Photo size, WxH pixels.") var photoSize: SizeArgument = SizeArgument(argument: "1200x800")!
    @Option(help: "Throttle: bytes per chunk (the server pauses --interval ms between chunks).") var chunk = 4096
    @Option(help: "Throttle: milliseconds between chunks (4096 B / 25 ms ≈ 1.3 Mbit/s, a slow mobile link).") var interval = 25

    final class Timeline: NetworkImageNodeDelegate, @unchecked Sendable {
        let start = Date()
        private let lock = Lock()
        var firstPartial: Double?, final: Double?, partials = 0, failed: NetworkImageError?
        func imageNode(_ node: NetworkImageNode, didLoadPartialImage image: Bitmap, completeScans: Int) {
            lock.lock(); if firstPartial == nil { firstPartial = -start.timeIntervalSinceNow }; partials += 1; lock.unlock()
        }
        func imageNode(_ node: NetworkImageNode, didLoadImage image: Bitmap, source: ImageSource) {
            lock.lock(); final = -start.timeIntervalSinceNow; lock.unlock()
        }
        func imageNode(_ node: NetworkImageNode, didFailWithError error: NetworkImageError) {
            lock.lock(); failed = error; final = -start.timeIntervalSinceNow; lock.unlock()
        }
        var isDone: Bool { lock.lock(); defer { lock.unlock() }; return final != nil }
    }

    /// Ranges checked before the server starts: a negative count traps in a range (`0..<-3`)
    /// after minutes of measuring, and a huge photo or chunk would be generated in memory.
    func validate() throws {
        guard (1...100).contains(runs) else { throw ValidationError("--runs \(runs): must be between 1 and 100") }
        guard (1...10_000).contains(photos) else { throw ValidationError("--photos \(photos): must be between 1 and 10000") }
        guard (1...(1 << 20)).contains(chunk) else { throw ValidationError("--chunk \(chunk): must be between 1 and 1048576 bytes") }
        guard (0...10_000).contains(interval) else { throw ValidationError("--interval \(interval): must be between 0 and 10000 ms") }
        guard photoSize.size.width * photoSize.size.height <= 16_000_000 else {
            throw ValidationError("--photo-size \(Int(photoSize.size.width))x\(Int(photoSize.size.height)): at most 16 MPx")
        }
    }

    func run() throws {
        // The nodes here are never shown: performOnPassThread work runs inline on this thread.
        NodePass.adoptCurrentThreadAsPassThread()
        let server = try DemoServer()
        defer { server.stop() }
        let (w, h) = (Int(photoSize.size.width), Int(photoSize.size.height))
        let nodeSize = Size(width: Double(w) / 2, height: Double(h) / 2)

        /// Shows one photo in a node (preload entered at t = 0) and waits for the final image.
        func show(_ path: String, loader: NetworkImageLoader) -> Timeline {
            let node = NetworkImageNode(loader: loader)
            node.frame = Rect(size: nodeSize)
            let timeline = Timeline()
            node.delegate = timeline
            node.url = server.url(path)
            node.setInterfaceState(.inHierarchy)
            while !timeline.isDone { usleep(500) }
            node.setInterfaceState([])
            return timeline
        }
        func median(_ xs: [Double]) -> Double { let s = xs.filter(\.isFinite).sorted(); return s.isEmpty ? .nan : s[s.count / 2] }
        func ms(_ x: Double) -> Any { x.isFinite ? (x * 10_000).rounded() / 10 : NSNull() }

        // 1. Progressive versus baseline over a throttled connection (memory-only caches, so
        //    every run downloads).
        var progressiveFirst: [Double] = [], progressiveFinal: [Double] = [], baselineFinal: [Double] = [], partialCounts: [Double] = []
        for r in 0..<runs {
            let throttle = "w=\(w)&h=\(h)&chunk=\(chunk)&interval=\(interval)&run=\(r)"
            let p = show("/photo/40.jpg?\(throttle)&progressive=1", loader: NetworkImageLoader(cache: ImageCache(directory: nil)))
            let b = show("/photo/40.jpg?\(throttle)&progressive=0", loader: NetworkImageLoader(cache: ImageCache(directory: nil)))
            if let f = p.failed ?? b.failed { throw ValidationError("load failed: \(f)") }
            progressiveFirst.append(p.firstPartial ?? .nan); progressiveFinal.append(p.final!)
            if ProcessInfo.processInfo.environment["SILK_BENCH_DEBUG"] != nil { print("run \(r): partials \(p.partials) first \(String(describing: p.firstPartial)) final \(p.final!) baseline \(b.final!)") }
            baselineFinal.append(b.final!); partialCounts.append(Double(p.partials))
        }
        let progressiveBytes = server.content.photo(id: 40, width: w, height: h, progressive: true)?.count ?? 0
        let baselineBytes = server.content.photo(id: 40, width: w, height: h, progressive: false)?.count ?? 0

        // 2. Decode costs on this thread: the first complete-scan prefix and the whole file, at
        //    the node's pixel size.
        let data = server.content.photo(id: 40, width: w, height: h, progressive: true)!
        var tracker = JPEGScanTracker()
        var firstPrefix = 0
        for end in stride(from: 256, through: data.count, by: 256) {
            let p = tracker.update(with: data.prefix(end))
            if p.completeScans > 0 { firstPrefix = p.decodablePrefixLength; break }
        }
        let target = (width: Int(nodeSize.width), height: Int(nodeSize.height))
        func time(_ body: () throws -> Void) rethrows -> Double {
            var xs: [Double] = []
            for _ in 0..<max(3, runs) { let t = Date(); try body(); xs.append(-t.timeIntervalSinceNow) }
            return median(xs)
        }
        let prefixDecode = try time { _ = try ImageDecoder.decodeJPEGPrefix(data, length: firstPrefix, targetSize: target) }
        let fullDecode = try time { _ = try ImageDecoder.decode(data: data, targetSize: target) }

        // 3. Cache passes: cold (network), warm (memory), new process (disk).
        let dir = NSTemporaryDirectory() + "silk-bench-netimage-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let loader = NetworkImageLoader(cache: ImageCache(directory: dir))
        func pass(_ loader: NetworkImageLoader) -> Double {
            let t = Date()
            for i in 0..<photos { _ = show("/photo/\(1000 + i).jpg?w=600&h=400", loader: loader) }
            loader.flush()
            return -t.timeIntervalSinceNow / Double(max(1, photos))
        }
        let cold = pass(loader)
        let warm = pass(loader)
        let fresh = NetworkImageLoader(cache: ImageCache(directory: dir))
        let disk = pass(fresh)
        let s1 = loader.cache.statistics, s2 = fresh.cache.statistics

        let report: [String: Any] = [
            "photo": "\(w)x\(h)", "nodePixels": "\(target.width)x\(target.height)",
            "throttle": "\(chunk) B every \(interval) ms",
            "progressiveBytes": progressiveBytes, "baselineBytes": baselineBytes,
            "progressiveFirstPartialMs": ms(median(progressiveFirst)),
            "progressiveFinalMs": ms(median(progressiveFinal)),
            "baselineFinalMs": ms(median(baselineFinal)),
            "partialImagesPerLoad": median(partialCounts),
            "loadsWithAPartialImage": partialCounts.filter { $0 > 0 }.count,
            "loads": runs,
            "firstScanPrefixBytes": firstPrefix,
            "firstScanPrefixDecodeMs": ms(prefixDecode),
            "fullDecodeMs": ms(fullDecode),
            "cachePhotos": photos,
            "networkLoadMs": ms(cold), "memoryHitLoadMs": ms(warm), "diskHitLoadMs": ms(disk),
            "warmPassMemoryHitRate": Double(s1.memoryHits) / Double(photos),
            "freshProcessDiskHitRate": Double(s2.diskHits) / Double(photos),
            "misses": s1.misses + s2.misses,
            "requestsToServer": server.requestLog.filter { $0.hasPrefix("/photo/1") }.count,
        ]
        let json = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .prettyPrinted])
        print(String(decoding: json, as: UTF8.self))
    }
}
