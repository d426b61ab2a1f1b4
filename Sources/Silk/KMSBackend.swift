import Foundation
import SilkFramebuffer
import SilkKMS
import SilkRender

/// Opening the KMS backend: the card, connector and mode, the console taken as for the
/// framebuffer, and — once the window exists — the same session (evdev input, software cursor,
/// console and CRTC restored on every way out) as the framebuffer backend.
enum KMSBackend {
    static func open(options: KMSOptions, input: InputOptions, takeConsole: Bool) throws(KMSError) -> BackendChoice {
        let presenter = try KMSPresenter(options: options)
        var console: Console?
        var consoleNote = "console: not taken (the application does not take it)"
        if takeConsole {
            do {
                let c = try Console.take()
                console = c
                consoleNote = "console: \(c.ttyPath) in graphics mode, cursor and blanking off"
            } catch {
                consoleNote = "console: left alone (\(error)); the text cursor may show"
            }
        }
        let session = FramebufferSession(display: presenter, console: console, inputOptions: input)
        return BackendChoice(presenter: presenter, backend: .kms,
                             explanation: "kms \(presenter.startupReport); \(consoleNote)",
                             eventSource: session)
    }
}
