import Silk

/// The tutorial's `AnimalCardNode`. Any thread may create and configure it: nodes guard their
/// state with a lock. Nothing here draws on the main thread — the images decode, blur and
/// draw on Silk's display queues when the card enters the display range.
final class AnimalCardNode: CellNode, @unchecked Sendable {
    private let background = ImageNode()
    private let photo = ImageNode()
    private let shade = ShadeNode()
    private let title = TextNode()
    private let story = TextNode()

    init(animal: Animal) {
        super.init()
        // The whole card is drawn as one bitmap in one job, so it appears at once, fading in
        // over a grey placeholder.
        rasterizesSubtree = true
        placeholderEnabled = true
        placeholderColor = Color(white: 0.85)
        backgroundColor = Color(rgb: 0x3a5a40)

        background.imagePath = animal.photoPath
        background.contentMode = .aspectFill
        // The tutorial's image modification: blurred, tinted, more saturated (off main).
        background.imageModificationBlock = ImageNode.blurModification(
            radius: 30, tintColor: Color(white: 0.5, alpha: 0.3), saturationDeltaFactor: 1.8)
        photo.imagePath = animal.photoPath
        photo.contentMode = .aspectFill

        title.attributedText = AttributedText(animal.name, attributes: TextAttributes(fontSize: 26, fontWeight: .bold, color: .white))
        story.attributedText = AttributedText(animal.story, attributes: TextAttributes(fontSize: 15, color: .white))
        story.updateStyle { $0.flexShrink = 1 }
        for node in [background, photo, shade, title, story] as [DisplayNode] { addSubnode(node) }
    }

    /// The layout, as in the tutorial: a 3:2 photo with the shade and the title over its bottom,
    /// above the inset story, all on the blurred background. Measured off the main thread.
    override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        let photoSpec = RatioLayoutSpec(ratio: 2.0 / 3.0, child: photo)
        let shaded = OverlayLayoutSpec(child: photoSpec, overlay: shade)
        let titleSpec = InsetLayoutSpec(insets: EdgeInsets(top: 0, left: 16, bottom: 12, right: 16),
                                        child: RelativeLayoutSpec(horizontalPosition: .start, verticalPosition: .end, child: title))
        let header = OverlayLayoutSpec(child: shaded, overlay: titleSpec)
        let storySpec = InsetLayoutSpec(insets: EdgeInsets(top: 12, left: 16, bottom: 12, right: 16), child: story)
        let column = StackLayoutSpec(direction: .vertical, alignItems: .stretch, children: [header, storySpec])
        return BackgroundLayoutSpec(child: column, background: background)
    }
}

/// A gradient from clear to 70 % black over the bottom half, so the title reads on any photo.
/// A node that draws overrides `draw(parameters:in:isCancelled:)`: a class method, run on a
/// display queue with only the parameters it was given, so it cannot race the node.
final class ShadeNode: DisplayNode, @unchecked Sendable {
    override class var drawsContent: Bool { true }
    override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        let b = context.bounds
        context.canvas.fill(Rect(x: 0, y: b.midY, width: b.width, height: b.height / 2), with: .linearGradient(LinearGradient(
            start: Point(x: 0, y: b.midY), end: Point(x: 0, y: b.maxY),
            stops: [GradientStop(0, .clear), GradientStop(1, Color(white: 0, alpha: 0.7))])))
    }
}
