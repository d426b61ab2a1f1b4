import Foundation
import SilkGeometry
import SilkLayout
import SilkRender
import SilkRunLoop

/// Where a scroll indicator's thumb goes (pure functions, any thread): the thumb is as long,
/// relative to its track, as the viewport is relative to the content, and sits as far along
/// the track as the offset is along the scrollable range. Pulled past an end (an elastic edge),
/// it shrinks by the overshoot, as UIKit's does, never below `minimumLength`.
public enum ScrollIndicator {
    /// The thumb's thickness across the axis, in points.
    public static let thickness = 4.0
    /// Space between the thumb and the container's edges, in points.
    public static let inset = 3.0
    /// The shortest thumb, in points (so a long list's thumb stays visible and touchable).
    public static let minimumLength = 32.0

    /// A thumb along one axis: where it starts on the track and how long it is (points).
    public struct Thumb: Hashable, Sendable {
        /// From the start of the track.
        public var start: Double
        /// Along the axis.
        public var length: Double
    }

    /// The thumb for content `contentLength` long seen through `viewportLength` at `offset`, on
    /// a track `trackLength` long; nil when there is nothing to indicate: the content fits the
    /// viewport, or a length is zero, negative or not finite (a NaN offset counts as 0).
    public static func thumb(viewportLength: Double, contentLength: Double, offset: Double, trackLength: Double,
                             minimumLength: Double = ScrollIndicator.minimumLength) -> Thumb? {
        guard viewportLength.isFinite, contentLength.isFinite, trackLength.isFinite,
              viewportLength > 0, trackLength > 0, contentLength > viewportLength else { return nil }
        let offset = offset.isFinite ? offset : 0
        let shortest = min(trackLength, max(0, minimumLength.isFinite ? minimumLength : 0))
        let maxOffset = contentLength - viewportLength
        let overshoot = offset < 0 ? -offset : max(0, offset - maxOffset)
        var length = trackLength * viewportLength / contentLength
        length -= overshoot * trackLength / viewportLength
        length = min(trackLength, max(shortest, length))
        let fraction = min(1, max(0, offset / maxOffset))
        return Thumb(start: fraction * (trackLength - length), length: length)
    }

    /// The thumbs' frames in the container's own coordinates (0, 0 at the top left of what is
    /// shown) for `viewport`, `contentSize` and `offset`: the vertical one along the right edge
    /// (the left, right to left), the horizontal one along the bottom; nil for an axis that does
    /// not scroll or whose content fits. With both, each track stops short of the corner.
    public static func frames(viewport: Size, contentSize: Size, offset: Point, directions: ScrollDirections,
                              rightToLeft: Bool = false) -> (vertical: Rect?, horizontal: Rect?) {
        let both = directions.contains(.vertical) && directions.contains(.horizontal)
        let corner = both ? thickness + inset : 0
        var vertical: Rect?, horizontal: Rect?
        if directions.contains(.vertical),
           let t = thumb(viewportLength: viewport.height, contentLength: contentSize.height, offset: offset.y,
                         trackLength: viewport.height - 2 * inset - corner) {
            let x = rightToLeft ? inset : viewport.width - inset - thickness
            vertical = Rect(x: x, y: inset + t.start, width: thickness, height: t.length)
        }
        if directions.contains(.horizontal),
           let t = thumb(viewportLength: viewport.width, contentLength: contentSize.width, offset: offset.x,
                         trackLength: viewport.width - 2 * inset - corner) {
            horizontal = Rect(x: inset + t.start, y: viewport.height - inset - thickness, width: t.length, height: thickness)
        }
        // A thumb in a container too small to hold it is not shown.
        if !(viewport.width >= thickness + 2 * inset) { vertical = nil }
        if !(viewport.height >= thickness + 2 * inset) { horizontal = nil }
        return (vertical, horizontal)
    }

    /// The thumb's colour in `theme`: its secondary text colour, translucent.
    public static func color(in theme: Theme) -> Color {
        let c = theme.colors.secondaryText
        return Color(red: c.red, green: c.green, blue: c.blue, alpha: 0.6 * c.alpha)
    }
}

/// One thumb of a `ScrollNode`'s indicator: a rounded bar drawn by its layer (no bitmap), in
/// the theme's colour, that takes no touches. Its frame is in the container's content
/// coordinates, so the container moves it with every offset change.
final class ScrollIndicatorNode: DisplayNode, ThemeObserver, @unchecked Sendable {
    override init() {
        super.init()
        name = "scroll-indicator"
        isUserInteractionEnabled = false
        cornerRadius = ScrollIndicator.thickness / 2
        opacity = 0
    }

    /// Main thread: the effective theme changed; the thumb's colour follows (a layer colour,
    /// nothing is redrawn).
    func effectiveThemeDidChange() { applyTheme() }

    func applyTheme() {
        let c = ScrollIndicator.color(in: effectiveTheme)
        if backgroundColor != c { backgroundColor = c }
    }
}

