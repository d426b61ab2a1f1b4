import Foundation
import SilkGeometry
import SilkLayout
import SilkRunLoop

/// A node whose subnodes live in a content area larger than the node, shown through it at
/// `contentOffset` (Texture's ASScrollNode).
///
/// Scrolling moves the node's bounds origin: the layers under it move with their contents
/// untouched, and the compositor blits the pixels that merely moved. Nothing is redrawn.
///
/// **Content size.** With `automaticallyManagesContentSize`, the node's layout spec (set
/// `layoutSpecBlock`, or override `layoutSpecThatFits`) is laid out with unbounded length along
/// the scrollable directions, and the result is the content size. Otherwise set `contentSize`.
///
/// **Input** (main thread): a finger or a pointer drag scrolls once it moved `dragSlop` points
/// along a scrollable axis (a pan gesture recognizer, which also cancels the touch for a button
/// under the finger), and is flung on release; wheels and touchpads scroll (`.continuous`
/// deltas already carry the Wayland seat's fling); when focused (or a descendant is), arrows
/// scroll by `lineScrollDistance`, Page Up/Down by 90 % of the viewport, Home/End to the ends.
///
/// **Scroll indicator** (`showsScrollIndicator`, on by default — people scrolling by touch
/// expect to see where they are): a thin thumb along the right edge (the bottom, scrolling
/// sideways) whose length and position follow the content size and offset. It shows while the
/// user drags, flings, wheels or presses keys, and fades out (`LayerAnimation` of its opacity)
/// `scrollIndicatorFadeDelay` seconds after the content came to rest; code moving the offset
/// does not show it (call `flashScrollIndicators()` to). Its colour comes from the theme
/// (`ScrollIndicator.color(in:)`); it takes no touches.
///
/// **Motion** runs on `animationLoop`'s timers (default the main loop) at 60 Hz with the
/// `KineticAxis` model: deceleration, elastic or clamped edges, paging.
open class ScrollNode: DisplayNode, @unchecked Sendable {
    private var _scrollableDirections: ScrollDirections = .vertical
    private var _edgeBehavior: ScrollEdgeBehavior = .elastic
    private var _automaticallyManagesContentSize = false
    private var _contentSize: Size = .zero
    private var _isPagingEnabled = false
    private var _isScrollEnabled = true

    // Main-thread motion state.
    private var axes = (x: KineticAxis(position: 0), y: KineticAxis(position: 0))
    private var animationTimer: TimerToken?
    private var lastTick = 0.0
    private var drag: (origin: Point, startOffset: Point, tracker: VelocityTracker)?
    /// The loop whose (possibly virtual) clock drives decelerations and animated scrolls. Main
    /// thread (not locked), like the other tuning properties here.
    public var animationLoop: EventLoop?
    /// Points one arrow key scrolls. Main thread.
    public var lineScrollDistance = 40.0
    /// Wheel deltas (`.wheel` source) are multiplied by this (a click is ~10 points). Main thread.
    public var wheelMultiplier = 3.0
    /// How far a drag moves along a scrollable axis before it scrolls (and cancels the touch for
    /// the node under it). Main thread.
    public var dragSlop = 10.0
    /// Called on the main thread after every offset change. Set it on the main thread too.
    public var onScroll: ((ScrollNode) -> Void)?
    /// Whether a scroll indicator shows while the user scrolls (default true; `PagerNode`: false).
    /// Turning it off hides it at once. Main thread.
    public var showsScrollIndicator = true {
        didSet { if !showsScrollIndicator { hideScrollIndicators(animated: false) } }
    }
    /// Seconds the indicator stays after the last movement before it fades out (default 0.6).
    /// Main thread.
    public var scrollIndicatorFadeDelay = 0.6

    // Main-thread indicator state (ScrollIndicator.swift).
    var indicators: (vertical: ScrollIndicatorNode?, horizontal: ScrollIndicatorNode?) = (nil, nil)
    var indicatorFadeTimer: TimerToken?
    var lastIndicatorActivity = 0.0
    /// The offset is moving because of the user (a drag, its fling, a wheel, a key): the
    /// indicator shows.
    private var userMotion = false

