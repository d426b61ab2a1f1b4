import SilkGeometry
import SilkLayout
import SilkRaster
import SilkScenes
import SilkTestSupport
import Testing
@testable import SilkNodes

/// The rainforest and kiosk demos right to left (`--rtl`): mirrored frames and goldens.
/// The goldens are the demos' 1280×720-point screens at 0.3 scale (small files).
@Suite struct RightToLeftDemoTests {
    @Test func kioskMirrors() throws {
        let size = KioskScene.defaultSize
        for rtl in [false, true] {
            let kiosk = KioskNode(viewport: size, rightToLeft: rtl)
            let layout = try kiosk.layoutThatFits(SizeRange(exactly: size), context: LayoutContext(direction: .ltr))
            NodePass.apply(layout, to: kiosk)
            let tile = kiosk.tiles[0].frame, previous = kiosk.previousButton.frame, title = kiosk.titleNode.frame
            if rtl {
                // The first tile, the first button and the title start at the right edge.
                #expect(tile.maxX == size.width - 16 && previous.maxX == size.width - 16 && title.maxX == size.width - 24)
                #expect(kiosk.list.frame.minX == 16)
                #expect(kiosk.strings.title == KioskStrings.hebrew.title)
                // Hebrew caption, right-aligned in its band.
                let caption = kiosk.tiles[0].caption
                #expect(caption.layoutDirection == .rtl)
                #expect(abs(caption.layout(forWidth: caption.bounds.width).lines[0].rect.maxX - caption.bounds.width) < 1)
            } else {
                #expect(tile.minX == 16 && previous.minX == 16 && title.minX == 24)
                #expect(kiosk.list.frame.maxX == size.width - 16)
            }
        }
    }

    @Test func rightToLeftArrowKeysSwap() {
        let kiosk = KioskNode(viewport: KioskScene.defaultSize, rightToLeft: true)
        _ = kiosk.keyDown(KeyInput(key: .left))
        #expect(kiosk.selectedIndex == 1)
        _ = kiosk.keyDown(KeyInput(key: .right))
        #expect(kiosk.selectedIndex == 0)
    }

    @Test func rainforestGridStartsAtTheRight() throws {
        let size = RainforestScene.defaultSize
        let list = RainforestScene.makeList(count: 8, viewport: size, scale: 1, rightToLeft: true)
        #expect(list.layoutDirection == .rtl)
        let first = list.frameOfCard(0), second = list.frameOfCard(1)
        #expect(first.maxX == size.width - 16)
        #expect(second.maxX < first.minX)
        let ltr = RainforestScene.makeList(count: 8, viewport: size, scale: 1)
        #expect(ltr.frameOfCard(0).minX == 16)
    }

    @Test func kioskGolden() throws {
        let bitmap = try KioskScene.render(size: KioskScene.defaultSize, scale: 0.3, clock: "09:41:00", rightToLeft: true)
        try Golden.verify(bitmap, named: "kiosk-rtl@0.3x", in: Golden.directory(), tolerance: 8, maxDifferingFraction: 0.002)
    }

    @Test func rainforestGolden() throws {
        let bitmap = try RainforestScene.render(size: RainforestScene.defaultSize, scale: 0.3, rightToLeft: true)
        try Golden.verify(bitmap, named: "rainforest-rtl@0.3x", in: Golden.directory(), tolerance: 8, maxDifferingFraction: 0.002)
    }
}
