import Foundation
import SilkGeometry
import SilkRaster
import SilkRender
import SilkWayland
import SilkFramebuffer
import SilkKMS
import SilkSystem

/// Where a window's frames go and its input comes from: a Wayland compositor, the Linux framebuffer
/// with evdev, DRM/KMS with evdev, or memory. The raw values are the names a command line or a
/// configuration file uses (`auto`, `wayland`, `fbdev`, `kms`, `headless`).
public enum Backend: String, Sendable, CaseIterable {
    /// Wayland if `WAYLAND_DISPLAY` is set, else a DRM card with a connected display (KMS), else a
    /// usable `/dev/fb0`, else headless.
    case auto
    /// A Wayland toplevel (`xdg_shell`) on the compositor named by `WAYLAND_DISPLAY` (`wayland-0`
    /// when unset); fails rather than falling back.
    case wayland
    /// The Linux framebuffer (`/dev/fbN`, or `$SILK_FBDEV`), with evdev input and the console
    /// switched to graphics mode; the window fills the screen. Fails rather than falling back.
    case fbdev
    /// DRM/KMS (`/dev/dri/cardN`): dumb buffers shown by page flips paced by the display's
    /// vertical blank, with evdev input and the console switched to graphics mode; the window
    /// fills the screen. Fails rather than falling back.
    case kms
    /// No display: frames are composited into memory on a virtual or real 60 Hz clock (tests,
    /// snapshots, CI).
    case headless
}

/// Why a backend could not be opened: one line for the user, naming the device or socket.
public struct BackendError: Error, CustomStringConvertible, Sendable {
    /// The message for the user, naming the device or socket and what went wrong.
    public let description: String
    /// Creates an error with the user-facing `description`.
    public init(_ description: String) { self.description = description }
}

/// How a window presents itself where the backend has windows (Wayland); ignored elsewhere.
public struct WindowOptions: Sendable {
    /// The window title (`xdg_toplevel.set_title`).
    public var title = "Silk"
    /// The application ID (`xdg_toplevel.set_app_id`): compositors match it to a `.desktop` file
    /// and window rules, so use your app's reverse-DNS name.
    public var appID = "org.silk.Silk"
    /// The smallest size, in points, the compositor may give the window
    /// (`xdg_toplevel.set_min_size`); nil leaves it to the compositor.
    public var minimumSize: Size?
    /// Asks the compositor to maximize the window when it opens (`xdg_toplevel.set_maximized`).
    public var maximized = false
    /// Fill the output (`xdg_toplevel.set_fullscreen`): kiosks under cage.
    public var fullscreen = false
    /// Set by `Application.makeWindow` from the background colour (opaque: XRGB buffers).
    public var opaque = true
    /// Wayland: seconds each start-up wait on the compositor may take (a silent compositor is
    /// an error after this, not a hang).
    public var compositorTimeout: Double = 10
    /// Options with the defaults: titled "Silk", not maximized, not fullscreen, opaque.
    public init() {}
}

/// The outcome of backend selection: the presenter to use and, for `auto`, why.
public struct BackendChoice {
    /// The opened presenter, ready for a `Window`.
    public let presenter: any Presenter
    /// The backend actually opened (`.auto` resolved to `.wayland`, `.kms`, `.fbdev` or `.headless`).
    public let backend: Backend
    /// Human-readable reasoning ("WAYLAND_DISPLAY is not set; /dev/fb0: …; using headless").
    public let explanation: String
    /// What reports the backend's events (resizes, input, close, failures) to the window:
    /// the Wayland presenter, or the framebuffer session with its evdev input; nil for headless.
    public var eventSource: (any PresenterEventSource)? = nil
}

extension Backend {
    /// The largest window the headless and Wayland backends open, in device pixels: 8K UHD
    /// (7680×4320, 33 MPx) fits; each buffer of it is 4 bytes a pixel, and a window has several.
    public static let maximumWindowPixels = 40_000_000