    /// Creates a vertical scroll node with elastic edges; it clips and carries its pan recognizer.
    /// Any thread.
    public override init() {
        super.init()
        clipsToBounds = true
        lock.withLock {
            _accessibility.isElement = true
            _accessibility.role = .scrollPane
            _accessibility.actions = [.scrollForward, .scrollBackward]
        }
        let pan = ScrollPanRecognizer()
        addGestureRecognizer(pan)
    }

    // MARK: Configuration (any thread)

    /// The axes the content scrolls along (default `.vertical`). Any thread.
    public var scrollableDirections: ScrollDirections {
        get { lock.withLock { _scrollableDirections } }
        set { lock.withLock { _scrollableDirections = newValue }; setNeedsLayout() }
    }
    /// What happens at the ends of the content: `.elastic` (default) lets a drag pull past and
    /// springs back, `.clamped` stops there. Any thread.
    public var edgeBehavior: ScrollEdgeBehavior {
        get { lock.withLock { _edgeBehavior } }
        set { lock.withLock { _edgeBehavior = newValue } }
    }
    /// Content size from the layout spec (laid out unbounded along the scrollable directions). Any
    /// thread.
    public var automaticallyManagesContentSize: Bool {
        get { lock.withLock { _automaticallyManagesContentSize } }
        set { lock.withLock { _automaticallyManagesContentSize = newValue }; setNeedsLayout() }
    }
    /// Releases of a drag and flings come to rest on a multiple of the node's size. Any thread.
    public var isPagingEnabled: Bool {
        get { lock.withLock { _isPagingEnabled } }
        set { lock.withLock { _isPagingEnabled = newValue } }
    }
    /// Whether drags, wheels and keys scroll (default true); code can still set the offset. Any
    /// thread.
    public var isScrollEnabled: Bool {
        get { lock.withLock { _isScrollEnabled } }
        set { lock.withLock { _isScrollEnabled = newValue } }
    }
    /// The size of the scrolled content in points; the offset stays within it. Set it when
    /// `automaticallyManagesContentSize` is off (with it on, layout sets it). Any thread.
    public var contentSize: Size {
        get { lock.withLock { _contentSize } }
        set {
            let changed = lock.withLock { () -> Bool in defer { _contentSize = newValue }; return _contentSize != newValue }
            if changed { performOnPassThread { [self] in clampOffsetToContent(); placeScrollIndicators() } }
        }
    }

    /// The top-left of the viewport in content coordinates (whole points). Any thread.
    public var contentOffset: Point { boundsOrigin }

    /// The largest offset along each axis (0 when the content fits). Any thread.
    public var maximumContentOffset: Point {
        let s = contentSize, b = bounds.size
        return Point(x: max(0, s.width - b.width), y: max(0, s.height - b.height))
    }

    /// Whether the user is dragging the content. Main thread.
    public var isDragging: Bool { drag != nil }
    /// Whether the content is moving on its own (a fling, a spring-back, an animated scroll). Main
    /// thread.
    public var isDecelerating: Bool { animationTimer != nil }

    // MARK: Scrolling (main thread)

    /// Scrolls to `offset`, clamped to the content; `animated`: a critically damped spring on
    /// `animationLoop`'s clock (about 0.4 s). Stops any motion in progress. Main thread.
    public func setContentOffset(_ offset: Point, animated: Bool = false) {
        userMotion = false
        moveContentOffset(to: offset, animated: animated)
    }

    private func moveContentOffset(to offset: Point, animated: Bool) {
        let clamped = clamp(offset)
        if animated {
            beginMotion()
            axes.x = KineticAxis(position: axes.x.position, velocity: 0, mode: .spring(target: clamped.x))
            axes.y = KineticAxis(position: axes.y.position, velocity: 0, mode: .spring(target: clamped.y))
            startAnimationTimer()
        } else {
            stopMotion()
            axes.x.position = clamped.x; axes.y.position = clamped.y
            applyOffset(clamped)
        }
    }

