import Foundation

/// Follows a JPEG as its bytes arrive and says how much of it is worth decoding: the prefix
/// that ends after the last *complete* scan. A progressive JPEG (SOF2) sends the whole picture
/// several times at rising quality, one scan per SOS marker, so that prefix decodes to a full,
/// blurry-then-sharper image (what a browser shows while it loads). A baseline JPEG has one
/// scan; it is never "partially complete" here.
///
/// A scan is complete when the marker after its entropy-coded data has arrived: inside the
/// data, 0xFF is always followed by 0x00 (a stuffed byte) or a restart marker (RST0–7), so
/// the first 0xFF followed by anything else starts the next segment.
///
/// Incremental: `update(with:)` takes the whole buffer so far (it only ever grows) and resumes
/// where the previous call stopped, so following a download costs O(bytes) in total.
public struct JPEGScanTracker: Sendable {
    /// What is known about the data so far.
    public struct Progress: Sendable, Equatable {
        /// A progressive frame header (SOF2, or SOF6/10/14) was seen.
        public var isProgressive = false
        /// The frame header (SOFn) was seen (so the size is known).
        public var hasFrameHeader = false
        /// Scans whose data is complete.
        public var completeScans = 0
        /// Bytes up to the end of the last complete scan (0 when there is none).
        public var decodablePrefixLength = 0
        /// The EOI marker was seen: the file is complete.
        public var isComplete = false
        /// The marker structure is broken (not a JPEG, a bad segment length): stop tracking.
        public var isMalformed = false
    }

    /// What the bytes seen so far contain.
    public private(set) var progress = Progress()
    /// Where the next marker (or, inside a scan, the next search for one) starts.
    private var position = 2
    /// Inside an entropy-coded segment: searching for its end from `position`.
    private var inScan = false

    /// A tracker that has seen no bytes.
    public init() {}

    /// Reads `data` (the whole download so far) from where the previous call stopped.
    @discardableResult
    public mutating func update(with data: Data) -> Progress {
        guard !progress.isComplete, !progress.isMalformed else { return progress }
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let b = raw.bindMemory(to: UInt8.self)
            let n = b.count
            if n >= 2, b[0] != 0xFF || b[1] != 0xD8 { progress.isMalformed = true; return }
            while true {
                if inScan {
                    // STEP: find the end of the entropy-coded data.
                    var i = position
                    var end: Int?
                    while i + 1 < n {
                        if b[i] == 0xFF {
                            let m = b[i + 1]
                            if m != 0x00, !(0xD0...0xD7).contains(m), m != 0xFF { end = i; break }
                        }
                        i += 1
                    }
                    guard let end else { position = max(position, n - 1); return }
                    progress.completeScans += 1
                    progress.decodablePrefixLength = end
                    inScan = false
                    position = end
                    continue
                }
                // STEP: read one marker segment.
                var i = position
                while i < n, b[i] == 0xFF, i + 1 < n, b[i + 1] == 0xFF { i += 1 }  // fill bytes
                guard i + 1 < n else { return }
                guard b[i] == 0xFF else { progress.isMalformed = true; return }
                let marker = b[i + 1]
                if marker == 0xD9 { progress.isComplete = true; progress.decodablePrefixLength = i; return }
                if (0xD0...0xD7).contains(marker) || marker == 0x01 { position = i + 2; continue }
                guard i + 3 < n else { return }
                let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
                guard length >= 2 else { progress.isMalformed = true; return }
                switch marker {
                case 0xC2, 0xC6, 0xCA, 0xCE: progress.isProgressive = true; progress.hasFrameHeader = true
                case 0xC0, 0xC1, 0xC3, 0xC5, 0xC7, 0xC9, 0xCB, 0xCD, 0xCF: progress.hasFrameHeader = true
                default: break
                }
                let next = i + 2 + length
                if marker == 0xDA {
                    // The scan header must be complete before its data can be searched.
                    guard next <= n else { return }
                    inScan = true
                }
                position = next
                if position > n { return }
            }
        }
        return progress
    }
}

extension ImageDecoder {
    /// Decodes the first `length` bytes of a progressive JPEG (a prefix ending after a complete
    /// scan, from `JPEGScanTracker`) as the coarse image those scans describe: an EOI marker is
    /// appended and libjpeg's warnings (missing refinement data) are tolerated, not fatal.
    /// Errors (damaged data, `maxPixels`) still throw. The result has the full image's size
    /// (scaled to `targetSize` like `decode`).
    public static func decodeJPEGPrefix(_ data: Data, length: Int, targetSize: (width: Int, height: Int)? = nil,
                                        maxPixels: Int = RasterLimits.defaultMaxImagePixels) throws(RasterError) -> DecodedImage {
        guard length > 2, length <= data.count, detectFormat(data) == .jpeg else {
            throw .truncated("JPEG prefix of \(length) bytes has no complete scan")
        }
        var prefix = Data(data.prefix(length))
        prefix.append(contentsOf: [0xFF, 0xD9])
        return try JPEGDecoder.decode(prefix, targetSize: targetSize, maxPixels: maxPixels, tolerateWarnings: true)
    }
}
