import SilkGeometry
import SilkRaster
#if canImport(Glibc)
import Glibc
#endif

/// `silk snapshot text`: a page that exercises the text stack — sizes, weights, italic,
/// decorations, a dotted-underline link, CJK, Arabic and Hebrew paragraphs, truncation with the
/// default and a custom token, emoji — and `--text-file PATH`, which lays out any file.
public enum TextScene {
    /// `renderFile` reads at most this many bytes (1 MiB); the rest of a larger file is not shown
    /// and the header says so. Invalid UTF-8 is drawn as U+FFFD, control characters too.
    public static let maximumFileBytes = 1 << 20

    public static func render(size: Size, scale: Double) throws -> Bitmap {
        let bitmap = try Bitmap(size: size, scale: scale)
        bitmap.fill(.white)
        let margin = 20.0
        let width = max(10, size.width - 2 * margin)
        var y = margin
        var base = TextAttributes(fontSize: 15, color: Color(rgb: 0x222222))

        func text(_ s: String, _ change: (inout TextAttributes) -> Void = { _ in }) -> AttributedText {
            var a = base
            change(&a)
            return AttributedText(s, attributes: a)
        }
        /// Lays out and draws at (x, y), returning the layout; `box` shades the constraint.
        @discardableResult
        func place(_ t: AttributedText, x: Double = margin, width w: Double = width, lines: Int = 0,
                   token: AttributedText? = nil, mode: TruncationMode = .tail, box: Bool = false,
                   gap: Double = 8) -> TextLayout {
            let layout = TextLayout(text: t, constrainedTo: Size(width: w, height: .infinity), maximumLines: lines,
                                    truncationToken: token, truncationMode: mode)
            if box {
                bitmap.fill(Color(rgb: 0xEEF2F7), rect: Rect(x: x, y: y, width: w, height: layout.size.height).scaled(by: scale))
            }
            layout.draw(into: bitmap, at: Point(x: x, y: y), scale: scale)
            y += layout.size.height + gap
            return layout
        }
        func heading(_ s: String) {
            place(text(s) { $0.fontSize = 12; $0.fontWeight = .bold; $0.color = Color(rgb: 0x6A7785) }, gap: 3)
        }

        place(text("Silk text") { $0.fontSize = 30; $0.fontWeight = .bold })

        heading("SIZES AND WEIGHTS")
        var sizes = AttributedText()
        for s in [10.0, 13, 16, 20, 26, 34] {
            sizes.append(text("Aa\(Int(s)) ") { $0.fontSize = s })
        }
        place(sizes)
        var weights = text("Light ") { $0.fontWeight = .light }
        weights.append(text("Regular "))
        weights.append(text("Bold ") { $0.fontWeight = .bold })
        weights.append(text("Italic ") { $0.italic = true })
        weights.append(text("Bold Italic ") { $0.fontWeight = .bold; $0.italic = true })
        weights.append(text("Serif ") { $0.fontFamily = "DejaVu Serif" })
        weights.append(text("Mono") { $0.fontFamily = "DejaVu Sans Mono" })
        weights.modifyAttributes(in: 0..<weights.scalarCount) { $0.fontSize = 20 }
        place(weights)

        heading("DECORATIONS")
        var deco = text("Underlined") { $0.underline = .single }
        deco.append(text(", "))
        deco.append(text("double") { $0.underline = .double })
        deco.append(text(", "))
        deco.append(text("a dotted link") {
            $0.underline = .dotted; $0.color = Color(rgb: 0x1A5FD0); $0.link = "https://example.com/silk"
        })
        deco.append(text(", "))
        deco.append(text("struck through") { $0.strikethrough = true; $0.color = Color(rgb: 0xB03030) })
        deco.append(text(", "))
        deco.append(text("highlighted") { $0.backgroundColor = Color(rgb: 0xFFE066) })
        deco.append(text(" and "))
        deco.append(text("tracked out") { $0.kerning = 3 })
        deco.append(text("."))
        place(deco)

        heading("CJK (breaks after ideographs, not before 、。)")
        base.fontSize = 17
        place(text("中文：你好，世界！这是一段用来测试换行的中文文本。日本語：こんにちは、世界。これは改行のテストです。"),
              width: min(width, 330), box: true)

        heading("RIGHT-TO-LEFT (natural alignment)")
        place(text("مرحبا بالعالم! هذا نص عربي يُكتب من اليمين إلى اليسار، مع كلمة English في الوسط."),
              width: min(width, 420), box: true)
        place(text("שלום עולם! זהו טקסט בעברית עם המספר 2026 באמצע."), width: min(width, 420), box: true)

        heading("TRUNCATION (1, 2, 3 lines; custom token; head and middle)")
        base.fontSize = 15
        let long = "The quick brown fox jumps over the lazy dog while the display queue rasterizes glyphs on a background thread, and the main thread stays free to scroll at sixty frames per second."
        let tw = min(width, 360)
        place(text(long), width: tw, lines: 1, box: true, gap: 4)
        place(text(long), width: tw, lines: 2, box: true, gap: 4)
        place(text(long), width: tw, lines: 3, token: text("… more") { $0.color = Color(rgb: 0x1A5FD0); $0.fontWeight = .bold },
              box: true, gap: 4)
        place(text("/home/silk/projects/texture/Source/Layout/ASStackLayoutSpec.mm"), width: tw, lines: 1, mode: .head, box: true, gap: 4)
        place(text("/home/silk/projects/texture/Source/Layout/ASStackLayoutSpec.mm"), width: tw, lines: 1, mode: .middle, box: true)

        heading("JUSTIFIED")
        place(text(long) { $0.alignment = .justified }, width: tw, box: true)

        heading("EMOJI")
        place(text("Colour emoji: 😀 🎉 👍🏽 ❤️ 🇫🇷 — and text ☺ ✓") { $0.fontSize = 20 })

        heading("ALIGNMENT, LINE HEIGHT, MIXED DIRECTIONS")
        place(text("Centred, with a line height of 1.5: every line sits in the middle of the box.") {
            $0.alignment = .center; $0.lineHeightMultiple = 1.5
        }, width: tw, box: true, gap: 4)
        place(text("Right-aligned English with עברית and العربية inside it.") { $0.alignment = .right }, width: tw, box: true)

        heading("HIT TESTING (rects for a range; the link found at a point)")
        var hit = text("Select these words, then tap ")
        let selected = 7..<18
        hit.append(text("the link") { $0.color = Color(rgb: 0x1A5FD0); $0.underline = .single; $0.link = "silk://tapped" })
        hit.append(text("."))
        let hitLayout = TextLayout(text: hit, constrainedTo: Size(width: tw, height: .infinity))
        for r in hitLayout.rects(for: selected) {
            bitmap.fill(Color(rgb: 0xCFE3FF), rect: r.offsetBy(dx: margin, dy: y).scaled(by: scale))
        }
        hitLayout.draw(into: bitmap, at: Point(x: margin, y: y), scale: scale)
        let linkRect = hitLayout.rects(for: (hit.scalarCount - 9)..<(hit.scalarCount - 1)).first ?? .zero
        let found = hitLayout.link(at: linkRect.center)
        y += hitLayout.size.height + 4
        place(text("link(at: \(Int(linkRect.midX)), \(Int(linkRect.midY))) → \(found?.url ?? "nil"), characters \(found.map { "\($0.range)" } ?? "–")") {
            $0.fontFamily = "DejaVu Sans Mono"; $0.fontSize = 12; $0.color = Color(rgb: 0x555555)
        })
        return bitmap
    }

