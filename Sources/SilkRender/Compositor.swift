import Foundation
import SilkGeometry
import SilkRaster
import SilkSystem

/// Composites layer-tree snapshots into a cached back buffer, repainting only what changed.
///
/// Each call flattens the snapshot into a render list (device-space entries in paint order),
/// diffs it against the previous frame's list to find the damaged rectangles, and repaints only
/// those: per rectangle it starts from the topmost entry that covers it opaquely, and draws the
/// entries above it clipped to the rectangle. Opaque, pixel-aligned contents at 1:1 take pixman's
/// SRC path. Scrolling changes only transforms, so content bitmaps are never re-rasterized.
///
/// A large frame's damage is painted in horizontal bands by several threads at once
/// (``compositeThreads``; see `CompositeBands.swift`), with the same pixels as one thread.
///
/// Used by the render thread (one compositor per window); not thread-safe itself.
public final class Compositor {
    /// The composited frame, in device pixels; valid between `composite` calls (the presenter
    /// copies from it).
    public private(set) var backBuffer: Bitmap
    /// Device pixels per point.
    public private(set) var scale: Double
    /// What shows where no layer paints.
    public var clearColor: Color
    /// Skip pixels that opaque layers above will cover (on by default; off gives the naive
    /// painter's algorithm, which the property test uses as its reference).
    public var occlusionCulling = true
    /// Move already-composited pixels when content scrolls by whole pixels (on by default; the
    /// property test's reference turns it off).
    public var scrollBlits = true
    /// Whether animations that end in this compositor's frames count as ended: their
    /// completions are returned in ``Frame/completions`` and they never play again. True for a
    /// window's render thread; an off-screen render of a live tree (`Window.renderImage()`)
    /// sets it to false, so settling the tree there neither runs completions nor cuts the
    /// window's own animations short.
    public var endsAnimations = true
    /// Threads that paint a frame's damage together, each a horizontal band at a time: the
    /// calling (render) thread and `compositeThreads − 1` persistent workers, started on the
    /// first banded frame. 1 turns banding off. Default: `SILK_COMPOSITE_THREADS` when set
    /// (1…8), else the number of cores up to 4 (so off on one core). The pixels are the same
    /// either way; see ``bandingMinimumPixels`` for when a frame is banded.
    public var compositeThreads = Compositor.defaultCompositeThreads
    /// Damage smaller than this (device pixels) is painted by the calling thread alone: waking
    /// a worker costs more than it saves on a small update (default 65,536, a 256 × 256 square).
    /// Frames whose damage touches a group or a shadowed layer are never banded (their offscreen
    /// buffers and shadow cache are the compositor's own).
    public var bandingMinimumPixels = 65_536.0

    /// `SILK_COMPOSITE_THREADS` (1…8), else min(cores, 4).
    public static let defaultCompositeThreads =
        SilkConfiguration.current.compositeThreads ?? max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
    /// Bands per thread (1…8): more bands than threads let a thread that started late (a busy
    /// machine) take less of the frame, but each band boundary splits the layers crossing it
    /// into one more draw. Default: `SILK_COMPOSITE_BANDS_PER_THREAD` when set, else 2.
    public var bandsPerThread = Compositor.defaultBandsPerThread

    static let defaultBandsPerThread = SilkConfiguration.current.compositeBandsPerThread ?? 2
    private var bandWorkers: BandWorkerPool?
    /// Slots 1… of banded frames (slot 0 is made per frame over `coverageMasks`).
    private var workerSlots: [BandSlot] = []

    private var previous: [RenderEntry] = []
    private var animationClock = AnimationClock()
    private var needsFullRepaint = true
    /// Blurred shadow bitmaps by pixel size, radius and colour (LayerEffects.swift).
    var shadowCache: [ShadowKey: Bitmap] = [:]
    /// Coverage masks of the rounded shapes drawn: layers are redrawn every frame they move or
    /// sit in damage, mostly moved by whole pixels, and their edges need not be rasterized again.
    let coverageMasks = CoverageMaskCache()

