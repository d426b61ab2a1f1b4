import ArgumentParser

/// The `silk` command: snapshots, demos, the layout evaluator and benchmarks.
@main
struct Silk: ParsableCommand {
    static func main() {
        CLILogHandler.install()
        Self.main(nil)
    }

    static let configuration = CommandConfiguration(
        commandName: "silk",
        abstract: "Silk: asynchronous-display UI for Wayland and the Linux framebuffer.",
        subcommands: [SnapshotCommand.self, LayoutCommand.self, BenchCommand.self, LayoutBenchCommand.self, RasterBenchCommand.self, DemoCommand.self, FramebufferBenchCommand.self,
                      ServeCommand.self, NetworkImageBenchCommand.self, BenchStartupProbeCommand.self, SoakCommand.self])
}
