import CCairo
import CRsvg
import Foundation
import SilkGeometry
import SilkSystem

/// An SVG document, rendered with librsvg at whatever size and scale it is drawn (sharp at any
/// scale: it is drawn as vectors through the canvas's transform, never as a scaled bitmap).
///
/// Loading is locked down for untrusted files:
/// - the file is read by Silk (at most ``maximumBytes``) and handed to librsvg as bytes with no
///   base URL (`rsvg_handle_new_from_data`), so librsvg loads **no other file and nothing from
///   the network**: `<image href="other.png">`, `xlink:href="file:///…"`, `<use>` of another
///   file, XInclude and external XML entities all resolve to nothing (librsvg refuses every
///   non-`data:` URL without a base URL; see its "Security and locations of referenced files").
///   Embedded `data:` images still work;
/// - documents with more than ``maximumElements`` elements are refused before parsing (librsvg
///   alone allows a million, which takes seconds to draw);
/// - the render size is the caller's (a node's pixels), never the document's own: a 10⁶×10⁶
///   viewBox or `width` is only scaled, and the intrinsic size reported for layout is clamped to
///   ``maximumIntrinsicDimension``;
/// - libxml2's nesting limit (256 levels, librsvg does not lift it) and entity-expansion checks
///   stay on.
/// Every failure is one `RasterError` naming the file.
///
/// A value type over immutable bytes: `Sendable`. Each draw parses into its own `RsvgHandle` and
/// cairo context, so display queues can draw one document at the same time.
public struct SVGImage: Sendable {
    /// Files larger than this (8 MiB) are refused unread.
    public static let maximumBytes = 8 << 20
    /// Documents with more elements than this (counted as `<` that start a tag) are refused.
    public static let maximumElements = 50_000
    /// The intrinsic size reported for layout is clamped to this many points a side.
    public static let maximumIntrinsicDimension = 16_384.0

    /// The document's bytes.
    public let data: Data
    /// The name errors use: the file's path, or the name given with the data.
    public let name: String
    /// The size the document asks for (its `width`/`height`, else its viewBox), in CSS pixels
    /// (points), clamped to ``maximumIntrinsicDimension``; nil when it declares neither.
    public let intrinsicSize: Size?

    /// Whether `data` looks like SVG: after an optional BOM and whitespace, it starts with `<`
    /// and an `<svg` tag appears in its first 4 KiB. Magic-byte detection, never the file name.
    public static func isSVG(_ data: Data) -> Bool {
        let head = data.prefix(4096)
        guard let first = head.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }),
              first == UInt8(ascii: "<") else { return false }
        return head.range(of: Data("<svg".utf8)) != nil
    }

    /// Whether the file at `path` starts like an SVG document (reads at most 4 KiB; false for
    /// anything but a regular file, so a FIFO is never opened and waited on).
    public static func isSVG(path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, let h = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? h.close() }
        return isSVG((try? h.read(upToCount: 4096)) ?? Data())
    }

    /// Reads and parses the SVG file at `path`. Throws `.io` (unreadable, too large) or
    /// `.corrupt`/`.unsupportedFormat` naming the path.
    public init(contentsOf path: String) throws(RasterError) {
        var st = stat()
        guard stat(path, &st) == 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw .io(path: path, reason: "not a regular file") }
        guard Int(st.st_size) <= SVGImage.maximumBytes else {
            throw .io(path: path, reason: "SVG file of \(st.st_size) bytes is over the limit of \(SVGImage.maximumBytes)")
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .io(path: path, reason: "cannot read: \(error.localizedDescription)")
        }
        try self.init(data: data, name: path)
    }

    /// Parses SVG `data`; `name` is used in error messages.
    public init(data: Data, name: String = "SVG data") throws(RasterError) {
        guard data.count <= SVGImage.maximumBytes else {
            throw .io(path: name, reason: "SVG data of \(data.count) bytes is over the limit of \(SVGImage.maximumBytes)")
        }
        guard SVGImage.isSVG(data) else { throw .io(path: name, reason: "not an SVG document") }
        let elements = data.reduce(into: 0) { n, b in if b == UInt8(ascii: "<") { n += 1 } }
        guard elements <= SVGImage.maximumElements else {
            throw .io(path: name, reason: "SVG has about \(elements) elements, over the limit of \(SVGImage.maximumElements)")
        }
        self.data = data
        self.name = name
        let handle = try SVGImage.parse(data, name: name)
        defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
        var w = 0.0, h = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &w, &h) != 0, w > 0, h > 0, w.isFinite, h.isFinite {
            intrinsicSize = SVGImage.clamped(Size(width: w, height: h))
        } else {
            var hasViewBox: gboolean = 0
            var box = RsvgRectangle()
            rsvg_handle_get_intrinsic_dimensions(handle, nil, nil, nil, nil, &hasViewBox, &box)
            if hasViewBox != 0, box.width > 0, box.height > 0, box.width.isFinite, box.height.isFinite {
                intrinsicSize = SVGImage.clamped(Size(width: box.width, height: box.height))
            } else {
                intrinsicSize = nil
            }
        }
    }

    private static func clamped(_ s: Size) -> Size {
        let m = maximumIntrinsicDimension
        let k = min(1, m / max(s.width, s.height))
        return Size(width: max(1, s.width * k), height: max(1, s.height * k))
    }

    /// A new handle over `data` (`rsvg_handle_new_from_data`: no base URL, default flags, so
    /// no external reference is ever loaded and libxml2's limits stay on).
    private static func parse(_ data: Data, name: String) throws(RasterError) -> UnsafeMutablePointer<RsvgHandle> {
        var error: UnsafeMutablePointer<GError>?
        let handle = data.withUnsafeBytes { raw in
            rsvg_handle_new_from_data(raw.bindMemory(to: guint8.self).baseAddress, gsize(raw.count), &error)
        }
        guard let handle else {
            throw .io(path: name, reason: "invalid SVG: \(takeMessage(error) ?? "librsvg could not parse it")")
        }
        return handle
    }

    private static func takeMessage(_ error: UnsafeMutablePointer<GError>?) -> String? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// Where the document lands when fitted into `rect` with `contentMode` (its intrinsic
    /// size, or `rect`'s when it has none).
    public func destinationRect(in rect: Rect, contentMode: ContentMode) -> Rect {
        guard let s = intrinsicSize else { return rect }
        return contentMode.destinationRect(imageSize: s, in: rect)
    }

    /// Draws the document fitted into `rect` (user space) by `contentMode` and clipped to it,
    /// through the canvas's transform, clip and opacity (`rsvg_handle_render_document`).
    /// Throws when librsvg fails to render, naming the document.
    public func draw(in canvas: Canvas, rect: Rect, contentMode: ContentMode = .aspectFit) throws(RasterError) {
        guard rect.size.isValidExtent, !rect.isEmpty else { return }
        let dest = destinationRect(in: rect, contentMode: contentMode)
        guard dest.size.isValidExtent, !dest.isEmpty else { return }
        let handle = try SVGImage.parse(data, name: name)
        defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
        var failure: String?
        canvas.withCairo { cr in
            cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height)
            cairo_clip(cr)
            let opacity = canvas.opacity
            if opacity < 1 { cairo_push_group(cr) }
            var viewport = RsvgRectangle(x: dest.minX, y: dest.minY, width: dest.width, height: dest.height)
            var error: UnsafeMutablePointer<GError>?
            if rsvg_handle_render_document(handle, cr, &viewport, &error) == 0 {
                failure = SVGImage.takeMessage(error) ?? "librsvg could not render it"
            }
            if opacity < 1 {
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, opacity)
            }
        }
        if let failure { throw .io(path: name, reason: "cannot render SVG: \(failure)") }
    }

    /// Renders the document into a new `width`×`height` bitmap, fitted by `contentMode`.
    public func render(width: Int, height: Int, contentMode: ContentMode = .aspectFit) throws(RasterError) -> Bitmap {
        let bitmap = try Bitmap(width: width, height: height)
        try draw(in: Canvas(bitmap: bitmap), rect: bitmap.bounds, contentMode: contentMode)
        return bitmap
    }
}