// The indicator's life in its container (main thread): shown while the user scrolls (drags,
// flings, wheels, keys) — not when code sets the offset, unless it calls
// `flashScrollIndicators()` — and faded out `scrollIndicatorFadeDelay` seconds after the last
// movement once the finger is up and the content at rest.
extension ScrollNode {
    /// Shows the indicator where it belongs now and restarts the idle countdown (UIKit's
    /// `flashScrollIndicators`). Does nothing when `showsScrollIndicator` is off or the content
    /// fits. Main thread.
    public func flashScrollIndicators() {
        guard showsScrollIndicator else { return }
        showScrollIndicators()
    }

    /// Whether a thumb of the indicator is shown now (opaque, or fading out). Main thread.
    public var isShowingScrollIndicator: Bool {
        [indicators.vertical, indicators.horizontal].contains { ($0?.opacity ?? 0) > 0 }
    }

    /// The frames (content coordinates) of the indicator's thumbs now, nil for an axis without
    /// one; for tests and diagnostics. Main thread.
    public var scrollIndicatorFrames: (vertical: Rect?, horizontal: Rect?) {
        (indicators.vertical?.frame, indicators.horizontal?.frame)
    }

    func showScrollIndicators() {
        let shown = placeScrollIndicators(creating: true)
        guard shown else { return }
        lastIndicatorActivity = loopNow
        for n in [indicators.vertical, indicators.horizontal].compactMap({ $0 }) where n.opacity < 1 {
            n.applyTheme()
            n.opacity = 1
            n.addAnimation(LayerAnimation(property: .opacity(from: 0, to: nil), duration: 0.12, beginsFromCurrentState: true))
        }
        scheduleIndicatorFade(after: scrollIndicatorFadeDelay)
    }

    /// Moves the thumbs to where the offset and content size put them; with `creating`, makes
    /// the thumb nodes an axis needs. Returns whether any thumb has a place. Main thread.
    @discardableResult
    func placeScrollIndicators(creating: Bool = false) -> Bool {
        guard showsScrollIndicator else { hideScrollIndicators(animated: false); return false }
        if !creating && indicators.vertical == nil && indicators.horizontal == nil { return false }
        let o = contentOffset
        let f = ScrollIndicator.frames(viewport: bounds.size, contentSize: contentSize, offset: o,
                                       directions: scrollableDirections, rightToLeft: layoutDirection == .rtl)
        func place(_ frame: Rect?, _ node: ScrollIndicatorNode?) -> ScrollIndicatorNode? {
            guard let frame else { node?.opacity = 0; return node }
            let n = node ?? (creating ? makeIndicator() : nil)
            let inContent = Rect(x: frame.minX + o.x, y: frame.minY + o.y, width: frame.width, height: frame.height)
            if let n, n.frame != inContent { n.frame = inContent }
            return n
        }
        indicators.vertical = place(f.vertical, indicators.vertical)
        indicators.horizontal = place(f.horizontal, indicators.horizontal)
        return f.vertical != nil || f.horizontal != nil
    }

    private func makeIndicator() -> ScrollIndicatorNode {
        let n = ScrollIndicatorNode()
        addSubnode(n)
        n.applyTheme()
        return n
    }

    /// Keeps the thumbs above the content (content nodes added later go on top of them).
    func bringScrollIndicatorToFront() {
        for n in [indicators.vertical, indicators.horizontal].compactMap({ $0 }) where subnodes.last !== n {
            moveSubnode(n, to: Int.max)
        }
    }

    func hideScrollIndicators(animated: Bool) {
        for n in [indicators.vertical, indicators.horizontal].compactMap({ $0 }) where n.opacity > 0 {
            n.opacity = 0
            if animated { n.addAnimation(LayerAnimation(property: .opacity(from: 1, to: nil), duration: 0.3, timing: .easeIn,
                                                        beginsFromCurrentState: true)) }
        }
    }

    private var loopNow: Double { Double((animationLoop ?? EventLoop.main).now.nanoseconds) / 1e9 }

    /// One countdown at a time: when it fires early (the user kept scrolling), it re-arms for
    /// what is left rather than a timer being replaced on every frame.
    private func scheduleIndicatorFade(after delay: Double) {
        let loop = animationLoop ?? EventLoop.main
        // Off the loop's thread (a test driving nodes from its own) there is no countdown: the
        // thumb stays until hidden.
        guard indicatorFadeTimer == nil, loop.isOnLoopThread else { return }
        let wait = max(0.01, delay.isFinite ? delay : 0)
        indicatorFadeTimer = loop.addTimer(after: .nanoseconds(Int64(wait * 1e9))) { [weak self] in
            guard let self else { return }
            self.indicatorFadeTimer = nil
            let idle = self.loopNow - self.lastIndicatorActivity
            let delay = self.scrollIndicatorFadeDelay
            if self.isDragging || self.isDecelerating {
                self.scheduleIndicatorFade(after: delay)
            } else if idle < delay {
                self.scheduleIndicatorFade(after: delay - idle)
            } else {
                self.hideScrollIndicators(animated: true)
            }
        }
    }
}