    /// Counters of the last composited frame (`SILK_RENDER_STATS=1`, the benchmark).
    public struct Statistics: Sendable {
        /// Render-list entries (drawing layers) in the frame.
        public var entries = 0
        /// Rectangles repainted.
        public var damagedRects = 0
        /// Device pixels repainted (the sum of the damaged rectangles' areas).
        public var damagedPixels = 0.0
        /// Entries drawn into damaged rectangles (an entry drawn into two rectangles counts twice).
        public var entriesDrawn = 0
        /// Draws that took pixman's SRC path (opaque, pixel-aligned, 1:1) instead of blending.
        public var srcFastPaths = 0
        /// Pixels moved by a scroll blit instead of being repainted.
        public var scrolledPixels = 0.0
        /// Bands the damage was painted in (0: not banded, painted by the calling thread alone).
        public var bands = 0
        /// Bands the workers painted (the rest were painted by the calling thread).
        public var bandsByWorkers = 0
        /// CPU time the band workers spent on the frame, milliseconds (the calling thread's
        /// own is not included: measure it around ``Compositor/composite(_:at:)``).
        public var workerCPUMs = 0.0
    }
    /// The statistics of the most recent ``composite(_:at:)``.
    public private(set) var lastStatistics = Statistics()

    /// A compositor with a back buffer of `pixelWidth` × `pixelHeight` device pixels at `scale`
    /// pixels per point; throws when the size is invalid. The first frame repaints everything.
    public init(pixelWidth: Int, pixelHeight: Int, scale: Double = 1, clearColor: Color = .white) throws(RasterError) {
        backBuffer = try Bitmap(width: pixelWidth, height: pixelHeight)
        self.scale = scale.isFinite && scale > 0 ? scale : 1
        self.clearColor = clearColor
    }

    deinit { bandWorkers?.stop() }

    /// Changes the back buffer size (a window resize); the next frame repaints everything.
    public func resize(pixelWidth: Int, pixelHeight: Int, scale: Double) throws(RasterError) {
        if pixelWidth != backBuffer.width || pixelHeight != backBuffer.height {
            backBuffer = try Bitmap(width: pixelWidth, height: pixelHeight)
        }
        self.scale = scale.isFinite && scale > 0 ? scale : 1
        invalidateAll()
    }

    /// Forces the next frame to repaint the whole buffer.
    public func invalidateAll() { needsFullRepaint = true }

    /// The result of compositing one frame.
    public struct Frame: Sendable {
        /// What changed in the back buffer, in device pixels (empty: nothing to present).
        public var damage: DamageRegion
        /// Some animation is still running: composite again next frame even without a commit.
        public var hasRunningAnimations: Bool
        /// Completions of animations that ended in this frame, to run on the main loop (the
        /// render thread hands them to its ``RenderThread/completionHandler``); tests that
        /// drive a compositor themselves call them.
        public var completions: [@Sendable () -> Void] = []
        /// Some running animation will end by itself (animations that repeat forever do not
        /// count): what `RenderThread.waitUntilPresented(includingAnimations:)` waits for.
        public var hasEndingAnimations = false
    }

    /// Composites `root` as of `time` (seconds on the frame clock) into the back buffer.
    @discardableResult
    public func composite(_ root: LayerSnapshot, at time: Double) -> Frame {
        let screen = backBuffer.bounds
        animationClock.endsAnimations = endsAnimations
        var builder = RenderListBuilder(screen: screen, time: time, clock: animationClock)
        animationClock = AnimationClock()  // moved into the builder: its dictionaries stay unshared
        let list = builder.build(root, rootTransform: AffineTransform(scaleX: scale, y: scale))
        animationClock = builder.clock

        var region = DamageRegion()
        var moved: Rect? = nil
        if needsFullRepaint {
            region.add(screen)
            needsFullRepaint = false
        } else {
            var oldIndex: [Layer.LayerID: Int] = [:]
            oldIndex.reserveCapacity(previous.count)
            for i in previous.indices { oldIndex[previous[i].id] = i }  // in place: no entry copies
            if scrollBlits, let (blit, movers) = ScrollBlit.detect(old: previous, new: list, oldIndex: oldIndex) {
                let area = blit.area.intersection(screen)
                if !area.isEmpty {
                    backBuffer.move(area.offsetBy(dx: -blit.dx, dy: -blit.dy), by: Int(blit.dx), Int(blit.dy))
                    moved = area
                }
                scrollDamage(from: previous, to: list, oldIndex: oldIndex, blit: blit, movers: movers, into: &region)
            } else {
                damage(from: previous, to: list, oldIndex: oldIndex, into: &region)
            }
        }
        region = region.clipped(to: screen)
        var stats = Statistics(entries: list.count)
        if !paintBanded(region, list: list, stats: &stats) {
            let canvas = Canvas(bitmap: backBuffer, scale: 1)
            canvas.coverageMasks = coverageMasks
            for rect in region.rects { repaint(rect, list: list, canvas: canvas, target: backBuffer, stats: &stats) }
        }
        stats.damagedRects = region.rects.count
        stats.damagedPixels = region.area
        stats.scrolledPixels = moved.map { $0.width * $0.height } ?? 0
        lastStatistics = stats
        previous = list
        // The presenter must update everything that changed: the repainted damage and the
        // moved pixels.
        var presented = region
        if let moved { presented.add(moved) }
        return Frame(damage: presented.clipped(to: screen), hasRunningAnimations: animationClock.hasRunningAnimations,
                     completions: animationClock.completions, hasEndingAnimations: animationClock.hasEndingAnimations)
    }

