import Foundation
import SilkGeometry
import SilkInput

/// Timed input for `silk demo --script FILE`: attract loops, demos and end-to-end tests play it
/// into the window's input, on any backend. One command a line, run one after another;
/// coordinates are window points; `#` starts a comment; blank lines are ignored.
///
/// ```
/// wait 500                 # pause 500 ms
/// tap 640 360              # touch down and up (60 ms) at x y
/// drag 5 300 700 300 400   # touch down at x1 y1, move to x2 y2 over 400 ms, lift
/// key escape               # press and release a key: escape enter tab space backspace
///                          # delete left right up down home end pageup pagedown back,
///                          # f1…f24, or one character
/// type hello               # the rest of the line, typed as key presses (30 ms apart)
/// ```
///
/// A bad line is refused as a whole script with `InputScript.Error`, naming the line number,
/// before anything is played. Numbers must be finite; coordinates lie within ±100,000 points;
/// durations and waits are 0…600,000 ms; a script holds at most 100,000 commands.
public struct InputScript: Sendable, Equatable {
    /// One command of a script.
    public enum Command: Sendable, Equatable {
        /// Pause, milliseconds.
        case wait(Double)
        /// Touch down and up at a point.
        case tap(Point)
        /// Touch down at `from`, move to `to` over `milliseconds`, lift.
        case drag(from: Point, to: Point, milliseconds: Double)
        /// Press and release a key.
        case key(Key)
        /// Type text (key presses carrying the characters).
        case type(String)
    }

    /// Why a script was refused: the line number (1-based) and what is wrong with it.
    public struct Error: Swift.Error, Equatable, CustomStringConvertible {
        /// The 1-based line number of the bad line (0: the script as a whole).
        public let line: Int
        /// What is wrong.
        public let message: String
        /// "line N: message".
        public var description: String { line > 0 ? "line \(line): \(message)" : message }
    }

    /// The commands, in order, with the line each came from.
    public let commands: [(line: Int, command: Command)]

    public static func == (a: InputScript, b: InputScript) -> Bool {
        a.commands.map(\.line) == b.commands.map(\.line) && a.commands.map(\.command) == b.commands.map(\.command)
    }

    static let maximumCommands = 100_000
    static let maximumCoordinate = 100_000.0
    static let maximumMilliseconds = 600_000.0

