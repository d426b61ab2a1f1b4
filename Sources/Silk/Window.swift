import Foundation
import SilkGeometry
import SilkInput
import SilkNodes
import SilkRaster
import SilkRender
import SilkRunLoop
import SilkSystem

/// A window: a root layer shown by a presenter through its own render thread, and — once a
/// root node is set — its own node runtime: the `NodePass` (layout, layers, display jobs), its
/// `TransactionCommitter` and the `InputDispatcher`.
///
/// Each main-loop iteration runs, at the orders of `ObserverOrder`: the node pass, the
/// transaction committer, then the window's layer commit, which hands the root layer's snapshot
/// to the render thread when it changed. Setting properties never renders by itself; frames come
/// on the presenter's clock. Main thread, except where a member says otherwise.
@MainActor
public final class Window: PresenterEventHandler {
    /// The layer the presenter shows, filling the window and painted with its background colour. A
    /// root node's layers are added under it; main thread only, like every `Layer`.
    public let rootLayer = Layer()
    /// Where the window's frames go (a Wayland surface, the framebuffer, or memory when headless).
    /// The render thread owns the presenting; read its size and scale here.
    public let presenter: any Presenter
    /// The window's render thread: composites committed layer snapshots and presents them on the
    /// presenter's clock (thread `silk.render`).
    public let renderThread: RenderThread
    /// Size in points (changes when the presenter's output is resized: see `resize(to:scale:)`).
    public private(set) var size: Size
    /// Device pixels per point (a Wayland output's integer or fractional scale; 1 on the
    /// framebuffer unless set). Changes with `resize(to:scale:)`.
    public private(set) var scale: Double
    /// Called on the main thread after `resize(to:scale:)` (apps relayout content that depends
    /// on the window size).
    public var onResize: ((Size, Double) -> Void)?
    /// The root node's pass and committer, while a root node is shown.
    public private(set) var nodePass: NodePass?
    /// Hit testing, gestures and focus for the root node's tree, while one is shown.
    public private(set) var inputDispatcher: InputDispatcher?

    /// Set by the application: the user asked to close the window, or its backend failed under
    /// it (a lost compositor, a vanished framebuffer: ends the app with a message, non-zero).
    var closeRequested: (() -> Void)?
    var backendFailed: ((String) -> Void)?