    /// Scrolls by `delta` points at once (clamped). Returns whether the offset changed. Main
    /// thread.
    @discardableResult
    public func scroll(by delta: Point) -> Bool {
        let before = contentOffset
        setContentOffset(Point(x: before.x + delta.x, y: before.y + delta.y))
        return contentOffset != before
    }

    /// `.scrollForward` / `.scrollBackward` scroll by nine tenths of the viewport along the
    /// scrollable axis (vertical first); true when the offset changed. Main thread.
    open override func performAccessibilityAction(_ action: AccessibilityAction) -> Bool {
        let sign: Double
        switch action {
        case .scrollForward: sign = 1
        case .scrollBackward: sign = -1
        default: return super.performAccessibilityAction(action)
        }
        let page = bounds.size, vertical = scrollableDirections.contains(.vertical)
        return scroll(by: vertical ? Point(x: 0, y: sign * page.height * 0.9) : Point(x: sign * page.width * 0.9, y: 0))
    }

    /// Stops a fling or animation where it is. Main thread.
    public func stopMotion() {
        if let t = animationTimer { (animationLoop ?? EventLoop.main).cancelTimer(t) }
        animationTimer = nil
        axes.x.mode = .resting; axes.y.mode = .resting
        axes.x.velocity = 0; axes.y.velocity = 0
    }

    /// Main thread. Called after each offset change; containers update their ranges here.
    /// Call super when overriding.
    open func didScroll(from old: Point, to new: Point) { onScroll?(self) }

    /// Main thread. Called when a fling, spring-back or animated scroll came to rest.
    open func didEndDecelerating() {}

    func clamp(_ p: Point) -> Point {
        let m = maximumContentOffset, dirs = scrollableDirections
        return Point(x: dirs.contains(.horizontal) ? min(max(0, p.x), m.x) : 0,
                     y: dirs.contains(.vertical) ? min(max(0, p.y), m.y) : 0)
    }

    /// Sets the bounds origin (rounded to whole points, so the compositor can blit) and reports it;
    /// the indicator follows (and shows, when the user moves the content).
    private func applyOffset(_ raw: Point) {
        let p = Point(x: raw.x.rounded(), y: raw.y.rounded())
        let old = boundsOrigin
        guard p != old else { return }
        boundsOrigin = p
        if userMotion && showsScrollIndicator { showScrollIndicators() } else { placeScrollIndicators() }
        didScroll(from: old, to: p)
    }

    /// Runs a scroll the user asked for (a wheel, a key): the indicator shows; an animation it
    /// starts (paging) keeps it shown until it ends.
    private func byUser(_ body: () -> Void) {
        userMotion = true
        body()
        userMotion = animationTimer != nil
    }

    /// Keeps the offset inside the content after the content or the node changed size.
    func clampOffsetToContent() {
        guard drag == nil, animationTimer == nil else { return }
        let c = clamp(contentOffset)
        if c != contentOffset { axes.x.position = c.x; axes.y.position = c.y; applyOffset(c) }
    }

    /// The content moved under the viewport (items inserted above, a size change): the offset
    /// follows to keep what is on screen in place, and a drag or fling in progress carries on
    /// from there.
    func adjustOffsetForContentChange(to p: Point) {
        let c = drag == nil ? clamp(p) : p
        let old = contentOffset
        let d = Point(x: c.x - old.x, y: c.y - old.y)
        guard d != .zero else { return }
        if var dr = drag { dr.startOffset = Point(x: dr.startOffset.x + d.x, y: dr.startOffset.y + d.y); drag = dr }
        axes.x.position += d.x; axes.y.position += d.y
        if case let .spring(t) = axes.x.mode { axes.x.mode = .spring(target: t + d.x) }
        if case let .spring(t) = axes.y.mode { axes.y.mode = .spring(target: t + d.y) }
        if animationTimer == nil && drag == nil { axes.x.position = c.x; axes.y.position = c.y }
        applyOffset(c)
    }

    private func beginMotion() {
        let o = contentOffset
        if animationTimer == nil { axes.x.position = o.x; axes.y.position = o.y }
    }

    private var loopSeconds: Double {
        let loop = animationLoop ?? EventLoop.main
        return Double(loop.now.nanoseconds) / 1e9
    }

