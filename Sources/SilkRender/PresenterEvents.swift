import SilkGeometry
import SilkInput
import SilkRunLoop

/// What an interactive backend reports to the window that shows its frames: size changes,
/// input, a request to close, and failures. The window implements it; every backend (the
/// Wayland presenter, the framebuffer session with its evdev input) talks to its window only
/// through it, so the application wires all of them the same way. Main thread.
@MainActor
public protocol PresenterEventHandler: AnyObject {
    /// The output's size (points) or scale changed: relayout and redraw.
    func presenterDidResize(to size: Size, scale: Double)
    /// Pointer, keyboard and touch input, in window points.
    func presenterDidReceive(_ event: InputEvent)
    /// The user asked to close the window (`xdg_toplevel.close`).
    func presenterDidRequestClose()
    /// The backend failed for good (compositor gone, display unplugged): `message` says why.
    func presenterDidFail(_ message: String)
    /// The layer a backend may draw overlays on (the framebuffer's software cursor): kept on
    /// top of the window's content by the backend.
    var overlayHostLayer: Layer { get }
    /// Why the render thread stopped, if it did (a backend polls it to report failures).
    var renderFailure: (any Error)? { get }
    /// The backend is about to give the display back (console restore): stop rendering now.
    func presenterWillShutDown()
    /// The system's input method changed the focused text field: a pre-edit, a commit, a
    /// deletion around the caret (the Wayland presenter's text-input-v3). Default: ignored.
    func presenterDidReceiveTextInput(_ update: TextInputUpdate)
}

extension PresenterEventHandler {
    /// Ignores the update (a handler without text fields).
    public func presenterDidReceiveTextInput(_ update: TextInputUpdate) {}
}

/// A backend that delivers events: started once on the main loop after its window exists.
public protocol PresenterEventSource: AnyObject {
    /// Starts reporting to `handler` from `loop` (the main loop). Main thread, once.
    @MainActor func startEvents(handler: any PresenterEventHandler, loop: EventLoop) throws
}
