import Foundation
import SilkFramebuffer
import SilkGeometry
import SilkRaster
import SilkRender
import SilkRunLoop
import SilkSystem

/// Opening the framebuffer backend: probing devices, taking the console, and — once the window
/// exists — evdev input, the software cursor and an orderly teardown on every way out.
enum FramebufferBackend {
    /// Opens the first usable device: `options.devicePath`, else `$SILK_FBDEV`, else /dev/fb0…9.
    /// Throws a `BackendError` naming each device tried and why it could not be used.
    static func open(options: FramebufferOptions, input: InputOptions, takeConsole: Bool,
                     environment: [String: String]) throws -> BackendChoice {
        let paths = options.devicePath.map { [$0] } ?? LinuxFramebufferDevice.candidatePaths(configuration: SilkConfiguration(environment: environment))
        var problems: [String] = []
        for path in paths {
            do {
                return try open(path: path, options: options, input: input, takeConsole: takeConsole)
            } catch {
                if case .missing = error.kind, options.devicePath == nil, paths.count > 1 { continue }
                problems.append(error.description)
            }
        }
        if problems.isEmpty { problems.append("no framebuffer device: \(paths.first ?? "/dev/fb0")…\(paths.count > 1 ? paths.last! : "") do not exist (is a framebuffer driver loaded?)") }
        throw BackendError(problems.joined(separator: "; "))
    }
}

extension FramebufferBackend {
    static func open(path: String, options: FramebufferOptions, input: InputOptions,
                     takeConsole: Bool) throws(FramebufferError) -> BackendChoice {
        let device = try LinuxFramebufferDevice(path: path)
        let presenter = try FramebufferPresenter(device: device, options: options)
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
            try? device.setBlanked(false)
        }
        let session = FramebufferSession(presenter: presenter, console: console, inputOptions: input)
        return BackendChoice(presenter: presenter, backend: .fbdev,
                             explanation: "fbdev \(presenter.startupReport); \(consoleNote)",
                             eventSource: session)
    }
}

