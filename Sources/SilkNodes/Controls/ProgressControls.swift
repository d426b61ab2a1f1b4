import Foundation
import SilkGeometry
import SilkRaster
import SilkRender

/// A progress bar: a rounded track filled with the accent up to `progress` (0…1), or, when
/// `isIndeterminate`, a bar that sweeps along the track for ever.
///
/// The filled part is a subnode whose frame follows `progress` (a layer colour): a bar updated
/// every frame redraws nothing; only the track is drawn.
///
/// The sweep is a layer animation of a subnode's position, evaluated by the render thread on
/// the frame clock: the main thread does no work per frame, and nothing is redrawn. It takes
/// no touches or focus (`isFocusable` false): it shows, it is not operated. Any thread.
open class ProgressBarNode: ThemedControlNode, @unchecked Sendable {
    private var _progress = 0.0
    private var _isIndeterminate = false
    /// The sweeping bar (indeterminate only): a layer colour, never drawn.
    let sweepNode = DisplayNode()
    /// The filled part (determinate only): a layer colour.
    let fillNode = DisplayNode()
    /// The size the sweep's animation was made for (main thread).
    private var sweepSize: Size?

    /// A determinate bar at `progress`, or an indeterminate one. Any thread.
    public init(progress: Double = 0, isIndeterminate: Bool = false) {
        super.init()
        isFocusable = false
        isUserInteractionEnabled = false
        clipsToBounds = true
        sweepNode.isUserInteractionEnabled = false
        sweepNode.isHidden = true
        fillNode.isUserInteractionEnabled = false
        addSubnode(fillNode)
        addSubnode(sweepNode)
        accessibilityRole = .progressBar
        accessibilityActions = []
        self.progress = progress
        self.isIndeterminate = isIndeterminate
        updateAccessibility()
    }

    /// Role `progressBar`: 0…1 and a percentage when determinate; `busy` when indeterminate.
    open override func updateAccessibility() {
        let (p, ind) = lock.withLock { (_progress, _isIndeterminate) }
        placeFill()
        accessibilityValueRange = ind ? nil : AccessibilityValueRange(current: p, minimum: 0, maximum: 1)
        setDefaultAccessibilityValue(ind ? nil : "\(Int((p * 100).rounded())) %")
        setAccessibilityStates(.busy, ind)
    }

    /// How far along, 0…1 (clamped; NaN becomes 0). Any thread.
    public var progress: Double {
        get { lock.withLock { _progress } }
        set { lock.withLock { _progress = newValue.isNaN ? 0 : min(1, max(0, newValue)) }; appearanceDidChange() }
    }
    /// Whether the bar sweeps instead of showing `progress`. Any thread.
    public var isIndeterminate: Bool {
        get { lock.withLock { _isIndeterminate } }
        set {
            let changed = lock.withLock { () -> Bool in defer { _isIndeterminate = newValue }; return _isIndeterminate != newValue }
            guard changed else { return }
            appearanceDidChange()
            performOnPassThread { [weak self] in self?.updateSweep() }
        }
    }

    /// As wide as offered (200 points when unconstrained), the theme's track thickness tall.
    open override func calculateSizeThatFits(_ constrainedSize: Size) -> Size {
        let t = measuringTheme()
        return Size(width: constrainedSize.width.isFinite ? constrainedSize.width : 200,
                    height: Theme.metric(t.metrics.trackThickness, 6) + 2)
    }

    struct Appearance: Hashable, Sendable {
        var track: Color
    }

    /// The track's colour (the fill is not drawn: see the type's description).
    open override func appearance(theme t: Theme) -> any Hashable & Sendable {
        Appearance(track: state.contains(.disabled) ? t.disabled(t.colors.track) : t.colors.track)
    }

