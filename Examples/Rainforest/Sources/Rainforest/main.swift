import Silk

/// The cards in a collection: as many 280-point columns as fit. Each card's node block runs on
/// a background queue, where the card is also measured; the range controller gives cards their
/// interface states as the grid scrolls, so only cards near the screen hold bitmaps.
final class RainforestGrid: CollectionNode, CollectionDataSource, @unchecked Sendable {
    static let flow = FlowLayout(minimumColumnWidth: 280, itemSpacing: 16, lineSpacing: 16,
                                 sectionInsets: EdgeInsets(top: 16, left: 16, bottom: 16, right: 16))
    private let cardSize: Size

    init(viewport: Size) {
        let width = RainforestGrid.flow.itemWidth(viewport: viewport)
        cardSize = Size(width: width, height: (width * 7 / 6).rounded())
        super.init(layout: RainforestGrid.flow)
        backgroundColor = Color(rgb: 0x1f2a22)
        dataSource = self
    }

    func collection(_ collection: CollectionNode, numberOfItemsInSection section: Int) -> Int { 60 }

    func collection(_ collection: CollectionNode, nodeBlockForItemAt path: ItemPath) -> CellNodeBlock {
        let animal = Animal.all[path.item % Animal.all.count], size = cardSize
        return {
            let card = AnimalCardNode(animal: animal)
            card.updateStyle { $0.width = .points(size.width); $0.height = .points(size.height) }
            return card
        }
    }
}

// --backend, --screenshot FILE.png and --seconds N come from the command line.
let app = Application()
let window: Window
do { window = try app.makeWindow(size: Size(width: 960, height: 600), background: Color(rgb: 0x1f2a22)) }
catch { app.exit(failing: "\(error)") }  // one line and exit 2, not a crash
if Animal.all[0].photoPath == nil { print("rainforest: Silk's assets/photos were not found; set SILK_ASSETS") }
window.setRootNode(RainforestGrid(viewport: window.size))
app.run()
