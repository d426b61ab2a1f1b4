import SilkGeometry
import SilkRaster

/// When a frame is produced, on the presenter's clock.
public struct FrameTiming: Sendable, Equatable {
    /// Frame number since the presenter started (0, 1, 2 …).
    public var index: Int
    /// Target presentation time in seconds on the presenter's clock (virtual or monotonic).
    public var time: Double
    /// The timing of frame `index`, due at `time` seconds on the presenter's clock.
    public init(index: Int, time: Double) { self.index = index; self.time = time }
}

/// What the render thread needs from an output (Wayland surface, framebuffer, memory).
///
/// Contract (all methods are called on the render thread only):
/// - `waitForFrame()` blocks until the next frame may be drawn — a Wayland frame callback, a
///   framebuffer vsync or timer, the headless clock — and returns its timing; `nil` means the
///   presenter is closed and the render thread must stop.
/// - `present(_:damage:timing:)` shows the compositor's back buffer. Only the pixels in `damage`
///   changed since the previous present; a presenter with several output buffers re-applies the
///   damage of the frames each buffer missed (buffer age). It never reads from the output
///   (framebuffer memory is slow to read).
/// - Nothing is presented when nothing changed: the render thread does not call `waitForFrame`
///   until a commit or a running animation needs a frame, so an idle window costs no CPU.
public protocol Presenter: AnyObject {
    /// The output's size in device pixels.
    var pixelWidth: Int { get }
    /// The output's height in device pixels (see ``pixelWidth``).
    var pixelHeight: Int { get }
    /// Device pixels per point.
    var scale: Double { get }
    /// A short name for logs and benchmark output ("headless", "wayland", "fbdev").
    var name: String { get }
    /// Blocks the render thread until the next frame may be drawn (a Wayland frame callback, a
    /// framebuffer vsync or timer, the headless clock) and returns its timing; nil once the
    /// presenter is closed, which stops the render thread.
    func waitForFrame() -> FrameTiming?
    /// Shows the compositor's back buffer (render thread). Only the pixels in `damage` changed
    /// since the previous present; the back buffer must not be kept past the call. A thrown error
    /// stops the render thread and is reported to the window.
    func present(_ backBuffer: Bitmap, damage: DamageRegion, timing: FrameTiming) throws
    /// Unblocks `waitForFrame` and makes it return nil (called from any thread on shutdown).
    func close()
}
