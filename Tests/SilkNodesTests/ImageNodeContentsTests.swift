import Foundation
import Testing
import SilkGeometry
import SilkRaster
import SilkRender
@testable import SilkNodes

/// An image node whose `image` is already at its device pixels shows that bitmap itself (a view
/// of its pixels) instead of drawing a copy of it: a feed's photos, decoded at their cell's size,
/// are held once. Anything the drawing would change (a modification, a crop, another size, a
/// fractional pixel size, the debug overlay, another pixel format) is still drawn.
@Suite(.serialized) struct ImageNodeContentsTests {
    init() { NodeScheduler.shared.synchronousDisplay = false }

    /// Counts the display jobs that draw (the exact-size case must not reach `draw`).
    final class CountingImageNode: ImageNode, @unchecked Sendable {
        static let draws = Counter()
        override class func draw(parameters: (any Sendable)?, in context: DrawContext, isCancelled: () -> Bool) throws {
            draws.increment()
            try super.draw(parameters: parameters, in: context, isCancelled: isCancelled)
        }
    }

    /// A pattern with translucent pixels (premultiplied), so a copy that changed them would show.
    static func pattern(width: Int, height: Int, format: PixelFormat = .argb32) throws -> Bitmap {
        let b = try Bitmap(width: width, height: height, format: format)
        for y in 0..<height {
            for x in 0..<width {
                let a = UInt32(55 + (x * 7 + y * 3) % 200)
                let r = a * UInt32(x % 5) / 4, g = a * UInt32(y % 3) / 2, bl = a / 2
                let px = format == .argb32 ? (a << 24 | r << 16 | g << 8 | bl) : (0xff00_0000 | r << 16 | g << 8 | bl)
                (b.data + y * b.stride).storeBytes(of: px, toByteOffset: x * 4, as: UInt32.self)
            }
        }
        return b
    }

    /// What the display job draws for `node` at `size` × `scale` (the drawing path, forced).
    func drawn(_ node: ImageNode, size: Size, scale: Double) throws -> Bitmap {
        let bitmap = try Bitmap(size: size, scale: scale)
        try ImageNode.draw(parameters: node.drawParameters(),
                           in: DrawContext(canvas: Canvas(bitmap: bitmap, scale: scale), bounds: Rect(size: size), scale: scale),
                           isCancelled: { false })
        return bitmap
    }

    func pixels(_ b: Bitmap) -> [UInt32] {
        (0..<b.height).flatMap { y in (0..<b.width).map { b.argb32(x: $0, y: y) } }
    }

    /// The bitmap a display job of `node` produces (DisplayWork, as the node pass runs it).
    func render(_ node: ImageNode, size: Size, scale: Double) throws -> Bitmap {
        let (bitmap, failure) = DisplayWork.single(type(of: node), node.drawParameters()).render(size: size, scale: scale, isCancelled: { false })
        #expect(failure == nil)
        return try #require(bitmap)
    }

    @Test func anImageAtTheNodesPixelsIsShownWithoutASecondBitmap() throws {
        let image = try Self.pattern(width: 40, height: 30)
        let root = DisplayNode()
        let node = CountingImageNode()
        node.frame = Rect(x: 0, y: 0, width: 40, height: 30)
        node.image = image
        root.addSubnode(node)
        let before = CountingImageNode.draws.value
        let h = Harness(root: root, size: Size(width: 40, height: 30))
        #expect(h.iterate(until: { node.layer?.contents != nil }))
        let contents = try #require(node.layer?.contents)
        // The layer's contents are the image's own pixels: no bitmap was allocated or drawn.
        #expect(contents.data == image.data)
        #expect(CountingImageNode.draws.value == before)
        #expect(node.lastDisplayError == nil)
        // …and they are exactly what drawing would have made.
        let expected = try drawn(node, size: Size(width: 40, height: 30), scale: 1)
        #expect(pixels(contents) == pixels(expected))

        // Resized so the image no longer fits 1:1: drawn again into a bitmap of the new size.
        node.frame = Rect(x: 0, y: 0, width: 20, height: 15)
        #expect(h.iterate(until: { node.layer?.contents.map { $0.width == 20 } ?? false }))
        #expect(node.layer?.contents?.data != image.data)
        #expect(CountingImageNode.draws.value > before)
    }

