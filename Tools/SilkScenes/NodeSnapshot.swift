import Foundation
import SilkGeometry
import SilkNodes
import SilkRaster
import SilkRender

/// Renders a node tree once, with every node displayed, into a bitmap: display is forced
/// synchronous for the duration (as Texture's snapshot tests do), then the layer tree is
/// composited in full.
public enum NodeSnapshot {
    /// The tree was still laying out or displaying when the time ran out: no snapshot is
    /// taken rather than one of a half-built tree.
    public struct NotSettled: Error, CustomStringConvertible {
        public var seconds: Int
        public var description: String {
            "snapshot: the node tree had not finished laying out and displaying after \(seconds) s (a list or a presented view still pending); no image written"
        }
    }

    /// How long `render` waits for the tree to settle: a bound against a hang only. A loaded or
    /// emulated machine is slow (under qemu-user with a load of 30, 10 s ran out before the
    /// controls scene's list and popover were shown, and a half-built image came out).
    /// `SILK_SNAPSHOT_SETTLE_SECONDS` (whole seconds, 1 to 86,400) changes it: the debug build's
    /// rainforest at scale 2 takes 24 s on an idle x86-64 core and over 300 s under qemu-user on
    /// a shared machine, so `make test-arm64` gives its scenes an hour.
    /// `settleLimit` without the environment variable, in seconds.
    public static let defaultSettleLimit = 300
    public static let settleLimit: Int = {
        guard let text = ProcessInfo.processInfo.environment["SILK_SNAPSHOT_SETTLE_SECONDS"] else { return defaultSettleLimit }
        guard let n = Int(text), (1...86_400).contains(n) else {
            FileHandle.standardError.write(Data("silk: SILK_SNAPSHOT_SETTLE_SECONDS=\(String(text.prefix(40)).debugDescription) is not a whole number of seconds from 1 to 86400; using \(defaultSettleLimit)\n".utf8))
            return defaultSettleLimit
        }
        return n
    }()

    /// `afterSetUp` runs once the pass exists (it sets every node in the hierarchy to all
    /// interface states; a list restores its ranges there). `afterLayout` runs once the tree is
    /// laid out and displayed (frames are known: a popover can be anchored), and the snapshot
    /// is taken when what it changed is displayed too.
    public static func render(_ root: DisplayNode, size: Size, scale: Double, background: Color = .white,
                              afterSetUp: () -> Void = {}, afterLayout: (() -> Void)? = nil) throws -> Bitmap {
        let host = Layer()
        host.frame = Rect(size: size)
        host.backgroundColor = background
        let pass = NodePass(rootNode: root, hostLayer: host, size: size, scale: scale)
        pass.synchronousDisplay = true
        afterSetUp()
        // Containers create and measure their items on background queues and queue the result
        // for a pass: keep passing until nothing is pending anywhere (by the clock, up to
        // `settleLimit`: a count of passes without sleeping ran out in ~50 ms while a loaded
        // machine's edit queue was still measuring the kiosk's list, which then came out empty).
        let deadline = DispatchTime.now() + .seconds(settleLimit)
        var idlePasses = 0
        var pendingChange = afterLayout
        var settled = false
        while DispatchTime.now() < deadline {
            pass.run()
            pass.committer.commit()
            if pass.isDisplayComplete { idlePasses += 1 } else { idlePasses = 0 }
            // Once everything is laid out and shown: the caller's change of state (a list it
            // opens under a control laid out by now), then passes until that settles too.
            if idlePasses >= 2, let change = pendingChange { pendingChange = nil; change(); idlePasses = 0; continue }
            if idlePasses >= 2 { settled = true; break }
            usleep(pass.hasPendingWork ? 0 : 1000)
        }
        guard settled else { throw NotSettled(seconds: settleLimit) }
        if ProcessInfo.processInfo.environment["SILK_DEBUG_NODES"] != nil {
            print(root.recursiveDescription)
            func dump(_ l: Layer, _ d: Int) { print(String(repeating: "  ", count: d) + "\(l) contents: \(l.contents.map { "\($0)" } ?? "nil") bg: \(String(describing: l.backgroundColor))"); l.sublayers.forEach { dump($0, d + 1) } }
            dump(host, 0)
            print(pass.statistics)
        }
        let w = Int((size.width * scale).rounded(.up)), h = Int((size.height * scale).rounded(.up))
        let compositor = try Compositor(pixelWidth: w, pixelHeight: h, scale: scale, clearColor: background)
        // Animations (placeholder fade-ins) start at the first composite; the second one is far
        // past their end, so the snapshot shows the settled frame.
        let snapshot = host.snapshot()
        compositor.compositeFully(snapshot, at: 0)
        compositor.compositeFully(snapshot, at: 3600)
        return try compositor.backBuffer.copy()
    }

    /// Builds the tree on a background queue (nodes are thread-safe) and returns it.
    public static func buildInBackground<N: DisplayNode>(_ make: @escaping @Sendable () -> N) -> N {
        let box = Locked<N?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global(qos: .userInitiated).async {
            let node = make()
            box.withLock { $0 = node }
            done.signal()
        }
        done.wait()
        return box.current!
    }
}
