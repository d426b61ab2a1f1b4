import ArgumentParser
import Foundation
import SilkGeometry
import SilkRaster
import SilkScenes

/// `silk snapshot SCENE --size WxH --scale S --out FILE.png`: renders a scene synchronously.
struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Render a scene once, synchronously, to a PNG file.",
        discussion: "Scenes: \(SceneName.allCases.map(\.rawValue).joined(separator: ", ")). Waits up to \(NodeSnapshot.defaultSettleLimit) s for the scene to finish laying out and displaying (SILK_SNAPSHOT_SETTLE_SECONDS changes it).")

    @Argument(help: "The scene to render.") var scene: SceneName
    @Option(help: "Size in points, WxH.") var size: SizeArgument?
    @Option(help: "Device pixels per point.") var scale: Double = 1
    @Option(help: "Output PNG path.") var out: String?
    @Option(name: .customLong("image"), help: "For the image scene: the image file to draw.") var imagePath: String?
    @Option(name: .customLong("text-file"), help: "For the text scene: a text file to lay out.") var textFile: String?
    @Flag(help: "rainforest, kiosk: right to left (mirrored; the kiosk in Hebrew).") var rtl = false

    func run() throws {
        guard scale.isFinite, scale >= 0.1, scale <= 8 else {
            fail("--scale \(scale): must be a number between 0.1 and 8")
        }
        if rtl && !SceneName.rightToLeftScenes.contains(scene) {
            fail("--rtl: only \(SceneName.rightToLeftScenes.map(\.rawValue).joined(separator: " and ")) have a right-to-left version, not \(scene.rawValue)")
        }
        let path = out ?? "out/\(scene.rawValue).png"
        // An output that cannot be written is reported before rendering, not after.
        do { try checkOutputPath(path, option: "--out") } catch { fail(error.message) }
        do {
            let bitmap = try SceneName.render(scene, size: size?.size, scale: scale, imagePath: imagePath, textFile: textFile,
                                             rightToLeft: rtl)
            try bitmap.writePNG(to: path)
            print("\(scene.rawValue): wrote \(path) (\(bitmap.width)×\(bitmap.height) px)")
        } catch let error as RasterError {
            // Decoding errors describe the problem; name the file it came from too.
            if case .io = error { fail(error.description) }
            if let input = imagePath ?? textFile { fail("\(input): \(error.description)") }
            fail(error.description)
        } catch let error as SceneError {
            fail(error.description)
        }
    }
}

/// Prints one line to stderr and exits 2: the contract for bad input everywhere in the CLI.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("silk: " + message + "\n").utf8))
    Foundation.exit(2)
}

struct SizeArgument: ExpressibleByArgument {
    let size: Size
    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
              w.isFinite, h.isFinite, w >= 1, h >= 1, w <= 16384, h <= 16384 else { return nil }
        size = Size(width: w, height: h)
    }
}

extension SceneName: ExpressibleByArgument {}