    @Test func everyContentModeShowsTheSamePixelsAsDrawing() throws {
        for format in [PixelFormat.argb32, .xrgb32] {
            for scale in [1.0, 2.0] {
                let image = try Self.pattern(width: 36, height: 24, format: format)
                let size = Size(width: 36 / scale, height: 24 / scale)
                for mode in ContentMode.allCases {
                    for upscale in [false, true] {
                        let node = ImageNode()
                        node.image = image; node.contentMode = mode; node.forceUpscaling = upscale
                        let shown = try render(node, size: size, scale: scale)
                        #expect(shown.data == image.data, "\(format) \(scale) \(mode) \(upscale)")
                        let expected = try drawn(node, size: size, scale: scale)
                        #expect(pixels(shown) == pixels(expected), "\(format) \(scale) \(mode) \(upscale)")
                    }
                }
            }
        }
    }

    @Test func whatDrawingWouldChangeIsDrawn() throws {
        let image = try Self.pattern(width: 40, height: 30)
        func node(_ configure: (ImageNode) -> Void = { _ in }) -> ImageNode {
            let n = ImageNode(); n.image = image; configure(n); return n
        }
        let exact = Size(width: 40, height: 30)
        var cases: [(String, ImageNode, Size, Double)] = [
            ("smaller node", node(), Size(width: 20, height: 15), 1),
            ("larger node", node(), Size(width: 80, height: 60), 1),
            ("other aspect", node(), Size(width: 40, height: 20), 1),
            ("fractional pixels", node(), Size(width: 39.5, height: 30), 1),
            ("scale 2", node(), exact, 2),
            ("modification", node { $0.imageModificationBlock = ImageNode.tintModification(Color(red: 1, green: 0, blue: 0)) }, exact, 1),
            ("crop", node { $0.cropRect = Rect(x: 0.25, y: 0.25, width: 0.5, height: 0.5) }, exact, 1),
        ]
        let rgb565 = try Bitmap(width: 40, height: 30, format: .rgb565)
        rgb565.fill(Color(red: 0, green: 0.5, blue: 1))
        cases.append(("rgb565", { let n = ImageNode(); n.image = rgb565; return n }(), exact, 1))
        for (name, n, size, scale) in cases {
            let shown = try render(n, size: size, scale: scale)
            #expect(shown.data != image.data && shown.data != rgb565.data, "\(name)")
            #expect(shown.format == .argb32, "\(name)")
            let expected = try drawn(n, size: size, scale: scale)
            #expect(pixels(shown) == pixels(expected), "\(name)")
        }
        // The scaling debug overlay is drawn too (parameters made by hand: the switch is global).
        let overlay = ImageNode.Parameters(image: image, path: nil, data: nil, playsAnimations: true, contentMode: .aspectFill,
                                           cropRect: ContentMode.defaultCropRect, forceUpscaling: false, modification: nil,
                                           modificationIdentifier: nil, debugOverlay: true, node: nil)
        #expect(ImageNode.readyContents(parameters: overlay, size: exact, scale: 1) == nil)
        let plain = ImageNode.Parameters(image: image, path: nil, data: nil, playsAnimations: true, contentMode: .aspectFill,
                                         cropRect: ContentMode.defaultCropRect, forceUpscaling: false, modification: nil,
                                         modificationIdentifier: nil, debugOverlay: false, node: nil)
        #expect(ImageNode.readyContents(parameters: plain, size: exact, scale: 1)?.data == image.data)
    }
}
