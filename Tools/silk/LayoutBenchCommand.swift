import ArgumentParser
import Foundation
import SilkLayout
import SilkLayoutTools

/// `silk layout-bench`: lays out a feed-shaped tree (cells of about ten elements: nested
/// stacks, an inset, text-sized leaves) and prints the median cold, cached and
/// one-cell-invalidated times, then the same feed right-to-left and a 1,000-element grid
/// dashboard. Build with `-c release` for meaningful numbers.
struct LayoutBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout-bench",
        abstract: "Measure layout of a 1,000-element feed-shaped tree (cold and cached).")

    @Option(help: "Number of feed cells (about ten elements each).") var cells: Int = 100
    @Option(help: "Timed runs; the median is printed.") var iterations: Int = 200
    @Option(help: "Width of the feed in points.") var width: Double = 375

    func run() throws {
        guard (1...100_000).contains(cells), (1...1_000_000).contains(iterations), width.isFinite, width > 0 else {
            FileHandle.standardError.write(Data("silk layout-bench: --cells, --iterations and --width must be positive\n".utf8))
            Foundation.exit(2)
        }
        print(benchmarkFeedLayout(cells: cells, width: width, iterations: iterations))
        print(benchmarkFeedLayout(cells: cells, width: width, iterations: iterations, direction: .rtl))
        print(benchmarkGridDashboard(iterations: max(1, iterations / 2)))
    }
}
