import CGIF
import Foundation

/// GIF through giflib's sequential API (`DGifGetRecordType`, `DGifGetLine`): one frame at a time,
/// never `DGifSlurp`, which would hold every frame's pixels at once. giflib reports errors by
/// return value, so no C error path unwinds Swift frames.
///
/// Frames are composited onto a canvas of the logical screen's size as browsers do: the canvas
/// starts transparent; a frame's transparent index leaves the canvas pixel; disposal 2 clears the
/// frame's rectangle to transparent (not to the background colour, as every browser does) and
/// disposal 3 restores the canvas as it was before the frame. Frames are clipped to the canvas.
final class GIFFrameDecoder: AnimatedImageFrameSource {
    private let maxPixels: Int
    private var reader: Reader
    private var gif: UnsafeMutablePointer<GifFileType>
    let canvas: Bitmap
    /// A copy of the canvas before a frame with disposal 3 (allocated only when one appears).
    private var saved: Bitmap?
    private var pendingDisposal: (mode: Int32, rect: (x: Int, y: Int, w: Int, h: Int))?
    private var line: [UInt8] = []
    private(set) var frameIndex = 0
    /// The NETSCAPE2.0 loop count when the file has one (0: forever).
    private(set) var netscapeLoops: Int? = nil
    /// Browsers' reading: no NETSCAPE block plays once, 0 forever, n plays n + 1 times.
    var playCount: Int? {
        guard let n = netscapeLoops else { return 1 }
        return n == 0 ? nil : n + 1
    }
    private var atEnd = false

    /// Reading state handed to giflib's input callback through `UserData`. It reads the caller's
    /// `Data` itself (immutable, and kept alive here): a copy would double each animated image's
    /// file in memory for as long as it plays (the media benchmark's four GIFs held 5.4 MiB of copies).
    final class Reader {
        let data: Data
        var offset = 0
        init(data: Data) { self.data = data }
    }

    static func probe(_ data: Data) throws(RasterError) -> ImageDecoder.Info {
        guard data.count >= 10 else { throw .truncated("GIF: \(data.count) bytes, shorter than its header") }
        let w = Int(data[data.startIndex + 6]) | Int(data[data.startIndex + 7]) << 8
        let h = Int(data[data.startIndex + 8]) | Int(data[data.startIndex + 9]) << 8
        return ImageDecoder.Info(format: .gif, width: w, height: h)
    }

    static func decode(_ data: Data, maxPixels: Int) throws(RasterError) -> DecodedImage {
        let decoder = try GIFFrameDecoder(data, maxPixels: maxPixels)
        guard let frame = try decoder.nextFrame() else { throw .corrupt("GIF: no image in the file") }
        return DecodedImage(bitmap: frame.canvas, format: .gif, originalWidth: frame.canvas.width,
                            originalHeight: frame.canvas.height, orientation: 1, decodeScale: 1)
    }

    init(_ data: Data, maxPixels: Int) throws(RasterError) {
        let info = try GIFFrameDecoder.probe(data)
        guard info.width > 0, info.height > 0 else { throw .corrupt("GIF header has a zero dimension (\(info.width)x\(info.height))") }
        guard info.width <= maxPixels / max(1, info.height) else {
            throw .tooManyPixels(width: info.width, height: info.height, limit: maxPixels)
        }
        self.maxPixels = maxPixels
        canvas = try Bitmap(width: info.width, height: info.height)
        reader = Reader(data: data)
        gif = try GIFFrameDecoder.open(reader)
    }

    deinit {
        var error: Int32 = 0
        DGifCloseFile(gif, &error)
    }

    private static func open(_ reader: Reader) throws(RasterError) -> UnsafeMutablePointer<GifFileType> {
        var error: Int32 = 0
        let user = Unmanaged.passUnretained(reader).toOpaque()
        guard let gif = DGifOpen(user, { gif, buffer, length in
            guard let gif, let buffer, length > 0, let user = gif.pointee.UserData else { return 0 }
            let r = Unmanaged<Reader>.fromOpaque(user).takeUnretainedValue()
            let n = min(Int(length), r.data.count - r.offset)
            guard n > 0 else { return 0 }
            r.data.withUnsafeBytes { raw in
                buffer.update(from: raw.baseAddress!.advanced(by: r.offset).assumingMemoryBound(to: GifByteType.self), count: n)
            }
            r.offset += n
            return Int32(n)
        }, &error) else {
            throw classify(error)
        }
        return gif
    }