    private func startAnimationTimer() {
        guard animationTimer == nil else { return }
        let loop = animationLoop ?? EventLoop.main
        lastTick = loopSeconds
        animationTimer = loop.addTimer(after: .microseconds(16_667), repeating: .microseconds(16_667)) { [weak self] in
            self?.animationTick()
        }
    }

    private func animationTick() {
        let now = loopSeconds
        let dt = now - lastTick
        lastTick = now
        let m = maximumContentOffset, edges = edgeBehavior
        axes.x.advance(by: dt, maxOffset: m.x, edges: edges)
        axes.y.advance(by: dt, maxOffset: m.y, edges: edges)
        applyOffset(Point(x: axes.x.position, y: axes.y.position))
        if !axes.x.isMoving && !axes.y.isMoving {
            if let t = animationTimer { (animationLoop ?? EventLoop.main).cancelTimer(t) }
            animationTimer = nil
            userMotion = false
            didEndDecelerating()
        }
    }

    // MARK: Dragging (the pan recognizer calls these; main thread)

    func dragBegan() {
        // A finger on moving content catches it.
        if animationTimer != nil { stopMotion(); userMotion = false }
    }

    func dragRecognized(at location: Point, time: Double) {
        stopMotion()
        userMotion = true
        flashScrollIndicators()
        var tracker = VelocityTracker()
        tracker.add(location, at: time)
        drag = (location, contentOffset, tracker)
    }

    func dragMoved(to location: Point, time: Double) {
        guard var d = drag else { return }
        d.tracker.add(location, at: time)
        drag = d
        let dirs = scrollableDirections
        let wanted = Point(x: dirs.contains(.horizontal) ? d.startOffset.x - (location.x - d.origin.x) : 0,
                           y: dirs.contains(.vertical) ? d.startOffset.y - (location.y - d.origin.y) : 0)
        let m = maximumContentOffset, size = bounds.size
        func resist(_ v: Double, _ maxV: Double, _ dim: Double) -> Double {
            if v < 0 { return edgeBehavior == .elastic ? KineticAxis.rubberBand(v, dimension: dim) : 0 }
            if v > maxV { return edgeBehavior == .elastic ? maxV + KineticAxis.rubberBand(v - maxV, dimension: dim) : maxV }
            return v
        }
        let p = Point(x: resist(wanted.x, m.x, size.width), y: resist(wanted.y, m.y, size.height))
        axes.x.position = p.x; axes.y.position = p.y
        applyOffset(p)
    }

    func dragEnded(time: Double, cancelled: Bool) {
        guard let d = drag else { return }
        drag = nil
        // The fling that follows still shows the indicator; at rest, the idle countdown runs
        // from the release.
        defer { userMotion = animationTimer != nil; lastIndicatorActivity = Double((animationLoop ?? EventLoop.main).now.nanoseconds) / 1e9 }
        let v = cancelled ? .zero : d.tracker.velocity(at: time)
        // Content moves against the finger.
        let dirs = scrollableDirections
        axes.x.velocity = dirs.contains(.horizontal) ? -v.x : 0
        axes.y.velocity = dirs.contains(.vertical) ? -v.y : 0
        if isPagingEnabled {
            let size = bounds.size
            func page(_ pos: Double, _ vel: Double, _ start: Double, _ dim: Double, _ maxV: Double) -> Double {
                guard dim > 0 else { return 0 }
                let startPage = (start / dim).rounded()
                let projected = ((pos + Deceleration.projectedDistance(velocity: vel)) / dim).rounded()
                let target = min(max(projected, startPage - 1), startPage + 1) * dim
                return min(max(0, target), maxV)
            }
            let m = maximumContentOffset
            axes.x.mode = .spring(target: page(axes.x.position, axes.x.velocity, d.startOffset.x, size.width, m.x))
            axes.y.mode = .spring(target: page(axes.y.position, axes.y.velocity, d.startOffset.y, size.height, m.y))
        } else {
            axes.x.mode = .decelerating
            axes.y.mode = .decelerating
        }
        // Nothing to do when at rest inside the content.
        let m = maximumContentOffset
        let inside = axes.x.position >= 0 && axes.x.position <= m.x && axes.y.position >= 0 && axes.y.position <= m.y
        if !isPagingEnabled && inside && abs(axes.x.velocity) < Deceleration.minimumSpeed && abs(axes.y.velocity) < Deceleration.minimumSpeed {
            axes.x.mode = .resting; axes.y.mode = .resting
            return
        }
        startAnimationTimer()
    }