/// Rendered SVG files by path, modification time, pixel size and content mode: a list of rows
/// with the same icon renders it once per size. Bounded by ``maximumBytes`` (least recently used
/// entries go first). Thread-safe (one `Locked` dictionary); rendering happens outside the lock.
public enum SVGRenderCache {
    /// The most pixel bytes kept (16 MiB).
    public static let maximumBytes = 16 << 20

    private struct Key: Hashable {
        var path: String, modified: Int, fileSize: Int, width: Int, height: Int, mode: ContentMode
    }
    private struct Entry { var bitmap: Bitmap; var lastUse: Int }
    private struct Store { var entries: [Key: Entry] = [:]; var bytes = 0; var clock = 0 }
    private static let store = Locked(Store())

    /// The file at `path` rendered into a `width`×`height` bitmap fitted by `contentMode`, from
    /// the cache when the file has not changed since. Throws the errors of
    /// ``SVGImage/init(contentsOf:)`` and ``SVGImage/render(width:height:contentMode:)``.
    public static func render(path: String, width: Int, height: Int, contentMode: ContentMode) throws(RasterError) -> Bitmap {
        var st = stat()
        guard stat(path, &st) == 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        let key = Key(path: path, modified: st.st_mtim.tv_sec * 1_000_000_000 + st.st_mtim.tv_nsec, fileSize: Int(st.st_size),
                      width: width, height: height, mode: contentMode)
        if let hit = store.withLock({ s -> Bitmap? in
            s.clock += 1
            s.entries[key]?.lastUse = s.clock
            return s.entries[key]?.bitmap
        }) { return hit }
        let bitmap = try SVGImage(contentsOf: path).render(width: width, height: height, contentMode: contentMode)
        let size = bitmap.stride * bitmap.height
        if size <= maximumBytes / 4 {
            store.withLock { s in
                s.clock += 1
                if let old = s.entries.updateValue(Entry(bitmap: bitmap, lastUse: s.clock), forKey: key) {
                    s.bytes -= old.bitmap.stride * old.bitmap.height
                }
                s.bytes += size
                while s.bytes > maximumBytes, let victim = s.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                    s.bytes -= victim.value.bitmap.stride * victim.value.bitmap.height
                    s.entries[victim.key] = nil
                }
            }
        }
        return bitmap
    }

    /// Empties the cache (tests, memory warnings). Any thread.
    public static func removeAll() { store.withLock { $0 = Store() } }
}
