import Foundation
import SilkFramebuffer
import SilkRaster
import SilkRender

/// Where frames go.
public enum Backend: String, Sendable, CaseIterable {
    /// Wayland if `WAYLAND_DISPLAY` is set, else a usable `/dev/fb0`, else headless.
    case auto
    case wayland
    case fbdev
    case headless
}

/// Why a backend could not be opened: one line for the user, naming the device or socket.
public struct BackendError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The outcome of backend selection: the presenter to use and, for `auto`, why.
public struct BackendChoice {
    public let presenter: any Presenter
    public let backend: Backend
    /// Human-readable reasoning ("WAYLAND_DISPLAY is not set; /dev/fb0: …; using headless").
    public let explanation: String
    /// Called once the window exists (the framebuffer backend starts input there).
    var attach: (@MainActor (Window) -> Void)? = nil
}

extension Backend {
    /// Opens a presenter for this backend at `pixelWidth`×`pixelHeight`.
    ///
    /// The Wayland presenter is not part of this build yet: asking for it explicitly is an
    /// error. The framebuffer fills its screen (the requested size is ignored); `framebuffer`
    /// chooses the device, rotation and pacing, `input` the evdev options. `auto` notes why it
    /// skipped a backend and falls back to headless.
    public func open(pixelWidth: Int, pixelHeight: Int, scale: Double,
                     environment: [String: String] = ProcessInfo.processInfo.environment,
                     headlessClock: HeadlessPresenter.Clock = .realTime,
                     framebuffer: FramebufferOptions = FramebufferOptions(),
                     input: InputOptions = InputOptions(), takeConsole: Bool = true) throws -> BackendChoice {
        var framebuffer = framebuffer
        framebuffer.scale = scale
        switch self {
        case .wayland:
            throw BackendError("--backend wayland: the Wayland presenter is not built yet in this version of Silk")
        case .fbdev:
            return try FramebufferBackend.open(options: framebuffer, input: input, takeConsole: takeConsole,
                                               environment: environment)
        case .headless:
            let p = try HeadlessPresenter(pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale, clock: headlessClock)
            return BackendChoice(presenter: p, backend: .headless, explanation: "headless (requested)")
        case .auto:
            var reasons: [String] = []
            if let display = environment["WAYLAND_DISPLAY"], !display.isEmpty {
                reasons.append("WAYLAND_DISPLAY=\(display) is set, but the Wayland presenter is not built yet")
            } else {
                reasons.append("WAYLAND_DISPLAY is not set")
            }
            do {
                let choice = try FramebufferBackend.open(options: framebuffer, input: input, takeConsole: takeConsole,
                                                         environment: environment)
                return BackendChoice(presenter: choice.presenter, backend: .fbdev,
                                     explanation: reasons.joined(separator: "; ") + "; " + choice.explanation,
                                     attach: choice.attach)
            } catch {
                reasons.append("\(error)")
            }
            let p = try HeadlessPresenter(pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale, clock: headlessClock)
            return BackendChoice(presenter: p, backend: .headless,
                                 explanation: reasons.joined(separator: "; ") + "; using headless")
        }
    }
}