    /// Lays out the file at `path` (any bytes) in `size` and draws it. Throws `RasterError.io`
    /// when the file cannot be read (missing, a directory, no permission).
    public static func renderFile(path: String, size: Size, scale: Double) throws -> Bitmap {
        let (bytes, fileSize) = try readPrefix(path: path, limit: maximumFileBytes)
        let bitmap = try Bitmap(size: size, scale: scale)
        bitmap.fill(.white)
        let margin = 16.0
        let width = max(10, size.width - 2 * margin)
        var header = "\(path) — \(fileSize) bytes"
        if fileSize > bytes.count { header += " (showing the first \(maximumFileBytes / 1024) KiB)" }
        let headerLayout = TextLayout(text: AttributedText(header, attributes: TextAttributes(fontSize: 11, fontWeight: .bold, color: .gray)),
                                      constrainedTo: Size(width: width, height: .infinity), maximumLines: 1,
                                      truncationMode: .middle)
        headerLayout.draw(into: bitmap, at: Point(x: margin, y: margin), scale: scale)
        let top = margin + headerLayout.size.height + 8
        let body = AttributedText(utf8Bytes: bytes, attributes: TextAttributes(fontSize: 14, color: Color(rgb: 0x202020)))
        let layout = TextLayout(text: body, constrainedTo: Size(width: width, height: max(1, size.height - top - margin)))
        layout.draw(into: bitmap, at: Point(x: margin, y: top), scale: scale)
        return bitmap
    }

    /// Reads up to `limit` bytes with POSIX calls (no Foundation exceptions on odd files).
    static func readPrefix(path: String, limit: Int) throws(RasterError) -> (bytes: [UInt8], fileSize: Int) {
        // Non-blocking, regular files only: open(2) of a FIFO otherwise waits forever for a
        // writer, and a tty or device could be read without end.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw .io(path: path, reason: "is a directory") }
        if (st.st_mode & S_IFMT) != S_IFREG { throw .io(path: path, reason: "is not a regular file (\(ImageDecoder.fileKind(st.st_mode)))") }
        var out = [UInt8](repeating: 0, count: limit)
        var total = 0
        while total < limit {
            let n = out.withUnsafeMutableBytes { read(fd, $0.baseAddress! + total, limit - total) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .io(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            total += n
        }
        out.removeSubrange(total...)
        let size = (st.st_mode & S_IFMT) == S_IFREG ? max(Int(st.st_size), total) : total
        return (out, size)
    }
}
