import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-wayland-protocols`: regenerates
/// the committed wayland-scanner output by running `scripts/generate-protocols.sh`. (A build-tool
/// plugin cannot do this: SwiftPM 6.3 does not compile plugin-generated C sources — see
/// docs/wayland.md.)
@main
struct GenerateWaylandProtocols: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let script = context.package.directoryURL.appending(path: "scripts/generate-protocols.sh")
        let process = Process()
        process.executableURL = URL(filePath: "/bin/bash")
        process.arguments = [script.path(percentEncoded: false)]
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PluginError("scripts/generate-protocols.sh exited with status \(process.terminationStatus)")
        }
    }
}

struct PluginError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
