import Foundation
import Testing
import SilkGeometry
import SilkNodes
import SilkRaster
import SilkRender
import SilkScenes
import SilkTestSupport

/// Nodes using the drawing features end to end (node → display job → layer → compositor): an
/// SVG `ImageNode`, a box shadow, rounded clipping of subnodes and group opacity.
@Suite struct DrawingNodeTests {
    let dir = Golden.directory()

    @Test func svgImageNodeShadowClippingAndGroupOpacity() throws {
        let icon = try #require(Assets.directory).appendingPathComponent("icons/check.svg").path
        let root = DisplayNode()
        root.frame = Rect(x: 0, y: 0, width: 200, height: 100)
        root.backgroundColor = Color(white: 0.94)

        let image = ImageNode()
        image.frame = Rect(x: 10, y: 10, width: 48, height: 48)
        image.imagePath = icon
        image.contentMode = .aspectFit
        root.addSubnode(image)

        let card = DisplayNode()
        card.frame = Rect(x: 80, y: 15, width: 100, height: 70)
        card.backgroundColor = .white
        card.cornerRadius = 14
        card.clipsToBounds = true
        card.boxShadow = Shadow(color: Color(white: 0, alpha: 0.4), offset: Point(x: 0, y: 3), blurRadius: 5)
        let band = DisplayNode()
        band.frame = Rect(x: 0, y: 0, width: 100, height: 30)
        band.backgroundColor = Color(rgb: 0x3182CE)
        card.addSubnode(band)
        let a = DisplayNode(), b = DisplayNode()
        a.frame = Rect(x: 10, y: 38, width: 40, height: 24); a.backgroundColor = .red
        b.frame = Rect(x: 30, y: 38, width: 40, height: 24); b.backgroundColor = .blue
        let group = DisplayNode()
        group.frame = Rect(x: 0, y: 0, width: 100, height: 70)
        group.opacity = 0.5
        group.rendersAsGroup = true
        group.addSubnode(a); group.addSubnode(b)
        card.addSubnode(group)
        root.addSubnode(card)

        let bitmap = try NodeSnapshot.render(root, size: Size(width: 200, height: 100), scale: 2)
        #expect(image.lastError == nil)
        // The icon's circle is rendered at 2× (96 px): its centre is green, sharp and opaque.
        let centre = bitmap.argb32(x: 2 * 34, y: 2 * 28)
        #expect(centre >> 24 == 255 && (centre >> 8) & 0xFF > 100)
        // The blue band is clipped by the card's rounded top-left corner.
        #expect((bitmap.argb32(x: 2 * 80 + 1, y: 2 * 15 + 1) >> 16) & 0xFF > 120)  // grey, not the band's blue
        // Group opacity: the overlap of red and blue shows only blue at 50 %.
        #expect(bitmap.argb32(x: 2 * 125, y: 2 * 65) == bitmap.argb32(x: 2 * 145, y: 2 * 65))
        try Golden.verify(bitmap, named: "drawing-nodes@2x", in: dir)
    }
}
