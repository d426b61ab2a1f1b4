import ArgumentParser
import Foundation
import Silk
import SilkRaster

/// The `silk` command: snapshots, demos, the layout evaluator and benchmarks.
@main
struct Silk: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "silk",
        abstract: "Silk: asynchronous-display UI for Wayland and the Linux framebuffer.",
        subcommands: [SnapshotCommand.self, LayoutCommand.self, BenchCommand.self, LayoutBenchCommand.self, RasterBenchCommand.self, DemoCommand.self, FramebufferBenchCommand.self,
                      ServeCommand.self, NetworkImageBenchCommand.self, BenchStartupProbeCommand.self, SoakCommand.self])

    /// ArgumentParser's own `main` prints an error with the usage and help text (3–4 lines) and
    /// exits 64; the README promises one line naming the option and the problem, and exit 2, for
    /// every bad input. This `main` keeps `--help` (and `silk help …`) as they are and formats
    /// everything else itself.
    static func main() {
        // Framework diagnostics (swift-log) as one "silk: …" line each on stderr.
        CLILogHandler.install()
        // Silk's C-heap policy before any thread starts (benchmarks and tools make no
        // `Application`, or make it after their servers' threads).
        MemoryPolicy.standard.apply()
        // The Swift runtime's backtracer takes SIGQUIT as a crash: it prints a report and the
        // process then stays alive (a minute and more), ignoring the quit. Commands without an
        // event loop quit with the default action; the app loop blocks SIGQUIT and ends in order.
        signal(SIGQUIT, SIG_DFL)
        let arguments = CLIArguments.joiningNegativeValues(Array(CommandLine.arguments.dropFirst()))
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            exitForParseError(error)
        }
        // A SILK_ASSETS that points elsewhere would be skipped silently and the demos drawn
        // without their photos (or with another checkout's): say so once, before any work.
        if let problem = Assets.environmentProblem { fail(problem) }
        do {
            try command.run()
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch let error as ValidationError {
            fail(error.message)
        } catch {
            // A help request thrown from `run` (CleanExit) prints as ArgumentParser does.
            if exitCode(for: error) == .success { exit(withError: error) }
            FileHandle.standardError.write(Data("silk: \(CLIArguments.oneLine("\(error)"))\n".utf8))
            Foundation.exit(1)
        }
        Foundation.exit(0)
    }

    private static func exitForParseError(_ error: any Error) -> Never {
        // --help, -h, `silk help`: the usual help text on stdout, exit 0.
        if exitCode(for: error) == .success { exit(withError: error) }
        if let code = error as? ExitCode { Foundation.exit(code.rawValue) }
        fail(CLIArguments.oneLine(message(for: error)))
    }
}

/// Small helpers for the command line's contract (one line, exit 2).
enum CLIArguments {
    /// `--scale -1` and `--size -5x10` would be read by ArgumentParser as an option followed by
    /// the unknown short flags `-1` / `-5x10`, and reported as "Missing value for '--scale'",
    /// which hides the real problem (a negative value). A value that looks like a negative number
    /// right after a `--long` option is attached to it (`--scale=-1`), so the option's own check
    /// reports it.
    static func joiningNegativeValues(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            if a == "--" { result += arguments[i...]; break }
            if a.hasPrefix("--"), !a.contains("="), i + 1 < arguments.count, looksNegative(arguments[i + 1]) {
                result.append(a + "=" + arguments[i + 1])
                i += 2
                continue
            }
            result.append(a)
            i += 1
        }
        return result
    }

    private static func looksNegative(_ s: String) -> Bool {
        guard s.hasPrefix("-"), s.count > 1 else { return false }
        let rest = s.dropFirst()
        return rest.first!.isNumber || rest.first == "." || rest.lowercased().hasPrefix("inf") || rest.lowercased().hasPrefix("nan")
    }

    /// The first line of `message`, without ArgumentParser's "Error: " prefix, and cut to 300
    /// characters: an error must never echo a megabyte of bad input back at the terminal.
    /// Later lines (ArgumentParser lists the allowed values one per line) are joined on.
    static func oneLine(_ message: String) -> String {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard var line = lines.first else { return "invalid arguments" }
        if line.hasPrefix("Error: ") { line.removeFirst("Error: ".count) }
        let rest = lines.dropFirst().map { $0.hasPrefix("- ") ? String($0.dropFirst(2)) : $0 }
        if !rest.isEmpty { line += " " + rest.joined(separator: ", ") }
        return excerpt(line, limit: 300)
    }

    /// `text` cut to `limit` characters with an ellipsis, for messages that quote input.
    static func excerpt(_ text: String, limit: Int = 80) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }
}
