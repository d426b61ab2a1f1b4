import FuzzSupport
import Glibc
import SilkGeometry
import SilkRaster
import SilkScenes

// libFuzzer target: the text stack (fontconfig fallback, FriBidi, HarfBuzz, line breaking,
// truncation, hit testing, FreeType drawing) on arbitrary bytes. The first byte chooses a mode:
//   even: the bytes become attributed text — a header picks the constraint, line limit and
//         truncation, then chunks of UTF-8 (valid or not) each get fuzzed attributes;
//   odd:  the bytes are written to a file and go through the file loader `TextScene.renderFile`
//         (`silk snapshot text --text-file`), invalid UTF-8 included.
// Seeds: Fuzz/corpus/text.

private let filePath: String = {
    let dir = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    return "\(dir)/silk-fuzz-text-\(getpid()).txt"
}()

private func attributes(_ input: inout FuzzInput) -> TextAttributes {
    var a = TextAttributes(fontSize: input.double(scale: 48))
    a.fontFamily = ["DejaVu Sans", "serif", "monospace", "Noto Color Emoji", "", "no such family"][input.below(6)]
    a.fontWeight = FontWeight(Double(input.byte()) * 4)
    a.italic = input.bool()
    a.kerning = input.below(4) == 0 ? input.double(scale: 8) - 2 : 0
    a.lineHeightMultiple = input.double(scale: 3)
    a.alignment = [.natural, .left, .center, .right, .justified][input.below(5)]
    a.baseWritingDirection = [.natural, .leftToRight, .rightToLeft][input.below(3)]
    a.underline = [.none, .single, .double, .dotted][input.below(4)]
    a.strikethrough = input.bool()
    a.backgroundColor = input.bool() ? .lightGray : nil
    a.link = input.bool() ? "silk://fuzz" : nil
    a.language = [nil, "ja", "ar", "zh-Hans", "x-nonsense-tag"][input.below(5)]
    return a
}

private func attributedText(_ input: inout FuzzInput) -> (AttributedText, Size, Int, TruncationMode, AttributedText?) {
    let width = [Double.infinity, 0, 3, 40, 120, 300, input.double(scale: 500)][input.below(7)]
    let height = input.bool() ? input.double(scale: 200) : .infinity
    let maxLines = input.below(5)
    let mode: TruncationMode = [.head, .middle, .tail][input.below(3)]
    let token: AttributedText? = input.below(4) == 0 ? AttributedText(utf8Bytes: input.take(input.below(6))) : nil
    var text = AttributedText()
    while !input.isAtEnd {
        let a = attributes(&input)
        text.append(AttributedText(utf8Bytes: input.take(1 + Int(input.byte())), attributes: a))
    }
    return (text, Size(width: width, height: height), maxLines, mode, token)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzText(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    var input = FuzzInput(data, count)
    if input.byte() & 1 == 1 {
        let body = input.remaining
        let fd = open(filePath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return 0 }
        _ = body.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        _ = try? TextScene.renderFile(path: filePath, size: Size(width: 160, height: 120), scale: 1)
        return 0
    }
    let (text, constraint, maxLines, mode, token) = attributedText(&input)
    let layout = TextLayout(text: text, constrainedTo: constraint, maximumLines: maxLines,
                            truncationToken: token, truncationMode: mode)
    precondition(layout.size.width.isFinite && layout.size.height.isFinite)
    if maxLines > 0 { precondition(layout.lineCount <= maxLines) }
    for line in layout.lines {
        precondition(line.characterRange.lowerBound >= 0 && line.characterRange.upperBound <= text.scalarCount)
    }
    for p in [Point(x: 1, y: 1), Point(x: layout.size.width / 2, y: layout.size.height / 2), Point(x: -5, y: 1e6)] {
        if let i = layout.characterIndex(at: p) { precondition(i >= 0 && i <= text.scalarCount) }
        _ = layout.link(at: p)
    }
    _ = layout.rects(for: 0..<text.scalarCount)
    if let bitmap = try? Bitmap(width: 96, height: 64) {
        layout.draw(into: bitmap, at: Point(x: 2, y: 2), scale: 1.5)
    }
    return 0
}

@main enum FuzzTextMain {
    static func main() {
        // fontconfig loses 288 bytes once while parsing its configuration (scripts/lsan.supp);
        // load it before libFuzzer starts checking every input for leaks.
        withoutLeakChecks {
            let warmUp = TextLayout(text: AttributedText("warm up العربية 日本語 👍"), constrainedTo: Size(width: 100, height: 100))
            if let bitmap = try? Bitmap(width: 8, height: 8) { warmUp.draw(into: bitmap, at: .zero, scale: 1) }
        }
        runFuzzer { fuzzText($0, $1) }
    }
}