    // MARK: Wheel and keys

    /// Scrolls by the wheel (× `wheelMultiplier`) or touchpad delta along the scrollable axes — a
    /// vertical wheel scrolls a horizontal-only node — or a page at a time when paging. Consumed
    /// whenever it could scroll.
    open override func scrollWheel(_ delta: ScrollDelta, at location: Point, with event: InputEvent) -> Bool {
        guard isScrollEnabled else { return false }
        let dirs = scrollableDirections
        let k = delta.source == .wheel ? wheelMultiplier : 1
        var d = Point(x: dirs.contains(.horizontal) ? delta.dx * k : 0, y: dirs.contains(.vertical) ? delta.dy * k : 0)
        // A plain vertical wheel scrolls a horizontal-only container.
        if dirs == .horizontal && delta.dx == 0 { d.x = delta.dy * k }
        guard d != .zero else { return false }
        if drag != nil { return true }
        if isPagingEnabled {
            let page = bounds.size
            let axisDelta = dirs.contains(.horizontal) ? d.x : d.y
            let size = dirs.contains(.horizontal) ? page.width : page.height
            let current = dirs.contains(.horizontal) ? contentOffset.x : contentOffset.y
            let target = ((current / max(size, 1)).rounded() + (axisDelta > 0 ? 1 : -1)) * size
            byUser { moveContentOffset(to: dirs.contains(.horizontal) ? Point(x: target, y: 0) : Point(x: 0, y: target), animated: true) }
            return true
        }
        byUser { moveContentOffset(to: Point(x: contentOffset.x + d.x, y: contentOffset.y + d.y), animated: false) }
        return true
    }

    /// Arrows scroll by `lineScrollDistance` (a page when paging horizontally), Page Up/Down by
    /// nine tenths of the viewport, Home/End to the ends.
    open override func keyDown(_ key: KeyInput) -> Bool {
        guard isScrollEnabled else { return false }
        let dirs = scrollableDirections
        let vertical = dirs.contains(.vertical)
        let page = (vertical ? bounds.height : bounds.width) * 0.9
        let o = contentOffset, m = maximumContentOffset
        func along(_ d: Double) -> Point { vertical ? Point(x: 0, y: d) : Point(x: d, y: 0) }
        switch key.key {
        case .up where vertical: return scrollOrStop(Point(x: 0, y: -lineScrollDistance))
        case .down where vertical: return scrollOrStop(Point(x: 0, y: lineScrollDistance))
        case .left where dirs.contains(.horizontal): return scrollOrStop(Point(x: isPagingEnabled ? -bounds.width : -lineScrollDistance, y: 0))
        case .right where dirs.contains(.horizontal): return scrollOrStop(Point(x: isPagingEnabled ? bounds.width : lineScrollDistance, y: 0))
        case .pageUp: return scrollOrStop(along(-page))
        case .pageDown: return scrollOrStop(along(page))
        case .home: byUser { moveContentOffset(to: vertical ? Point(x: o.x, y: 0) : Point(x: 0, y: o.y), animated: false) }; return true
        case .end: byUser { moveContentOffset(to: vertical ? Point(x: o.x, y: m.y) : Point(x: m.x, y: o.y), animated: false) }; return true
        default: return false
        }
    }

    private func scrollOrStop(_ d: Point) -> Bool {
        byUser { moveContentOffset(to: Point(x: contentOffset.x + d.x, y: contentOffset.y + d.y), animated: false) }
        return true
    }

    // MARK: Coordinates and layout

    /// Adds the content offset: subnodes' frames are in content coordinates.
    open override func convertToSubnodeSpace(_ point: Point) -> Point {
        let o = boundsOrigin
        return Point(x: point.x + o.x, y: point.y + o.y)
    }
    /// Removes the content offset.
    open override func convertFromSubnodeSpace(_ point: Point) -> Point {
        let o = boundsOrigin
        return Point(x: point.x - o.x, y: point.y - o.y)
    }

