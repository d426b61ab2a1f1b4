import Foundation
import SilkSystem
import Testing
import SilkGeometry
import SilkRaster
@testable import SilkRender

/// The main thread mutates and commits as fast as it can while the render thread composites and
/// other threads walk old snapshots. Run under ThreadSanitizer in CI (`make test-tsan`): any
/// write to a published snapshot or unguarded shared state is reported there. Functionally, the
/// last presented frame must equal a fresh full composite of the last snapshot.
@Suite struct RenderStressTests {
    @Test func commitsRaceCompositingWithoutCorruption() throws {
        var rng = SplitMix64(seed: 42)
        let presenter = try HeadlessPresenter(pixelWidth: 160, pixelHeight: 120)
        let render = try RenderThread(presenter: presenter, clearColor: .black)
        render.start()
        defer { render.stop() }
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 160, height: 120)
        root.backgroundColor = Color(rgb: 0x102030)
        let content = try Bitmap(width: 24, height: 18)
        content.fill(Color(rgb: 0xffaa00))
        var layers: [Layer] = []
        for k in 0..<40 {
            let l = Layer()
            l.frame = Rect(x: Double(k * 4 % 150), y: Double(k * 7 % 110), width: 24, height: 18)
            l.backgroundColor = Color(red: Double(k) / 40, green: 0.5, blue: 0.5, alpha: k % 3 == 0 ? 0.6 : 1)
            if k % 2 == 0 { l.contents = content }
            root.addSublayer(l)
            layers.append(l)
        }
        let readers = SnapshotReaders()
        readers.start(count: 3)
        for step in 0..<3000 {
            let l = layers.randomElement(using: &rng)!
            switch step % 4 {
            case 0: l.position = Point(x: Double.random(in: 0...160, using: &rng), y: Double.random(in: 0...120, using: &rng))
            case 1: l.opacity = Double.random(in: 0.2...1, using: &rng)
            case 2: root.insertSublayer(l, at: Int.random(in: 0...root.sublayers.count, using: &rng))
            default: l.cornerRadius = Double.random(in: 0...6, using: &rng)
            }
            let snap = root.snapshot()
            render.commit(snap)
            readers.publish(snap)
        }
        readers.stop()
        #expect(render.waitUntilPresented(timeout: 30))
        let reference = try Compositor(pixelWidth: 160, pixelHeight: 120, clearColor: .black)
        reference.compositeFully(root.snapshot(), at: 0)
        let frame = try presenter.currentFrame()
        var differing = 0
        for y in 0..<120 { for x in 0..<160 where frame.argb32(x: x, y: y) != reference.backBuffer.argb32(x: x, y: y) { differing += 1 } }
        #expect(differing == 0)
        #expect(readers.walks > 0)
    }
}

/// Threads that repeatedly walk the newest published snapshot (read-only).
final class SnapshotReaders: @unchecked Sendable {
    private let lock = Lock()
    private var latest: LayerSnapshot?
    private var running = true
    private var count = 0
    private var threads: [Thread] = []
    private let group = DispatchGroup()

    func start(count n: Int) {
        for _ in 0..<n {
            group.enter()
            let t = Thread { [self] in
                while true {
                    lock.lock()
                    let go = running, snap = latest
                    lock.unlock()
                    guard go else { break }
                    if let snap { _ = snap.layerCount; _ = snap.sublayers.map(\.opacity).reduce(0, +) }
                    lock.lock(); count += 1; lock.unlock()
                }
                group.leave()
            }
            t.start()
            threads.append(t)
        }
    }
    func publish(_ s: LayerSnapshot) { lock.lock(); latest = s; lock.unlock() }
    func stop() { lock.lock(); running = false; lock.unlock(); group.wait() }
    var walks: Int { lock.lock(); defer { lock.unlock() }; return count }
}