    /// Repaints the whole buffer from `root` regardless of damage (the reference the property
    /// test compares damage-only frames against).
    public func compositeFully(_ root: LayerSnapshot, at time: Double) {
        invalidateAll()
        composite(root, at: time)
    }

    /// Paints `region` in horizontal bands on several threads when it is large enough and
    /// nothing in it needs the compositor's own mutable state (groups, shadows); false when it
    /// did not (the caller paints it on this thread).
    ///
    /// Each band paints through its own `Bitmap` (a pixman image of its own) over the back
    /// buffer's memory — rows 0 up to the band's end, so no write can go below it — with a
    /// canvas clipped to the band's rows, so every pixman object a band mutates (the
    /// destination's clip, a source's transform and filter: sources are drawn through views of
    /// their own) is its own. Coordinates are the back buffer's, unchanged: the draws are the
    /// same calls with smaller clips, and the paths drawn never depend on the clip (which the
    /// damage-only property test already relies on), so the pixels are the same.
    /// The render list, damage and entries' bitmaps are only read while the bands run.
    private func paintBanded(_ region: DamageRegion, list: [RenderEntry], stats: inout Statistics) -> Bool {
        let threads = min(8, compositeThreads)
        guard threads > 1, region.area >= bandingMinimumPixels else { return false }
        let bounds = region.bounds
        for i in list.indices where list[i].group != nil || list[i].shadow != nil {
            if list[i].deviceRect.intersects(bounds) { return false }
        }
        let bands = BandLayout.bands(for: region.rects, count: threads * min(8, max(1, bandsPerThread)))
        guard bands.count > 1 else { return false }
        if bandWorkers == nil || bandWorkers!.workers != threads - 1 {
            bandWorkers?.stop()
            bandWorkers = BandWorkerPool(workers: threads - 1)
            workerSlots = (1..<threads).map { _ in BandSlot(coverageMasks: CoverageMaskCache()) }
        }
        let slots = [BandSlot(coverageMasks: coverageMasks)] + workerSlots
        for s in slots { s.stats = Statistics() }
        let buffer = backBuffer, rects = region.rects
        let (workerCPU, bandsBySlot) = bandWorkers!.run(bands: bands.count) { [self] slot, band in
            let rows = bands[band]
            let bandRect = Rect(x: 0, y: Double(rows.lowerBound), width: Double(buffer.width), height: Double(rows.count))
            guard let target = try? Bitmap(wrapping: buffer.data, width: buffer.width, height: rows.upperBound,
                                           stride: buffer.stride, format: buffer.format, owner: buffer) else { return }
            let s = slots[slot]
            let canvas = Canvas(bitmap: target, scale: 1)
            canvas.coverageMasks = s.coverageMasks
            canvas.isolatesSourceImages = true
            canvas.clip(toDeviceRect: bandRect)
            for r in rects {
                let piece = r.intersection(bandRect)
                if !piece.isEmpty { repaint(piece, list: list, canvas: canvas, target: target, stats: &s.stats) }
            }
        }
        for s in slots {
            stats.entriesDrawn += s.stats.entriesDrawn
            stats.srcFastPaths += s.stats.srcFastPaths
        }
        stats.bands = bands.count
        stats.bandsByWorkers = bandsBySlot.dropFirst().reduce(0, +)
        stats.workerCPUMs = Double(workerCPU) / 1e6
        return true
    }

