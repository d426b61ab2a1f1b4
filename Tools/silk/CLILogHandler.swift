import Foundation
import Logging

/// How the `silk` command shows the framework's diagnostics: one line on standard error,
/// `silk: message`, as before the framework logged through swift-log. Debug and trace messages
/// are shown only with `SILK_LOG_LEVEL=debug` (or `trace`).
struct CLILogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level

    init(label: String) {
        logLevel = ProcessInfo.processInfo.environment["SILK_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0.lowercased()) } ?? .info
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
             file: String, function: String, line: UInt) {
        FileHandle.standardError.write(Data("silk: \(message)\n".utf8))
    }

    /// Installs the handler for the whole process (once, first thing in `main`).
    static func install() { LoggingSystem.bootstrap(CLILogHandler.init) }
}
