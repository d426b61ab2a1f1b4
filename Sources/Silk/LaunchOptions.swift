import Foundation
import SilkGeometry

/// The options every Silk app understands on its command line, read by
/// `Application(arguments:)`:
///
/// - `--backend auto|wayland|fbdev|kms|headless`: where frames go (default `auto`: Wayland when
///   `WAYLAND_DISPLAY` is set, else KMS, else the framebuffer, else headless).
/// - `--screenshot FILE.png`: once the first window is fully displayed, write it as a PNG and
///   quit (works on every backend; headless runs use it for tests and previews).
/// - `--seconds N`: quit after N seconds.
/// - `--size WxH`: the first window's size in points, instead of the one the app asks for (to
///   see a layout at a panel's resolution; Wayland compositors and the framebuffer may still
///   decide otherwise).
/// - `--help`: print these options and exit.
public struct LaunchOptions: Sendable, Equatable {
    /// Where frames go (`--backend`); `.auto` picks Wayland, KMS, the framebuffer or headless by what
    /// the machine offers.
    public var backend: Backend = .auto
    /// `--screenshot`: the PNG file the first window is written to once it is fully displayed
    /// (`Window.whenDisplayed`), after which the app quits. nil: no screenshot.
    public var screenshotPath: String?
    /// `--seconds`: how long the app runs before it quits, in seconds (0 to one year); nil: until
    /// it is closed.
    public var seconds: Double?
    /// `--size`: the first window's size in points, replacing the size the app asks for; nil:
    /// the app's own.
    public var windowSize: Size?

    /// Defaults: `auto`, no screenshot, no time limit.
    public init() {}

    /// One line saying what was wrong with the command line.
    public struct Error: Swift.Error, CustomStringConvertible, Sendable, Equatable {
        /// The message, naming the option: `--seconds abc: not a number of seconds between 0 and
        /// one year`. `Application(arguments:)` prints it after the program's name and exits with
        /// status 2.
        public let description: String
    }

    /// The options' help text (`--help`).
    public static let usage = """
        options:
          --backend auto|wayland|fbdev|kms|headless  where frames go (default: auto)
          --screenshot FILE.png                   write the first window once displayed, then quit
          --seconds N                             quit after N seconds
          --size WxH                              the first window's size in points
        """

    /// Reads `arguments` (without the program name). Throws on an unknown option, a missing or
    /// bad value; `--help` is reported as `nil`.
    public static func parse(_ arguments: [String]) throws(Error) -> LaunchOptions? {
        var options = LaunchOptions()
        var rest = arguments[...]
        func value(_ flag: String) throws(Error) -> String {
            guard let v = rest.popFirst(), !v.hasPrefix("--") else { throw Error(description: "\(flag) needs a value") }
            return v
        }
        while let argument = rest.popFirst() {
            // --flag=value is the same as --flag value.
            var flag = argument
            if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
                flag = String(argument[..<eq])
                rest.insert(String(argument[argument.index(after: eq)...]), at: rest.startIndex)
            }
            switch flag {
            case "--help", "-h":
                return nil
            case "--backend":
                let name = try value(flag)
                guard let backend = Backend(rawValue: name) else {
                    throw Error(description: "--backend \(name): not one of \(Backend.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                options.backend = backend
            case "--screenshot":
                let path = try value(flag)
                guard path.hasSuffix(".png") || path.hasSuffix(".PNG") else {
                    throw Error(description: "--screenshot \(path): the file name must end in .png")
                }
                options.screenshotPath = path
            case "--seconds":
                let text = try value(flag)
                guard let s = Double(text), s.isFinite, s > 0, s <= 31_536_000 else {
                    throw Error(description: "--seconds \(text): not a number of seconds between 0 and one year")
                }
                options.seconds = s
            case "--size":
                let text = try value(flag)
                let parts = text.split(separator: "x", omittingEmptySubsequences: false)
                guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
                      (1...16_384).contains(w), (1...16_384).contains(h) else {
                    throw Error(description: "--size \(text): not WxH with whole points from 1 to 16384")
                }
                options.windowSize = Size(width: Double(w), height: Double(h))
            default:
                throw Error(description: "\(argument): unknown option (--help lists them)")
            }
        }
        return options
    }
}
