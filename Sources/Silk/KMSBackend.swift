import Foundation
import SilkFramebuffer
import SilkKMS
import SilkRender

/// Opening the KMS backend: the seat (seatd/logind, else direct opening), the card, connector
/// and mode, the console taken as for the framebuffer (unless a seat owns the VT), and — once the
/// window exists — the same session (evdev input, software cursor, console and CRTC restored on
/// every way out, VT switches through the seat) as the framebuffer backend.
enum KMSBackend {
    static func open(options: KMSOptions, input: InputOptions, takeConsole: Bool) throws(KMSError) -> BackendChoice {
        var options = options
        var seatNote: String
        var lacksGroup = false
        let backends = LibSeat.backendsToTry(policy: options.seatPolicy, environment: ProcessInfo.processInfo.environment,
                                             fileExists: { FileManager.default.fileExists(atPath: $0) })
        if options.seat == nil, !backends.isEmpty {
            do {
                let seat = try LibSeat(backends: backends)
                options.seat = seat
                seatNote = "seat: \(seat.seatDescription)"
            } catch {
                if options.seatPolicy == .libseat { throw error }
                (seatNote, lacksGroup) = LibSeat.directAccessNote(card: options.devicePath, inputDirectory: input.directory,
                                                                  reason: "\(error)")
            }
        } else if options.seatPolicy == .libseat && options.seat == nil {
            throw KMSError(device: "seat", kind: .seatUnavailable("no seatd socket (\(ProcessInfo.processInfo.environment["SEATD_SOCK"] ?? "/run/seatd.sock")) and no logind"))
        } else if let seat = options.seat {
            seatNote = "seat: \(seat.seatDescription)"
        } else {
            (seatNote, lacksGroup) = LibSeat.directAccessNote(card: options.devicePath, inputDirectory: input.directory,
                                                              reason: options.seatPolicy == .direct ? "--seat direct" : "no seatd or logind running")
        }
        let presenter = try KMSPresenter(options: options)
        // Without a seat, one line naming the group the user lacks (a card it may not open was
        // already the error, naming its group; this is about the input devices then).
        if lacksGroup { FileHandle.standardError.write(Data("silk: \(seatNote)\n".utf8)) }
        var console: Console?
        var consoleNote = "console: not taken (the application does not take it)"
        if options.seat != nil {
            consoleNote = "console: the seat's (it switches the VT to graphics and back)"
        } else if takeConsole {
            do {
                let c = try Console.take()
                console = c
                consoleNote = "console: \(c.ttyPath) in graphics mode, cursor and blanking off"
            } catch {
                consoleNote = "console: left alone (\(error)); the text cursor may show"
            }
        }
        let session = FramebufferSession(display: presenter, console: console, inputOptions: input, seat: options.seat)
        return BackendChoice(presenter: presenter, backend: .kms,
                             explanation: "kms \(presenter.startupReport); \(seatNote); \(consoleNote)",
                             eventSource: session)
    }
}
