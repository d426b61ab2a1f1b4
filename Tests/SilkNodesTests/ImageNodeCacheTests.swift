import Foundation
import Testing
import SilkGeometry
import SilkRaster
@testable import SilkNodes

/// Held by every test that checks or changes the state of ImageNode's process-wide caches
/// (their statistics, or low-memory mode, which empties and suspends them): suites run in
/// parallel, and a range controller of another suite in low-memory mode would drop this
/// suite's entries. Other suites' cards still insert entries meanwhile, so the counts below are
/// of this test's own copy of the photo (a path no other test uses).
let imageCachesInTest = NSLock()

/// ImageNode's decoded and modified image caches give the same pixels as decoding and modifying
/// afresh, notice a changed file, and follow the low-memory mode.
@Suite(.serialized) struct ImageNodeCacheTests {
    /// A copy of a photo under a name of this process's own.
    static let photo: String = {
        let path = NSTemporaryDirectory() + "image-node-cache-photo-\(getpid()).jpg"
        try? FileManager.default.removeItem(atPath: path)
        try! FileManager.default.copyItem(atPath: Assets.photo("ladybird.jpg")!.path, toPath: path)
        return path
    }()

    /// One display of `node` at `size` (the class draw a display job runs), as ARGB32 bytes.
    func draw(_ node: ImageNode, size: Size = Size(width: 150, height: 175), scale: Double = 1) throws -> [UInt8] {
        let bitmap = try Bitmap(size: size, scale: scale)
        let canvas = Canvas(bitmap: bitmap, scale: scale)
        try ImageNode.draw(parameters: node.drawParameters(), in: DrawContext(canvas: canvas, bounds: Rect(size: size), scale: scale),
                           isCancelled: { false })
        return (0..<bitmap.height).flatMap { y in Array(UnsafeRawBufferPointer(start: bitmap.data + y * bitmap.stride, count: bitmap.width * 4)) }
    }

    func blurNode(identifier: String?) -> ImageNode {
        let n = ImageNode()
        n.imagePath = Self.photo
        n.imageModificationBlock = ImageNode.blurModification(radius: 12, tintColor: Color(white: 0.5, alpha: 0.3), saturationDeltaFactor: 1.8)
        n.imageModificationIdentifier = identifier
        return n
    }

    @Test func cachedDrawsAreTheSamePixelsAsFreshOnes() throws {
        imageCachesInTest.lock(); defer { imageCachesInTest.unlock() }
        ImageNode.decodedImageCache.removeAll(); ImageNode.modifiedImageCache.removeAll()
        let fresh = try draw(blurNode(identifier: nil))          // decodes (and keeps the decode), blurs
        ImageNode.decodedImageCache.removeAll()
        let plainFresh = try draw({ let n = ImageNode(); n.imagePath = Self.photo; return n }())
        #expect(ImageNode.decodedImageCache.entries(source: Self.photo) == 1)
        let plainCached = try draw({ let n = ImageNode(); n.imagePath = Self.photo; return n }())
        #expect(plainFresh == plainCached)
        #expect(ImageNode.modifiedImageCache.entries(source: Self.photo) == 0)  // no identifier: nothing kept
        let cold = try draw(blurNode(identifier: "test blur 12"))   // blurs, keeps the result
        #expect(ImageNode.modifiedImageCache.entries(source: Self.photo) == 1)
        ImageNode.decodedImageCache.removeAll()
        let warm = try draw(blurNode(identifier: "test blur 12"))   // from the cache: nothing decoded
        #expect(ImageNode.decodedImageCache.entries(source: Self.photo) == 0)
        #expect(cold == fresh)
        #expect(warm == fresh)
        // Another size or scale is another entry, drawn afresh.
        let scaled = try draw(blurNode(identifier: "test blur 12"), scale: 2)
        #expect(ImageNode.modifiedImageCache.entries(source: Self.photo) == 2)
        ImageNode.modifiedImageCache.removeAll(); ImageNode.decodedImageCache.removeAll()
        // Drawn before #expect: Swift 6.0's macro puts the right-hand side in a non-throwing closure.
        let scaledFresh = try draw(blurNode(identifier: nil), scale: 2)
        #expect(scaled == scaledFresh)
    }

    @Test func aNamedModificationKeepsItsResultButNotItsSource() throws {
        imageCachesInTest.lock(); defer { imageCachesInTest.unlock() }
        ImageNode.decodedImageCache.removeAll(); ImageNode.modifiedImageCache.removeAll()
        let cold = try draw(blurNode(identifier: "test blur 12 source"))
        #expect(ImageNode.modifiedImageCache.entries(source: Self.photo) == 1)
        #expect(ImageNode.decodedImageCache.entries(source: Self.photo) == 0, "the result is kept: its decoded source is not")
        // The result evicted: decoded and blurred again, the same pixels.
        ImageNode.modifiedImageCache.removeAll()
        #expect(try draw(blurNode(identifier: "test blur 12 source")) == cold)
        // A result too large for the modified cache: the source is kept instead.
        let budget = ImageNode.modifiedImageCache.byteBudget
        defer { ImageNode.modifiedImageCache.byteBudget = budget }
        ImageNode.modifiedImageCache.removeAll()
        ImageNode.modifiedImageCache.byteBudget = 1024
        _ = try draw(blurNode(identifier: "test blur 12 source"))
        #expect(ImageNode.modifiedImageCache.entries(source: Self.photo) == 0)
        #expect(ImageNode.decodedImageCache.entries(source: Self.photo) == 1)
        ImageNode.decodedImageCache.removeAll()
    }

    @Test func aChangedFileIsDecodedAgain() throws {
        let path = NSTemporaryDirectory() + "image-node-cache-\(getpid()).png"
        defer { unlink(path) }
        let red = try Bitmap(width: 40, height: 40); red.fill(Color(red: 1, green: 0, blue: 0))
        try red.writePNG(to: path)
        let n = ImageNode(); n.imagePath = path; n.contentMode = .scaleToFill
        let first = try draw(n, size: Size(width: 40, height: 40))
        let blue = try Bitmap(width: 40, height: 40); blue.fill(Color(red: 0, green: 0, blue: 1))
        usleep(20_000)  // a later modification time even on coarse clocks
        try blue.writePNG(to: path)
        let second = try draw(n, size: Size(width: 40, height: 40))
        #expect(first != second)
        #expect(Array(second[0..<4]) == [255, 0, 0, 255])  // BGRA in memory: blue
    }

    @Test func lowMemoryModeEmptiesAndSuspendsTheCaches() throws {
        imageCachesInTest.lock(); defer { imageCachesInTest.unlock() }
        _ = try draw(blurNode(identifier: "test blur 12"))
        let controller = RangeController()
        controller.isInLowMemoryMode = true
        #expect(ImageNode.decodedImageCache.isSuspended && ImageNode.modifiedImageCache.isSuspended)
        #expect(ImageNode.decodedImageCache.statistics.entries == 0 && ImageNode.modifiedImageCache.statistics.entries == 0)
        _ = try draw(blurNode(identifier: "test blur 12"))
        #expect(ImageNode.modifiedImageCache.entries(source: Self.photo) == 0)
        controller.isInLowMemoryMode = false
        #expect(!ImageNode.decodedImageCache.isSuspended && !ImageNode.modifiedImageCache.isSuspended)
    }
}