    /// Draws the track.
    open override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        guard let a = parameters as? Appearance else { return }
        let b = context.bounds
        context.canvas.fillRoundedRect(b, cornerRadius: b.height / 2, with: .color(a.track))
    }

    /// Sizes and colours the fill for the progress (layer properties only). Any thread.
    func placeFill() {
        let (p, ind) = lock.withLock { (_progress, _isIndeterminate) }
        let b = bounds, t = effectiveTheme
        fillNode.isHidden = ind || p <= 0
        fillNode.frame = Rect(x: 0, y: 0, width: p > 0 ? max(b.height, b.width * p) : 0, height: b.height)
        fillNode.cornerRadius = b.height / 2
        fillNode.backgroundColor = state.contains(.disabled) ? t.disabled(t.colors.accent) : t.colors.accent
    }

    /// The fill and the sweep take the accent of a new theme.
    open override func effectiveThemeDidChange() {
        super.effectiveThemeDidChange()
        placeFill()
        sweepNode.backgroundColor = effectiveTheme.colors.accent
    }

    /// Rounds the clip and restarts the sweep for a new size.
    open override func layoutDidFinish() {
        super.layoutDidFinish()
        cornerRadius = bounds.height / 2
        placeFill()
        updateSweep()
    }

    /// Starts, restarts (new size) or stops the sweep. Main thread.
    private func updateSweep() {
        let size = bounds.size
        guard isIndeterminate, size.width > 0, size.height > 0 else {
            if sweepSize != nil {
                sweepSize = nil
                sweepNode.isHidden = true
                // Replacing the endless animation with a finished one ends it.
                sweepNode.addAnimation(LayerAnimation(property: .position(from: sweepNode.position, to: nil), duration: 0.001))
            }
            return
        }
        guard sweepSize != size else { return }
        sweepSize = size
        let w = (size.width * 0.35).rounded()
        sweepNode.frame = Rect(x: -w, y: 0, width: w, height: size.height)
        sweepNode.cornerRadius = size.height / 2
        sweepNode.backgroundColor = effectiveTheme.colors.accent
        sweepNode.isHidden = false
        let y = size.height / 2
        sweepNode.addAnimation(LayerAnimation(property: .position(from: Point(x: -w / 2, y: y), to: Point(x: size.width + w / 2, y: y)),
                                              duration: 1.6, timing: .easeInOut, repeatCount: .infinity))
    }
}

/// An activity indicator: three arcs in the accent, turning for ever while `isAnimating`
/// (hidden when stopped, if `hidesWhenStopped`).
///
/// The turn is a layer animation of the node's transform on the render thread's frame clock: a
/// third of a turn, repeated (the drawing has three-fold symmetry, so the loop is seamless); the
/// main thread does nothing per frame and nothing is redrawn. No touches, no focus. Any thread.
open class ActivityIndicatorNode: ThemedControlNode, @unchecked Sendable {
    private var _isAnimating = true
    private var _hidesWhenStopped = true

    /// An indicator, animating unless `isAnimating` is false. Any thread.
    public init(isAnimating: Bool = true) {
        super.init()
        isFocusable = false
        isUserInteractionEnabled = false
        _isAnimating = isAnimating
        accessibilityRole = .progressBar
        accessibilityActions = []
        setDefaultAccessibilityLabel("Loading")
        updateAnimation()
    }

    /// Whether it turns (and shows, with `hidesWhenStopped`). Any thread.
    public var isAnimating: Bool {
        get { lock.withLock { _isAnimating } }
        set {
            let changed = lock.withLock { () -> Bool in defer { _isAnimating = newValue }; return _isAnimating != newValue }
            if changed { updateAnimation() }
        }
    }
    /// Whether a stopped indicator is hidden (default true). Any thread.
    public var hidesWhenStopped: Bool {
        get { lock.withLock { _hidesWhenStopped } }
        set { lock.withLock { _hidesWhenStopped = newValue }; updateAnimation() }
    }

    /// The seconds a full turn takes.
    public static let turnDuration = 1.2

    private func updateAnimation() {
        let (on, hides) = lock.withLock { (_isAnimating, _hidesWhenStopped) }
        isHidden = !on && hides
        setAccessibilityStates(.busy, on)
        if on {
            addAnimation(LayerAnimation(property: .transform(from: .identity, to: AffineTransform.identity.rotated(by: 2 * .pi / 3)),
                                        duration: Self.turnDuration / 3, timing: .linear, repeatCount: .infinity))
        } else {
            // Replacing the endless animation with a finished one ends it.
            addAnimation(LayerAnimation(property: .transform(from: .identity, to: nil), duration: 0.001))
        }
    }

    /// The theme's indicator size, square.
    open override func calculateSizeThatFits(_ constrainedSize: Size) -> Size {
        let d = Theme.metric(measuringTheme().metrics.activityIndicatorSize, 32)
        return Size(width: d, height: d)
    }

    struct Appearance: Hashable, Sendable {
        var color: Color
    }

    /// The accent colour.
    open override func appearance(theme t: Theme) -> any Hashable & Sendable {
        Appearance(color: state.contains(.disabled) ? t.disabled(t.colors.accent) : t.colors.accent)
    }

    /// Draws three arcs of 80° at 120° intervals.
    open override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        guard let a = parameters as? Appearance else { return }
        let b = context.bounds
        let d = min(b.width, b.height), line = max(2, d / 9)
        let centre = Point(x: b.midX, y: b.midY), r = d / 2 - line / 2
        for i in 0..<3 {
            let start = Double(i) * 2 * .pi / 3 - .pi / 2
            var arc = Path()
            arc.addArc(center: centre, radius: r, startAngle: start, endAngle: start + 80 * .pi / 180, clockwise: true)
            context.canvas.stroke(arc, style: StrokeStyle(lineWidth: line, lineCap: .round), with: .color(a.color))
        }
    }
}