    private var lastCommitted: LayerSnapshot?
    /// The loop timer serving the dispatcher's next deadline, if armed.
    private var inputDeadlineTimer: TimerToken?
    private var commitObserver: ObserverToken?
    /// The observers the current root node installed (its pass and committer).
    private var rootNodeObservers: [ObserverToken] = []
    /// The controller `setRootController` showed (Window+Controllers.swift); main thread.
    var shownRootController: NodeController?
    private var displayedObserver: ObserverToken?
    private var displayedCallbacks: [@MainActor () -> Void] = []
    /// The input-method state last sent to the presenter (Window+TextInput.swift).
    var sentTextInput: TextInputState?
    /// The field that state was for.
    var sentTextInputField: ObjectIdentifier?
    private let loop: EventLoop
    /// The name the window's accessibility element (an AT-SPI frame) has: the window title.
    var accessibilityTitle = "Silk"
    /// Spoken feedback (`SILK_TALKBACK=1`), started with the first root node.
    var talkBack: TalkBack?

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
        commitObserver = loop.addObserver(.beforeWaiting, order: .windowCommit) { [weak self] _ in
            MainActor.assumeIsolated {
                self?.syncTextInput()
                _ = self?.commitIfNeeded()
            }
        }
    }

    // MARK: Root node

    /// Shows `node` filling the window. The node tree then drives the layer tree through the
    /// window's own `NodePass` and `TransactionCommitter`; input reaches the tree through a new
    /// `InputDispatcher`. A previous root node is detached first: its layers leave the window,
    /// its observers and gesture timer are removed, and it no longer receives input.
    public func setRootNode(_ node: DisplayNode) {
        removeRootNode()
        let loop = self.loop
        let wake: @Sendable () -> Void = { loop.wakeUp() }
        let pass = NodePass(rootNode: node, hostLayer: rootLayer, size: size, scale: scale)
        pass.wakeUp = wake
        nodePass = pass
        inputDispatcher = InputDispatcher(rootNode: node)
        rootNodeObservers = [
            loop.addObserver(.beforeWaiting, order: .nodePass) { _ in pass.run() },
            loop.addObserver(.beforeWaiting, order: .transactionCommit) { _ in pass.committer.commit() },
        ]
        exportAccessibility()
    }

    /// Detaches the root node, if any (see `setRootNode`).
    public func removeRootNode() {
        if let old = shownRootController {
            shownRootController = nil
            old.beginAppearanceTransition(false, animated: false)
            old.endAppearanceTransition(animated: false)
        }
        unexportAccessibility()
        for token in rootNodeObservers { loop.removeObserver(token) }
        rootNodeObservers = []
        if let timer = inputDeadlineTimer { loop.cancelTimer(timer) }
        inputDeadlineTimer = nil
        inputDispatcher = nil
        nodePass?.detach()
        nodePass = nil
    }

    // MARK: Knowing a screen is shown

    /// Whether the root node's tree is fully displayed: no layout or display work pending or
    /// running, every finished result published, and the render thread has presented the
    /// window's latest layer tree (animations included, such as placeholder fade-ins). A window
    /// without a root node is displayed once its layers are presented.
    public var isDisplayed: Bool {
        if let pass = nodePass, !pass.isDisplayComplete { return false }
        guard lastCommitted === rootLayer.snapshot() else { return false }
        return renderThread.waitUntilPresented(timeout: 0, includingAnimations: true)
    }

    /// Calls `body` once on the main loop as soon as `isDisplayed` holds — now, if it already
    /// does, else after the iteration in which it becomes true. Use it instead of polling: to
    /// take a screenshot of a finished screen, start an attract loop, or measure start-up.
    public func whenDisplayed(_ body: @escaping @MainActor () -> Void) {
        displayedCallbacks.append(body)
        if displayedObserver == nil {
            displayedObserver = loop.addObserver(.beforeWaiting, order: .displayCallbacks) { [weak self] _ in
                MainActor.assumeIsolated { self?.runDisplayedCallbacks() }
            }
        }
        loop.wakeUp()
    }

    /// Suspends until `isDisplayed` holds (`whenDisplayed` for async code on the main actor).
    public func displayed() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in whenDisplayed { c.resume() } }
    }

    private func runDisplayedCallbacks() {
        guard !displayedCallbacks.isEmpty else { return }
        guard isDisplayed else {
            // The render thread presents asynchronously: look again shortly even if nothing
            // else wakes the loop.
            loop.addTimer(after: .milliseconds(4)) { [weak self] in self?.loop.wakeUp() }
            return
        }
        let callbacks = displayedCallbacks
        displayedCallbacks = []
        if let token = displayedObserver { loop.removeObserver(token) }
        displayedObserver = nil
        for body in callbacks { body() }
    }

    /// The window's current content as an image: the root layer's tree composited in full at
    /// the window's pixel size, with running animations settled (what the screen shows once
    /// they end). Independent of the backend, so it works on Wayland and the framebuffer too.
    public func renderImage() throws -> Bitmap {
        let w = Int((size.width * scale).rounded(.up)), h = Int((size.height * scale).rounded(.up))
        let compositor = try Compositor(pixelWidth: w, pixelHeight: h, scale: scale,
                                        clearColor: rootLayer.backgroundColor ?? .white)
        compositor.endsAnimations = false  // settling here must not end the window's animations
        let snapshot = rootLayer.snapshot()
        compositor.compositeFully(snapshot, at: 0)
        compositor.compositeFully(snapshot, at: 3600)
        return compositor.backBuffer
    }

    /// Writes `renderImage()` as a PNG file (replaced atomically).
    public func writePNG(to path: String) throws {
        try renderImage().writePNG(to: path)
    }

    // MARK: Committing and resizing

    /// Hands the current tree to the render thread if anything changed since the last commit.
    /// Called by the loop's observer; call it directly only outside a running loop (tests).
    @discardableResult
    func commitIfNeeded() -> Bool {
        let snapshot = rootLayer.snapshot()
        guard snapshot !== lastCommitted else { return false }
        lastCommitted = snapshot
        renderThread.commit(snapshot)
        return true
    }

    /// Adopts a new size (points) and scale from the presenter (a Wayland configure): the root
    /// layer and node tree are laid out again, and the next commit is forced even if nothing
    /// else changed, so the render thread presents at the new size within one frame.
    public func resize(to newSize: Size, scale newScale: Double) {
        guard newSize.isValidExtent, !newSize.isEmpty, newScale.isFinite, newScale > 0 else { return }
        let scaleChanged = newScale != scale
        size = newSize
        scale = newScale
        rootLayer.frame = Rect(size: newSize)
        exportAccessibility()
        if let pass = nodePass {
            pass.size = size
            pass.scale = scale
            // At a new scale every node redraws, so text and images are rasterized at the new
            // device pixels.
            if scaleChanged {
                func redraw(_ node: DisplayNode) {
                    node.setNeedsDisplay()
                    for n in node.subnodes { redraw(n) }
                }
                redraw(pass.rootNode)
            }
        }
        lastCommitted = nil
        loop.wakeUp()
        onResize?(newSize, newScale)
    }

    // MARK: Input

    /// Delivers an input event to the node tree, and re-arms the one timer that serves the
    /// dispatcher's next gesture deadline (a long press, a tap timing out; key repeat comes from
    /// the backends as events). Presenters call it through `PresenterEventHandler`; tests and
    /// scripted input may call it directly. Without a root node the event is dropped.
    public func handle(_ event: InputEvent) {
        guard let dispatcher = inputDispatcher else { return }
        if let talkBack, talkBack.handle(event) { return }
        dispatcher.handle(event)
        armInputDeadline(dispatcher)
    }

    /// One pending timer at most: each event replaces the previous deadline's timer.
    private func armInputDeadline(_ dispatcher: InputDispatcher) {
        if let token = inputDeadlineTimer { loop.cancelTimer(token) }
        inputDeadlineTimer = nil
        guard let deadline = dispatcher.nextDeadline else { return }
        let delay = max(0, deadline - InputClock.now)
        inputDeadlineTimer = loop.addTimer(after: .nanoseconds(Int64(delay * 1e9))) { [weak self, weak dispatcher] in
            guard let dispatcher else { return }
            dispatcher.tick(now: InputClock.now)
            MainActor.assumeIsolated {
                guard let self, self.inputDispatcher === dispatcher else { return }
                self.inputDeadlineTimer = nil
                self.armInputDeadline(dispatcher)
            }
        }
    }

    // MARK: PresenterEventHandler

    /// Resizes the window to what the presenter now shows: see `resize(to:scale:)`. Main thread.
    public func presenterDidResize(to size: Size, scale: Double) { resize(to: size, scale: scale) }
    /// Delivers the presenter's input event to the node tree: see `handle(_:)`. Main thread.
    public func presenterDidReceive(_ event: InputEvent) { handle(event) }
    /// The user asked to close the window: the application quits. Main thread.
    public func presenterDidRequestClose() { closeRequested?() }
    /// The backend failed for good: the application ends with `message` and a non-zero exit (a
    /// window without an application prints it and stops the loop). Main thread.
    public func presenterDidFail(_ message: String) {
        if let backendFailed { backendFailed(message) } else { logger.critical("\(message)"); loop.stop() }
    }
    /// The layer the framebuffer backend puts its software cursor in: the root layer, above the
    /// root node's layers.
    public var overlayHostLayer: Layer { rootLayer }
    /// Why the render thread stopped (a presenter error), if it did; backends poll it to end the
    /// app with a message.
    public var renderFailure: (any Error)? { renderThread.error }
    /// The backend is about to give the display back (console restore on the framebuffer): the
    /// window closes, so no frame is presented after it.
    public func presenterWillShutDown() { close() }

    // MARK: Frames and closing

    /// Frames the presenter has shown (counted on the render thread).
    public var presentedFrames: Int { frameCounter.value }
    private let frameCounter = FrameCounter()

    /// Stops the render thread (the window shows nothing afterwards).
    public func close() {
        unexportAccessibility()
        if let commitObserver { loop.removeObserver(commitObserver) }
        commitObserver = nil
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