    /// The spec from `layoutSpecBlock` (or a subclass); with `automaticallyManagesContentSize`,
    /// laid out unbounded along the scrollable directions so its size becomes the content size.
    open override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        let inner = super.layoutSpecThatFits(constrainedSize)
        guard let inner, automaticallyManagesContentSize else { return inner }
        return ScrollContentSpec(child: inner, directions: scrollableDirections)
    }

    override func layoutDidApply(_ layout: Layout) {
        if automaticallyManagesContentSize, let spec = layout.sublayouts.first, spec.element is ScrollContentSpec,
           let content = spec.sublayouts.first {
            contentSize = content.size
        }
        clampOffsetToContent()
        // A new size or content size moves the thumbs; content added since goes under them.
        placeScrollIndicators()
        bringScrollIndicatorToFront()
    }
}

/// Lays its child out with unbounded length along the scrollable directions, as a scroll
/// container lays out its content: the container keeps its own size and the content extends
/// beyond it.
struct ScrollContentSpec: LayoutElement {
    let child: any LayoutElement
    let directions: ScrollDirections
    var style: Style { Style() }
    var sublayoutElements: [any LayoutElement] { [child] }

    func calculateLayoutThatFits(_ constrainedSize: SizeRange, context: LayoutContext) throws(LayoutError) -> Layout {
        let v = directions.contains(.vertical), h = directions.contains(.horizontal)
        let content = SizeRange(min: Size(width: h ? 0 : constrainedSize.min.width, height: v ? 0 : constrainedSize.min.height),
                                max: Size(width: h ? .infinity : constrainedSize.max.width, height: v ? .infinity : constrainedSize.max.height))
        let inner = try child.layoutThatFits(content, parentSize: Size(width: h ? .nan : constrainedSize.max.width,
                                                                       height: v ? .nan : constrainedSize.max.height),
                                             context: context)
        return Layout(element: self, size: constrainedSize.clamp(inner.size), sublayouts: [inner])
    }
}

/// The scroll container's pan: recognizes once a touch moved `dragSlop` along a scrollable axis
/// (cancelling the touch for the node under it, e.g. a button or a cell), then drives the
/// container's drag; the release flings.
final class ScrollPanRecognizer: GestureRecognizer, @unchecked Sendable {
    private var scrollNode: ScrollNode? { node as? ScrollNode }

    override func touchBegan(_ touch: Touch) {
        guard touches.count == 1 else { return }
        scrollNode?.dragBegan()
    }

    override func touchMoved(_ touch: Touch) {
        guard let s = scrollNode, touch.source == touches.first?.source else { return }
        if state == .possible {
            guard s.isScrollEnabled else { fail(); return }
            let dx = touch.location.x - touch.startLocation.x, dy = touch.location.y - touch.startLocation.y
            let dirs = s.scrollableDirections
            let along = max(dirs.contains(.horizontal) ? abs(dx) : 0, dirs.contains(.vertical) ? abs(dy) : 0)
            let across = max(dirs.contains(.horizontal) ? 0 : abs(dx), dirs.contains(.vertical) ? 0 : abs(dy))
            if along > s.dragSlop {
                recognize()
                s.dragRecognized(at: touch.location, time: touch.timestamp)
            } else if across > s.dragSlop {
                // Moving across a one-axis container: not a scroll (an outer container's).
                fail()
            }
        } else if state == .recognized {
            s.dragMoved(to: touch.location, time: touch.timestamp)
        }
    }

    override func touchEnded(_ touch: Touch) {
        guard state == .recognized, touch.source == touches.first?.source else { fail(); return }
        scrollNode?.dragMoved(to: touch.location, time: touch.timestamp)
        scrollNode?.dragEnded(time: touch.timestamp, cancelled: false)
    }

    override func touchCancelled(_ touch: Touch) {
        if state == .recognized { scrollNode?.dragEnded(time: touch.timestamp, cancelled: true) }
        fail()
    }
}
