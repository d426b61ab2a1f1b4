import Foundation
import SilkGeometry
import SilkRaster

/// An error from a scene's own inputs (a missing --image, say), distinct from RasterError.
public struct SceneError: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}

/// Every scene `silk snapshot` knows.
public enum SceneName: String, CaseIterable, Sendable {
    case card
    case rainforest
    case shapes
    case text
    case image
    case kiosk
    /// A column of feed cells from a local demo server (`Feed/FeedScene.swift`).
    case feed
    /// Every standard control in its states, light and dark (`ControlsGallery.swift`).
    case controls

    public var defaultSize: Size {
        switch self {
        case .card: CardScene.defaultSize
        case .rainforest: RainforestScene.defaultSize
        case .shapes: ShapesScene.defaultSize
        case .image: Size(width: 640, height: 480)
        case .text: Size(width: 800, height: 900)
        case .kiosk: KioskScene.defaultSize
        case .feed: FeedScene.defaultSize
        case .controls: ControlsScene.defaultSize
        }
    }

    /// Scenes with a right-to-left version (`silk snapshot SCENE --rtl`).
    public static let rightToLeftScenes: [SceneName] = [.rainforest, .kiosk]

    /// Renders `scene`; `rightToLeft` (only for ``rightToLeftScenes``) mirrors it, in Hebrew
    /// where it has words of its own.
    public static func render(_ scene: SceneName, size: Size?, scale: Double,
                              imagePath: String? = nil, textFile: String? = nil, rightToLeft: Bool = false) throws -> Bitmap {
        let size = size ?? scene.defaultSize
        if rightToLeft && !rightToLeftScenes.contains(scene) {
            throw SceneError("--rtl: only \(rightToLeftScenes.map(\.rawValue).joined(separator: " and ")) have a right-to-left version, not \(scene.rawValue)")
        }
        switch scene {
        case .card: return try CardScene.render(size: size, scale: scale)
        case .kiosk: return try KioskScene.render(size: size, scale: scale, rightToLeft: rightToLeft)
        case .feed: return try FeedScene.render(size: size, scale: scale)
        case .controls: return try ControlsScene.render(size: size, scale: scale)
        case .rainforest: return try RainforestScene.render(size: size, scale: scale, rightToLeft: rightToLeft)
        case .shapes: return try ShapesScene.render(size: size, scale: scale)
        case .image:
            guard let imagePath else { throw SceneError("image: --image PATH is required") }
            return try ImageScene.render(path: imagePath, size: size, scale: scale)
        case .text:
            if let textFile { return try TextScene.renderFile(path: textFile, size: size, scale: scale) }
            return try TextScene.render(size: size, scale: scale)
        }
    }
}
