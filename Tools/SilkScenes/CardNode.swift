import Foundation
import SilkGeometry
import SilkLayout
import SilkNodes
import SilkRaster

/// One card of the Texture tutorial's rainforest app, built from nodes the way the tutorial
/// builds its `AnimalCardNode`: a rasterized container (`rasterizesSubtree`, so the card is
/// drawn in one job and appears at once) holding a background image node whose
/// `imageModificationBlock` blurs the photo (cancellable between row bands), the sharp feature
/// photo, a gradient node over the photo's bottom so the title reads, the title and the wrapped
/// description. A `CellNode`, so the rainforest collection shows it as an item.
public final class CardNode: CellNode, @unchecked Sendable {
    /// The tutorial's blur: radius 30, 50 % grey at 30 % alpha, saturation ×1.8.
    public static let blurRadius = 30.0
    public static let blurTint = Color(white: 0.5, alpha: 0.3)
    public static let blurSaturation = 1.8

    public let backgroundImageNode = ImageNode()
    public let animalImageNode = ImageNode()
    public let gradientNode = GradientNode()
    public let titleNode = TextNode()
    public let descriptionNode = TextNode()

    public init(entry: RainforestEntry, scale: Double = 1) {
        super.init()
        name = "card \(entry.title)"
        rasterizesSubtree = true
        isOpaque = true
        placeholderEnabled = true
        placeholderColor = Color(white: 0.85)
        placeholderFadeDuration = ProcessInfo.processInfo.environment["SILK_NO_FADE"] != nil ? 0 : 0.3
        backgroundColor = Color(rgb: 0x3a5a40)

        backgroundImageNode.imagePath = entry.photoPath
        backgroundImageNode.contentMode = .aspectFill
        backgroundImageNode.imageModificationBlock = ImageNode.blurModification(
            radius: CardNode.blurRadius * scale, tintColor: CardNode.blurTint, saturationDeltaFactor: CardNode.blurSaturation)
        // Names the blur, so every card of the same photo at the same size blurs it once and
        // shares the result (ImageNode.modifiedImageCache).
        backgroundImageNode.imageModificationIdentifier =
            "blur radius=\(CardNode.blurRadius * scale) tint=\(CardNode.blurTint) saturation=\(CardNode.blurSaturation)"

        animalImageNode.imagePath = entry.photoPath
        animalImageNode.contentMode = .aspectFill

        titleNode.attributedText = AttributedText(entry.title, attributes: TextAttributes(fontSize: 26, fontWeight: .bold, color: .white))
        titleNode.maximumNumberOfLines = 2
        descriptionNode.attributedText = AttributedText(entry.description, attributes: TextAttributes(fontSize: 14, color: .white, lineHeightMultiple: 1.15))
        descriptionNode.updateStyle { $0.flexShrink = 1 }

        for n in [backgroundImageNode, animalImageNode, gradientNode, titleNode, descriptionNode] as [DisplayNode] {
            addSubnode(n)
        }
    }

    /// The tutorial's spec: ratio(photo) with the gradient overlaid and the title overlaid at
    /// the bottom-left, stacked over the inset description, on top of the blurred background.
    public override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        let photo = RatioLayoutSpec(ratio: 2.0 / 3.0, child: animalImageNode)
        let gradientOverlay = OverlayLayoutSpec(child: photo, overlay: gradientNode)
        let titlePosition = RelativeLayoutSpec(horizontalPosition: .start, verticalPosition: .end, child: titleNode)
        let titleInset = InsetLayoutSpec(insets: EdgeInsets(top: 0, left: 16, bottom: 12, right: 16), child: titlePosition)
        let titleOverlay = OverlayLayoutSpec(child: gradientOverlay, overlay: titleInset)
        let descriptionInset = InsetLayoutSpec(insets: EdgeInsets(top: 12, left: 16, bottom: 12, right: 16), child: descriptionNode)
        let stack = StackLayoutSpec(direction: .vertical, alignItems: .stretch, children: [titleOverlay, descriptionInset])
        return BackgroundLayoutSpec(child: stack, background: backgroundImageNode)
    }
}

/// A vertical gradient from transparent to 75 % black (the tutorial's GradientView as a node).
public final class GradientNode: DisplayNode, @unchecked Sendable {
    public override class var drawsContent: Bool { true }
    public override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
        let b = context.bounds
        context.canvas.fill(Rect(x: 0, y: b.midY, width: b.width, height: b.height / 2), with: .linearGradient(LinearGradient(
            start: Point(x: 0, y: b.midY), end: Point(x: 0, y: b.maxY),
            stops: [GradientStop(0, .clear), GradientStop(1, Color(white: 0, alpha: 0.75))])))
    }
}