    /// Repaints `rect` (within `canvas`'s clip) through `canvas`, which draws into `target`.
    private func repaint(_ rect: Rect, list: [RenderEntry], canvas: Canvas, target: Bitmap, stats: inout Statistics) {
        // Walk from the top down, tracking what is still uncovered: each entry is painted only
        // where no opaque entry above it paints (occlusion culling), and the walk stops when
        // nothing is left uncovered. Then paint bottom-up in those pieces.
        var uncovered = [rect]
        var pieces: [(index: Int, rects: [Rect])] = []
        // The entries are read in place (`list[i].…`), not copied: a copy retains and releases
        // every reference an entry holds, for each entry under each damage rectangle (1.2 % of
        // a many-layers frame).
        for i in stride(from: list.count - 1, through: 0, by: -1) {
            let deviceRect = list[i].deviceRect
            guard deviceRect.intersects(rect) else { continue }
            let visible = uncovered.compactMap { r -> Rect? in let v = r.intersection(deviceRect); return v.isEmpty ? nil : v }
            guard !visible.isEmpty else { continue }
            pieces.append((i, visible))
            if occlusionCulling, let opaque = list[i].opaqueRect {
                uncovered = subtract(opaque, from: uncovered)
                if uncovered.isEmpty { break }
                if uncovered.count > 64 { uncovered = [uncovered.reduce(Rect.null) { $0.union($1) }] }
            }
        }
        for r in uncovered { target.fill(clearColor, rect: r) }
        for (i, rects) in pieces.reversed() {
            stats.entriesDrawn += 1
            for v in rects { draw(list[i], visible: v, canvas: canvas, target: target, stats: &stats) }
        }
    }

    /// Paints `e` within `visible` into `target` (the back buffer, or a group's offscreen
    /// buffer), through `canvas` drawing into `target`.
    func draw(_ e: RenderEntry, visible: Rect, canvas: Canvas, target: Bitmap, stats: inout Statistics) {
        if e.group != nil { return drawGroup(e, visible: visible, canvas: canvas, stats: &stats) }
        // SRC fast path: opaque contents at 1:1 on the pixel grid.
        if e.shadow == nil, let contents = e.contents, e.isOpaque, e.opacity >= 1, e.cornerRadius == 0, e.transform.isTranslation,
           e.contentsGravity == .scaleToFill, e.borderWidth == 0,
           Double(contents.width) == e.bounds.width * e.transform.a, Double(contents.height) == e.bounds.height * e.transform.d {
            let origin = e.transform.apply(to: Point(x: e.bounds.minX, y: e.bounds.minY))
            if origin.x == origin.x.rounded(), origin.y == origin.y.rounded() {
                let src = visible.offsetBy(dx: -origin.x, dy: -origin.y)
                // A band paints from a view of its own: pixman validates a source image on use.
                let source = canvas.isolatesSourceImages ? (contents.view() ?? contents) : contents
                target.composite(source, from: src, to: visible.origin, operation: .source)
                stats.srcFastPaths += 1
                return
            }
        }
        canvas.withSavedState {
            canvas.clip(toDeviceRect: visible)
            canvas.concatenate(e.transform)
            canvas.multiplyOpacity(e.opacity)
            let b = e.bounds
            if e.isCornerOverlay { return drawCornerOverlay(e, canvas: canvas) }
            drawShadow(e, canvas: canvas)
            if let bg = e.backgroundColor {
                if e.cornerRadius > 0 { canvas.fillRoundedRect(b, cornerRadius: e.cornerRadius, with: .color(bg)) }
                else { canvas.fill(b, with: .color(bg)) }
            }
            if let contents = e.contents {
                canvas.draw(contents, in: b, contentMode: e.contentsGravity, filter: .bilinear,
                            imageScale: e.contentsScale,
                            cornerRadius: e.clipsContents ? e.cornerRadius : 0)
            }
            if let bc = e.borderColor, e.borderWidth > 0 {
                let h = e.borderWidth / 2
                canvas.strokeRoundedRect(b.insetBy(dx: h, dy: h), cornerRadius: max(0, e.cornerRadius - h),
                                         lineWidth: e.borderWidth, with: .color(bc))
            }
        }
    }
}
