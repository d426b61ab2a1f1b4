import SilkRaster

/// Contents that change on the frame clock without a commit — an animated image's frames. The
/// render thread asks the source once per composited frame, with that frame's target time, which
/// bitmap to show; the main thread is not involved between frames. Set it as
/// ``Layer/contentsSource``; while it answers nil the layer shows its own ``Layer/contents``.
///
/// Implementations are called on the render thread and must return quickly (no decoding: hand
/// work to other threads and answer with what is ready). Thread-safe by contract (`Sendable`).
public protocol LayerContentsSource: AnyObject, Sendable {
    /// The bitmap to show at `time` (seconds on the presenter's frame clock, the time
    /// ``LayerAnimation``s are evaluated at) and whether it still changes, which keeps the render
    /// thread compositing frames. Render thread.
    func contents(at time: Double) -> LayerContentsSample
}

/// A ``LayerContentsSource``'s answer for one frame.
public struct LayerContentsSample: Sendable {
    /// What to show (nil: the layer's own ``Layer/contents``). The bitmap must not change after
    /// it is returned (a new frame is a new bitmap, which is how the compositor sees damage).
    public var bitmap: Bitmap?
    /// True while later frames may show something else: the render thread composites the next
    /// frame even without a commit.
    public var isAnimating: Bool
    /// True when an animating source will stop by itself (a GIF that plays a given number of
    /// times): like a finite ``LayerAnimation``, it is waited for by "presented, animations
    /// included" (`RenderThread.waitUntilPresented(includingAnimations:)`, `Window.isDisplayed`);
    /// one that loops for ever is not.
    public var ends: Bool

    /// A sample of `bitmap`, animating or not, ending by itself or not.
    public init(bitmap: Bitmap?, isAnimating: Bool, ends: Bool = false) {
        self.bitmap = bitmap
        self.isAnimating = isAnimating
        self.ends = ends
    }
}
