import ArgumentParser
import Foundation
import SilkLayout
import SilkLayoutTools
import SilkRaster

/// `silk layout FILE.json [--emit OUT.json]`: lays out every case of a layout-corpus file
/// (the schema of Tests/SilkLayoutTests/Fixtures/README.md) through the CSS-to-Silk mapping of
/// docs/layout.md, prints one line per failing case and a final `N passed, M failed`.
/// Exit status: 0 when every case passes, 1 when some fail, 2 for a file that cannot be read
/// or is not in the schema (one line on stderr naming the file and the problem).
struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Lay out the cases of a layout-corpus JSON file and compare them with their expected frames.",
        discussion: "A frame passes when every edge is within --tolerance points of the expected one (after rounding to whole points, as Yoga does).")

    @Argument(help: "A layout-corpus JSON file.") var file: String
    @Option(help: "Write the computed frame of every node, in the cases' tree shape, to this JSON file.")
    var emit: String?
    @Option(help: "Largest difference in points that still matches.") var tolerance: Double = 1
    @Flag(help: "Lay out as Yoga does where Yoga and the browser disagree (for expectations made by Yoga).")
    var yogaCompatible = false

    func run() throws {
        guard tolerance.isFinite, tolerance >= 0 else { layoutInputError("--tolerance \(tolerance): must be ≥ 0") }
        // Reported before the corpus is read and laid out, not after.
        if let emit {
            do { try checkOutputPath(emit, option: "--emit") } catch { layoutInputError(error.message) }
        }
        let cases: [CorpusCase]
        do {
            cases = try CorpusFile.load(contentsOf: URL(fileURLWithPath: file))
        } catch {
            layoutInputError("\(file): \(error.message)")
        }
        var results: [CorpusCaseResult] = []
        results.reserveCapacity(cases.count)
        var failed = 0
        for c in cases {
            let r = CorpusEvaluator.run(c, tolerance: tolerance, yogaCompatible: yogaCompatible)
            if let failure = r.failure {
                failed += 1
                print("FAIL \(c.name): \(failure)")
            }
            results.append(r)
        }
        if let emit {
            do {
                try writeOutput(Data(CorpusEvaluator.emitJSON(results).utf8), to: emit)
            } catch {
                layoutInputError("\(error)")
            }
        }
        print("\(cases.count - failed) passed, \(failed) failed")
        if failed > 0 { throw ExitCode(1) }
    }
}

/// One line to stderr, exit status 2: the CLI's contract for bad input.
private func layoutInputError(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("silk layout: " + message + "\n").utf8))
    Foundation.exit(2)
}