    static func classify(_ code: Int32) -> RasterError {
        let message = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
        switch code {
        case D_GIF_ERR_READ_FAILED, D_GIF_ERR_EOF_TOO_SOON: return .truncated("GIF: the data ends early (giflib: \(message))")
        case D_GIF_ERR_NOT_ENOUGH_MEM: return .corrupt("GIF: \(message) (giflib)")
        default: return .corrupt("GIF: \(message)")
        }
    }

    /// Starts again at the first frame (the canvas is cleared). Used to loop.
    func rewind() throws(RasterError) {
        // Open a fresh handle over the same bytes before closing the old one, so a failure
        // leaves this decoder valid.
        let fresh = Reader(data: reader.data)
        let reopened = try GIFFrameDecoder.open(fresh)
        var error: Int32 = 0
        DGifCloseFile(gif, &error)
        gif = reopened
        reader = fresh
        canvas.clearPixels(x: 0, y: 0, width: canvas.width, height: canvas.height)
        saved = nil
        pendingDisposal = nil
        frameIndex = 0
        atEnd = false
    }

    /// Decodes the next frame onto the canvas; nil after the last one. A damaged frame throws
    /// (the caller keeps the frames it has).
    func nextFrame() throws(RasterError) -> AnimatedImageFrame? {
        guard !atEnd else { return nil }
        var delayCentiseconds = 0, disposal: Int32 = DISPOSAL_UNSPECIFIED, transparent: Int32 = NO_TRANSPARENT_COLOR
        while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &record) == GIF_OK else {
                // A file that ends after at least one frame, without its trailer: the frames read stand.
                if frameIndex > 0 { atEnd = true; return nil }
                throw GIFFrameDecoder.classify(gif.pointee.Error)
            }
            switch record {
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var ext: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(gif, &code, &ext) == GIF_OK else { throw GIFFrameDecoder.classify(gif.pointee.Error) }
                var first = true, isNetscape = false
                while let block = ext {
                    let length = Int(block[0])
                    if code == GRAPHICS_EXT_FUNC_CODE, first, length >= 4 {
                        var gcb = GraphicsControlBlock()
                        if DGifExtensionToGCB(length, block + 1, &gcb) == GIF_OK {
                            delayCentiseconds = Int(gcb.DelayTime); disposal = gcb.DisposalMode; transparent = gcb.TransparentColor
                        }
                    } else if code == APPLICATION_EXT_FUNC_CODE, first, length == 11 {
                        let id = String(decoding: UnsafeBufferPointer(start: block + 1, count: 11), as: UTF8.self)
                        isNetscape = id == "NETSCAPE2.0" || id == "ANIMEXTS1.0"
                    } else if isNetscape, !first, length >= 3, block[1] == 1 {
                        netscapeLoops = Int(block[2]) | Int(block[3]) << 8
                    }
                    first = false
                    guard DGifGetExtensionNext(gif, &ext) == GIF_OK else { throw GIFFrameDecoder.classify(gif.pointee.Error) }
                }
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) == GIF_OK else { throw GIFFrameDecoder.classify(gif.pointee.Error) }
                try drawImage(transparent: transparent, disposal: disposal)
                // giflib appends every image descriptor to `SavedImages` (a realloc per frame:
                // quadratic copying and memory growing with the frame count, 10⁵ frames took
                // minutes under ASan). Silk keeps no frame: drop them after each one.
                GifFreeSavedImages(gif)
                gif.pointee.ImageCount = 0
                frameIndex += 1
                return AnimatedImageFrame(canvas: canvas, index: frameIndex - 1,
                                          delay: AnimatedImageFrame.clampedDelay(Double(delayCentiseconds) / 100))
            case TERMINATE_RECORD_TYPE:
                atEnd = true
                return nil
            default:
                throw .corrupt("GIF: unknown record")
            }
        }
    }

    private func drawImage(transparent: Int32, disposal: Int32) throws(RasterError) {
        // The previous frame's disposal, now that the next frame is about to be drawn.
        if let p = pendingDisposal {
            if p.mode == DISPOSE_BACKGROUND {
                canvas.clearPixels(x: p.rect.x, y: p.rect.y, width: p.rect.w, height: p.rect.h)
            } else if p.mode == DISPOSE_PREVIOUS, let saved {
                canvas.composite(saved, operation: .source)
            }
        }
        let desc = gif.pointee.Image
        let fx = Int(desc.Left), fy = Int(desc.Top), fw = Int(desc.Width), fh = Int(desc.Height)
        if disposal == DISPOSE_PREVIOUS {
            if saved == nil { saved = try Bitmap(width: canvas.width, height: canvas.height) }
            saved!.composite(canvas, operation: .source)
        }
        // The visible part of the frame (frames may lie partly or wholly outside the canvas).
        let x0 = max(0, fx), y0 = max(0, fy), x1 = min(canvas.width, fx + fw), y1 = min(canvas.height, fy + fh)
        pendingDisposal = (disposal, (x0, y0, max(0, x1 - x0), max(0, y1 - y0)))
        guard fw > 0, fh > 0 else { try skipImageData(); return }
        // A frame's pixel budget is the canvas's: giflib's 16-bit sizes allow 4 G pixels of LZW
        // work in a tiny file.
        guard fw <= maxPixels / fh else { throw .tooManyPixels(width: fw, height: fh, limit: maxPixels) }
        guard let map = desc.ColorMap ?? gif.pointee.SColorMap else { throw .corrupt("GIF: a frame has no colour table") }
        var palette = [UInt32](repeating: 0, count: 256)
        let colors = map.pointee.Colors!
        for i in 0..<min(256, Int(map.pointee.ColorCount)) {
            let c = colors[i]
            palette[i] = 0xFF00_0000 | UInt32(c.Red) << 16 | UInt32(c.Green) << 8 | UInt32(c.Blue)
        }
        let transparentIndex = transparent >= 0 && transparent < 256 ? Int(transparent) : -1
        if line.count < fw { line = [UInt8](repeating: 0, count: fw) }
        // Interlaced rows come in four passes: every 8th row from 0, every 8th from 4, every
        // 4th from 2, every 2nd from 1.
        let passes: [(start: Int, step: Int)] = desc.Interlace ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
        for pass in passes {
            var row = pass.start
            while row < fh {
                let ok = line.withUnsafeMutableBufferPointer { DGifGetLine(gif, $0.baseAddress, Int32(fw)) }
                guard ok == GIF_OK else { throw GIFFrameDecoder.classify(gif.pointee.Error) }
                let y = fy + row
                if y >= y0, y < y1, x1 > x0 {  // (a frame wholly right of the canvas has x1 < x0)
                    let dst = (canvas.data + y * canvas.stride).assumingMemoryBound(to: UInt32.self)
                    for x in x0..<x1 {
                        let index = Int(line[x - fx])
                        if index != transparentIndex { dst[x] = palette[index] }
                    }
                }
                row += pass.step
            }
        }
    }

    /// Reads past a frame's LZW data without decoding it (an empty frame).
    private func skipImageData() throws(RasterError) {
        var size: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetCode(gif, &size, &block) == GIF_OK else { throw GIFFrameDecoder.classify(gif.pointee.Error) }
        while block != nil {
            guard DGifGetCodeNext(gif, &block) == GIF_OK else { throw GIFFrameDecoder.classify(gif.pointee.Error) }
        }
    }

    /// Bytes of pixel memory held (canvas and the disposal-3 copy).
    var retainedBytes: Int { canvas.stride * canvas.height + (saved.map { $0.stride * $0.height } ?? 0) }
}

extension Bitmap {
    /// Sets a rectangle (clipped to the bitmap) to transparent black.
    func clearPixels(x: Int, y: Int, width w: Int, height h: Int) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x1 > x0, y1 > y0 else { return }
        let bpp = format.bytesPerPixel
        for row in y0..<y1 { memset(data + row * stride + x0 * bpp, 0, (x1 - x0) * bpp) }
    }
}