    /// Parses `text`; throws `InputScript.Error` for the first bad line.
    public init(parsing text: String) throws(InputScript.Error) {
        var commands: [(Int, Command)] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            var line = Substring(raw)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard let verb = words.first else { continue }
            if commands.count >= Self.maximumCommands {
                throw Error(line: lineNumber, message: "more than \(Self.maximumCommands) commands")
            }
            let args = Array(words.dropFirst())
            commands.append((lineNumber, try Self.command(String(verb), args, line: line, number: lineNumber)))
        }
        self.commands = commands
    }

    /// Reads and parses the file at `path`; an unreadable file is an `Error` with line 0.
    public init(contentsOf path: String) throws(InputScript.Error) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Error(line: 0, message: "cannot read \(path)")
        }
        guard data.count <= 16 << 20 else { throw Error(line: 0, message: "\(path) is larger than 16 MiB") }
        guard let text = String(data: data, encoding: .utf8) else { throw Error(line: 0, message: "\(path) is not UTF-8 text") }
        try self.init(parsing: text)
    }

    private static func command(_ verb: String, _ args: [Substring], line: Substring, number: Int) throws(InputScript.Error) -> Command {
        func fail(_ m: String) -> InputScript.Error { Error(line: number, message: m) }
        func numbers(_ count: Int, _ usage: String) throws(InputScript.Error) -> [Double] {
            guard args.count == count else { throw fail("\(verb) takes \(usage)") }
            var out: [Double] = []
            for a in args {
                guard let v = Double(a), v.isFinite else { throw fail("\(verb): '\(a)' is not a finite number") }
                out.append(v)
            }
            return out
        }
        func point(_ x: Double, _ y: Double) throws(InputScript.Error) -> Point {
            guard abs(x) <= maximumCoordinate, abs(y) <= maximumCoordinate else {
                throw fail("\(verb): coordinates must lie within ±\(Int(maximumCoordinate)) points")
            }
            return Point(x: x, y: y)
        }
        func milliseconds(_ v: Double) throws(InputScript.Error) -> Double {
            guard v >= 0, v <= maximumMilliseconds else { throw fail("\(verb): \(v) ms is outside 0…\(Int(maximumMilliseconds))") }
            return v
        }
        switch verb.lowercased() {
        case "wait":
            return .wait(try milliseconds(try numbers(1, "MILLISECONDS")[0]))
        case "tap":
            let n = try numbers(2, "X Y")
            return .tap(try point(n[0], n[1]))
        case "drag":
            let n = try numbers(5, "X1 Y1 X2 Y2 MILLISECONDS")
            return .drag(from: try point(n[0], n[1]), to: try point(n[2], n[3]), milliseconds: try milliseconds(n[4]))
        case "key":
            guard args.count == 1 else { throw fail("key takes one NAME (escape, enter, tab, back, a character …)") }
            guard let key = keyNamed(String(args[0])) else { throw fail("key: unknown key name '\(args[0])'") }
            return .key(key)
        case "type":
            guard let start = line.range(of: verb)?.upperBound else { throw fail("type takes TEXT") }
            let text = line[start...].trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { throw fail("type takes TEXT") }
            return .type(text)
        default:
            throw fail("unknown command '\(verb)' (expected wait, tap, drag, key or type)")
        }
    }

    /// The key a script names (case-insensitive names; one character stands for itself).
    static func keyNamed(_ name: String) -> Key? {
        let named: [String: Key] = [
            "escape": .escape, "esc": .escape, "enter": .enter, "return": .enter, "tab": .tab, "space": .space,
            "backspace": .backspace, "delete": .delete, "insert": .insert, "left": .left, "right": .right,
            "up": .up, "down": .down, "home": .home, "end": .end, "pageup": .pageUp, "pagedown": .pageDown,
            "back": .keysym(0x1008_FF26),
        ]
        if let k = named[name.lowercased()] { return k }
        let lower = name.lowercased()
        if lower.hasPrefix("f"), let n = Int(lower.dropFirst()), (1...24).contains(n) { return .function(n) }
        if name.count == 1, let c = name.first { return c == " " ? .space : .character(c) }
        return nil
    }

    /// The script as input events at offsets (seconds from the start), in order: taps last 60 ms,
    /// drags move every 16 ms, typed characters are 30 ms apart.
    public var timeline: [(offset: Double, event: InputEvent.Kind)] {
        var t = 0.0
        var out: [(Double, InputEvent.Kind)] = []
        let touch = 1
        for (_, command) in commands {
            switch command {
            case .wait(let ms):
                t += ms / 1000
            case .tap(let p):
                out.append((t, .touchDown(id: touch, p)))
                t += 0.06
                out.append((t, .touchUp(id: touch, p)))
                t += 0.03
            case let .drag(from, to, ms):
                out.append((t, .touchDown(id: touch, from)))
                let steps = max(1, Int((ms / 16).rounded(.up)))
                for i in 1...steps {
                    let f = Double(i) / Double(steps)
                    out.append((t + ms / 1000 * f, .touchMove(id: touch, Point(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f))))
                }
                t += ms / 1000
                out.append((t, .touchUp(id: touch, to)))
                t += 0.03
            case .key(let key):
                out.append((t, .keyDown(key)))
                out.append((t + 0.03, .keyUp(key)))
                t += 0.06
            case .type(let text):
                for c in text {
                    let key: Key = c == " " ? .space : .character(c)
                    out.append((t, .keyDown(key, text: String(c))))
                    out.append((t + 0.01, .keyUp(key)))
                    t += 0.03
                }
            }
        }
        return out
    }

    /// Seconds the whole script takes to play.
    public var duration: Double { timeline.last?.offset ?? 0 }
}

/// Plays an `InputScript` into a sink on a clock it is given: call `advance(to:)` with the
/// seconds since the start from a frame tick; it delivers every event that is due. Main thread.
public final class InputScriptPlayer {
    private let events: [(offset: Double, event: InputEvent.Kind)]
    private var next = 0
    private let deliver: (InputEvent) -> Void

    /// A player for `script` delivering to `deliver` (stamped with `InputClock.now`).
    public init(_ script: InputScript, deliver: @escaping (InputEvent) -> Void) {
        events = script.timeline
        self.deliver = deliver
    }

    /// Whether every event has been delivered.
    public var isFinished: Bool { next >= events.count }

    /// Delivers the events due at `elapsed` seconds since the start.
    public func advance(to elapsed: Double) {
        while next < events.count, events[next].offset <= elapsed {
            deliver(InputEvent(events[next].event, timestamp: InputClock.now))
            next += 1
        }
    }
}
