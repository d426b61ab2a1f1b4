import Foundation
import SilkGeometry
import SilkLayout
import SilkNetworkImage
import SilkNodes
import SilkRaster

/// The content of one feed cell (ASDKgram's photo cell): a header row with the author's round
/// avatar, name and the post's age, the photo at its aspect ratio, then likes, comments and the
/// caption. A plain node subtree with a layout spec — a table cell (CellNode) can host it as is.
///
/// The avatar and the photo are `NetworkImageNode`s: they load when the cell enters the
/// preload range and cancel when it leaves. Text is laid out and drawn off main like any
/// `TextNode`.
public final class FeedCellContentNode: DisplayNode, @unchecked Sendable {
    public let post: FeedPost
    public let avatarNode: NetworkImageNode
    public let photoNode: NetworkImageNode
    public let nameNode = TextNode()
    public let ageNode = TextNode()
    public let likesNode = TextNode()
    public let commentsNode = TextNode()
    public let captionNode = TextNode()

    public static let avatarSize = 36.0
    public static let inset = 12.0

    /// - Parameters:
    ///   - now: the reference time for the post's age (unix seconds; fixed in snapshots).
    ///   - loader: where images come from (the shared loader by default).
    public init(post: FeedPost, now: Int = Int(Date().timeIntervalSince1970), loader: NetworkImageLoader = .shared) {
        self.post = post
        avatarNode = NetworkImageNode(loader: loader)
        photoNode = NetworkImageNode(loader: loader)
        super.init()
        name = "feed post \(post.id)"
        backgroundColor = .white
        isOpaque = true

        avatarNode.url = post.author.avatarURL
        avatarNode.placeholderColor = Color(white: 0.88)
        avatarNode.imageModificationBlock = FeedCellContentNode.circleModification
        avatarNode.updateStyle { $0.width = .points(Self.avatarSize); $0.height = .points(Self.avatarSize) }

        photoNode.url = post.photoURL
        photoNode.contentMode = .aspectFill
        photoNode.placeholderColor = Color(white: 0.93)
        photoNode.forceUpscaling = true

        nameNode.attributedText = AttributedText(post.author.name, attributes: TextAttributes(fontSize: 15, fontWeight: .bold, color: Color(rgb: 0x262626)))
        nameNode.maximumNumberOfLines = 1
        nameNode.updateStyle { $0.flexShrink = 1 }
        ageNode.attributedText = AttributedText(post.age(relativeTo: now), attributes: TextAttributes(fontSize: 14, color: Color(rgb: 0x8e8e8e)))
        likesNode.attributedText = AttributedText("♥ \(Self.grouped(post.likes)) likes", attributes: TextAttributes(fontSize: 14, fontWeight: .bold, color: Color(rgb: 0x262626)))
        commentsNode.attributedText = AttributedText("\(post.comments) comments", attributes: TextAttributes(fontSize: 14, color: Color(rgb: 0x8e8e8e)))
        captionNode.attributedText = AttributedText(post.author.name + "  " + post.caption, attributes: TextAttributes(fontSize: 14, color: Color(rgb: 0x262626), lineHeightMultiple: 1.1))
        captionNode.maximumNumberOfLines = 3
        captionNode.updateStyle { $0.flexShrink = 1 }

        for n in [avatarNode, nameNode, ageNode, photoNode, likesNode, commentsNode, captionNode] as [DisplayNode] { addSubnode(n) }
    }

    public override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        let i = Self.inset
        var spacer = Style(); spacer.flexGrow = 1
        let header = StackLayoutSpec.horizontal(spacing: 10, alignItems: .center, children: [
            avatarNode, nameNode, WrapperLayoutSpec(style: spacer, children: []), ageNode,
        ])
        let photo = RatioLayoutSpec(ratio: Double(post.photoHeight) / Double(max(1, post.photoWidth)), child: photoNode)
        let counts = StackLayoutSpec.horizontal(spacing: 16, alignItems: .center, children: [likesNode, commentsNode])
        let footer = StackLayoutSpec.vertical(spacing: 6, children: [counts, captionNode])
        return StackLayoutSpec.vertical(children: [
            InsetLayoutSpec(insets: EdgeInsets(top: i, left: i, bottom: i, right: i), child: header),
            photo,
            InsetLayoutSpec(insets: EdgeInsets(top: 10, left: i, bottom: 16, right: i), child: footer),
        ])
    }

    /// Cuts the (already scaled) avatar to a circle: the radius follows the image's pixels,
    /// whatever the scale.
    static let circleModification: ImageNode.Modification = { image, _ in
        let out = try Bitmap(width: image.width, height: image.height)
        Canvas(bitmap: out).draw(image, in: out.bounds, cornerRadius: Double(min(image.width, image.height)) / 2)
        return out
    }

    static func grouped(_ n: Int) -> String {
        let s = String(n)
        guard s.count > 3 else { return s }
        var out = ""
        for (k, ch) in s.enumerated() {
            if k > 0, (s.count - k) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return out
    }
}
