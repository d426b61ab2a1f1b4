import SilkGeometry
import SilkLayout
import SilkNodes
import SilkRaster

/// `silk snapshot card`: one `CardNode` (built on a background queue, as the tutorial does)
/// filling the window, rendered once all of it is displayed.
public enum CardScene {
    public static let defaultSize = Size(width: 360, height: 420)

    public static func render(size: Size = defaultSize, scale: Double = 1,
                              entry: RainforestEntry = RainforestCatalog.entries[0]) throws -> Bitmap {
        guard entry.photoPath != nil else {
            throw SceneError("card: photo \(entry.photo) not found (is assets/ next to the binary, or SILK_ASSETS set?)")
        }
        let card = NodeSnapshot.buildInBackground { CardNode(entry: entry, scale: scale) }
        let root = DisplayNode()
        root.addSubnode(card)
        root.layoutSpecBlock = { _, _ in WrapperLayoutSpec(card) }
        return try NodeSnapshot.render(root, size: size, scale: scale)
    }
}
