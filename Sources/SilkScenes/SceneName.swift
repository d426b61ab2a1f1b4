import SilkGeometry
import SilkRaster

/// An error from a scene's own inputs (a missing --image, say), distinct from RasterError.
public struct SceneError: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}

/// Every scene `silk snapshot` knows.
public enum SceneName: String, CaseIterable, Sendable {
    case shapes
    case text

    public var defaultSize: Size {
        switch self {
        case .shapes: ShapesScene.defaultSize
        case .text: Size(width: 800, height: 900)
        }
    }

    public static func render(_ scene: SceneName, size: Size?, scale: Double,
                              imagePath: String? = nil, textFile: String? = nil) throws -> Bitmap {
        let size = size ?? scene.defaultSize
        switch scene {
        case .shapes: return try ShapesScene.render(size: size, scale: scale)
        case .text:
            if let textFile { return try TextScene.renderFile(path: textFile, size: size, scale: scale) }
            return try TextScene.render(size: size, scale: scale)
        }
    }
}
