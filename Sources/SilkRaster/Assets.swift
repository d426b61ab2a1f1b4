import Foundation
import SilkSystem

/// Finds Silk's `assets/` folder (built-in fonts and demo photos).
///
/// Search order, first hit wins:
/// 1. `$SILK_ASSETS` (a folder holding `fonts/` and `photos/`);
/// 2. beside the running executable, or up to four parents above it (a build tree such as
///    `.build/release/silk` finds the checkout's `assets/`), or `../share/silk/assets` for an install;
/// 3. the source checkout this module was compiled from (tests, `swift run`).
public enum Assets {
    /// The assets folder found by the search above, once per process; nil when none exists (the
    /// text stack then uses system fonts only).
    public static let directory: URL? = locate()

    /// Why `$SILK_ASSETS` is not used, when it is set to something that is not an assets
    /// folder (the search then goes on without it). A setting that is silently ignored would
    /// render cards without their photos; callers report this instead.
    public static var environmentProblem: String? {
        guard let env = SilkConfiguration.current.assetsPath else { return nil }
        let url = URL(fileURLWithPath: env)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: env, isDirectory: &isDirectory) else { return "SILK_ASSETS=\(env): no such folder" }
        guard isDirectory.boolValue else { return "SILK_ASSETS=\(env): not a folder" }
        guard isAssets(url) else { return "SILK_ASSETS=\(env): no fonts/DejaVuSans.ttf there (expected Silk's assets folder, with fonts/ and photos/)" }
        var photos: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.appendingPathComponent("photos").path, isDirectory: &photos), photos.boolValue else {
            return "SILK_ASSETS=\(env): no photos/ folder there"
        }
        return nil
    }

    /// The built-in default font (DejaVu Sans), always available when `directory` is.
    public static func font(_ name: String) -> URL? {
        directory.map { $0.appendingPathComponent("fonts/\(name)") }
            .flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }
    }
    /// The demo photo `name` from `assets/photos/`, or nil when it is not there: the photos the
    /// demo scenes, benchmarks, tests and `Examples/Rainforest` show (a product ships its own
    /// images).
    public static func photo(_ name: String) -> URL? {
        directory.map { $0.appendingPathComponent("photos/\(name)") }
            .flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }
    }

    private static func isAssets(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent("fonts/DejaVuSans.ttf").path)
    }

    private static func locate() -> URL? {
        if let env = SilkConfiguration.current.assetsPath {
            let url = URL(fileURLWithPath: env)
            if isAssets(url) { return url }
        }
        let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        for _ in 0..<5 {
            for candidate in [dir.appendingPathComponent("assets"),
                              dir.appendingPathComponent("share/silk/assets")] where isAssets(candidate) {
                return candidate
            }
            dir = dir.deletingLastPathComponent()
        }
        let source = URL(fileURLWithPath: #filePath)  // …/Sources/SilkRaster/Assets.swift
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("assets")
        return isAssets(source) ? source : nil
    }
}