    /// Opens a presenter for this backend at `pixelWidth`×`pixelHeight`.
    ///
    /// `auto` tries Wayland (when `WAYLAND_DISPLAY` is set), then KMS, then the framebuffer, then
    /// headless, and explains each skip. Wayland windows take their size from the compositor's
    /// first configure (`options` says what to ask for); KMS and the framebuffer fill their screen
    /// (the requested size is ignored), with `kms` choosing the card, connector, mode and rotation,
    /// `framebuffer` the device, rotation and pacing, and `input` the evdev options.
    public func open(pixelWidth: Int, pixelHeight: Int, scale: Double,
                     environment: [String: String] = SilkConfiguration.current.environment,
                     headlessClock: HeadlessPresenter.Clock = .realTime,
                     options: WindowOptions = WindowOptions(),
                     framebuffer: FramebufferOptions = FramebufferOptions(),
                     input: InputOptions = InputOptions(), takeConsole: Bool = true,
                     kms: KMSOptions = KMSOptions()) throws -> BackendChoice {
        var framebuffer = framebuffer
        framebuffer.scale = scale
        var kms = kms
        kms.scale = scale
        // The requested size decides every buffer of a headless or Wayland window (the
        // compositor's, the presenter's, captures): checked before any of them is allocated,
        // so `--size 16384x16384` is one clear error instead of gigabytes in seconds. The
        // framebuffer ignores the request (the screen decides).
        if self != .fbdev, self != .kms, pixelWidth <= 0 || pixelHeight <= 0 || pixelWidth * pixelHeight > Backend.maximumWindowPixels {
            throw BackendError("a window of \(pixelWidth)×\(pixelHeight) pixels is over the limit of \(Backend.maximumWindowPixels / 1_000_000) MPx (Backend.maximumWindowPixels)")
        }
        switch self {
        case .wayland:
            do {
                let p = try Backend.openWayland(pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale,
                                                options: options, environment: environment)
                return BackendChoice(presenter: p, backend: .wayland, explanation: "wayland on \(p.display.socketName) (requested)",
                                     eventSource: p)
            } catch {
                throw BackendError("wayland: \(error)")
            }
        case .fbdev:
            return try FramebufferBackend.open(options: framebuffer, input: input, takeConsole: takeConsole,
                                               environment: environment)
        case .kms:
            do { return try KMSBackend.open(options: kms, input: input, takeConsole: takeConsole) }
            catch { throw BackendError("kms: \(error)") }
        case .headless:
            let p = try HeadlessPresenter(pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale, clock: headlessClock)
            return BackendChoice(presenter: p, backend: .headless, explanation: "headless (requested)")
        case .auto:
            var reasons: [String] = []
            if let display = SilkConfiguration(environment: environment).waylandDisplay {
                do {
                    let p = try Backend.openWayland(pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale,
                                                options: options, environment: environment)
                    return BackendChoice(presenter: p, backend: .wayland, explanation: "WAYLAND_DISPLAY=\(display): using wayland",
                                         eventSource: p)
                } catch {
                    reasons.append("WAYLAND_DISPLAY=\(display) is set, but \(error)")
                }
            } else {
                reasons.append("WAYLAND_DISPLAY is not set")
            }
            // KMS before the framebuffer: page flips paced by the real vblank, where /dev/fb0 is
            // often DRM's emulation with a no-op FBIO_WAITFORVSYNC.
            if kms.devicePath != nil || !KMSCard.candidatePaths().isEmpty {
                do {
                    let choice = try KMSBackend.open(options: kms, input: input, takeConsole: takeConsole)
                    return BackendChoice(presenter: choice.presenter, backend: .kms,
                                         explanation: reasons.joined(separator: "; ") + "; " + choice.explanation,
                                         eventSource: choice.eventSource)
                } catch {
                    reasons.append("kms: \(error)")
                }
            } else {
                reasons.append("kms: no /dev/dri/card* (no DRM driver)")
            }
            do {
                let choice = try FramebufferBackend.open(options: framebuffer, input: input, takeConsole: takeConsole,
                                                         environment: environment)
                return BackendChoice(presenter: choice.presenter, backend: .fbdev,
                                     explanation: reasons.joined(separator: "; ") + "; " + choice.explanation,
                                     eventSource: choice.eventSource)
            } catch {
                reasons.append("\(error)")
            }
            let p = try HeadlessPresenter(pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale, clock: headlessClock)
            return BackendChoice(presenter: p, backend: .headless,
                                 explanation: reasons.joined(separator: "; ") + "; using headless")
        }
    }
}

extension Backend {
    /// Connects to the compositor and opens a toplevel asking for `pixelWidth`×`pixelHeight` / `scale`
    /// points; the compositor's configure and output scale decide the real size and scale.
    static func openWayland(pixelWidth: Int, pixelHeight: Int, scale: Double, options: WindowOptions,
                            environment: [String: String]) throws -> WaylandPresenter {
        var o = WaylandWindowOptions()
        o.title = options.title
        o.appID = options.appID
        o.size = Size(width: Double(pixelWidth) / scale, height: Double(pixelHeight) / scale)
        o.minimumSize = options.minimumSize
        o.maximized = options.maximized
        o.fullscreen = options.fullscreen
        o.opaque = options.opaque
        o.answerTimeout = options.compositorTimeout
        let name = SilkConfiguration(environment: environment).waylandDisplay ?? "wayland-0"
        return try WaylandPresenter(options: o, displayName: name)
    }
}
