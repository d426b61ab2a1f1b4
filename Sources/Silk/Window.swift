import Foundation
import SilkGeometry
import SilkRaster
import SilkRender
import SilkRunLoop
import SilkSystem

/// A window: a root layer the app builds its tree under, shown by a presenter through the
/// render thread.
///
/// Commits happen in one place: a `.beforeWaiting` observer of the main loop with
/// `Window.commitObserverOrder` (late, so node-level committers registered before it run first)
/// hands the root layer's snapshot to the render thread when it changed. Setting layer
/// properties never renders by itself; frames come on the presenter's clock.
public final class Window {
    /// Order of the window's commit observer among `.beforeWaiting` observers.
    public static let commitObserverOrder = 1_000_000

    public let rootLayer = Layer()
    public let presenter: any Presenter
    public let renderThread: RenderThread
    /// Size in points (changes when the presenter's output is resized: see `resize(to:scale:)`).
    public private(set) var size: Size
    public private(set) var scale: Double
    /// Called on the main thread after `resize(to:scale:)` (apps relayout content that depends
    /// on the window size).
    public var onResize: ((Size, Double) -> Void)?
    /// Set by the application: ends the app with a message and a non-zero exit when the
    /// backend fails under the window (a lost compositor, a vanished framebuffer).
    var backendFailed: ((String) -> Void)?
    private var lastCommitted: LayerSnapshot?
    /// The node pass when a root node is shown (see `setRootNode`).
    public internal(set) var nodePass: AnyObject?
    /// The node tree's input dispatcher when a root node is shown (an `InputDispatcher`).
    public internal(set) var inputDispatcher: AnyObject?
    /// The loop timer serving the dispatcher's next deadline (a `TimerToken`), if armed.
    var inputDeadlineTimer: Any?
    private var observer: ObserverToken?
    private weak var loop: EventLoop?

    init(presenter: any Presenter, background: Color, loop: EventLoop) throws {
        self.presenter = presenter
        scale = presenter.scale
        size = Size(width: Double(presenter.pixelWidth) / presenter.scale, height: Double(presenter.pixelHeight) / presenter.scale)
        rootLayer.frame = Rect(size: size)
        rootLayer.backgroundColor = background
        rootLayer.isOpaque = background.isOpaque
        rootLayer.name = "window"
        renderThread = try RenderThread(presenter: presenter, clearColor: background)
        self.loop = loop
        let counter = frameCounter
        renderThread.onFrame { if $0.didPresent { counter.increment() } }
        renderThread.start()
        observer = loop.addObserver(.beforeWaiting, order: Window.commitObserverOrder) { [weak self] _ in
            self?.commitIfNeeded()
        }
    }

    /// Hands the current tree to the render thread if anything changed since the last commit.
    /// Called by the loop's observer; call it directly only outside a running loop (tests).
    @discardableResult
    public func commitIfNeeded() -> Bool {
        let snapshot = rootLayer.snapshot()
        guard snapshot !== lastCommitted else { return false }
        lastCommitted = snapshot
        renderThread.commit(snapshot)
        return true
    }

    /// Adopts a new size (points) and scale from the presenter (a Wayland configure): the root
    /// layer and node tree are laid out again, and the next commit is forced even if nothing
    /// else changed, so the render thread presents at the new size within one frame. Main thread.
    public func resize(to newSize: Size, scale newScale: Double) {
        guard newSize.isValidExtent, !newSize.isEmpty, newScale.isFinite, newScale > 0 else { return }
        let scaleChanged = newScale != scale
        size = newSize
        scale = newScale
        rootLayer.frame = Rect(size: newSize)
        resizeNodes(scaleChanged: scaleChanged)
        lastCommitted = nil
        loop?.wakeUp()
        onResize?(newSize, newScale)
    }

    /// Frames the presenter has shown (counted on the render thread).
    public var presentedFrames: Int { frameCounter.value }
    private let frameCounter = FrameCounter()

    /// Stops the render thread (the window shows nothing afterwards).
    public func close() {
        if let observer { loop?.removeObserver(observer) }
        observer = nil
        renderThread.stop()
    }
}

/// A counter the render thread increments and the main thread reads.
final class FrameCounter: @unchecked Sendable {
    private let lock = Lock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
