import Foundation
import SilkGeometry
import SilkLayout
import SilkNodes
import SilkRaster
import SilkScenes

/// `text-heavy`: a column of 60 paragraphs in six scripts (Latin, Greek, Cyrillic, Chinese,
/// Japanese, Korean, Arabic), each a `TextNode`, scrolled at 1,200 pt/s after a still warm-up,
/// with the rainforest list's display range (1 screen ahead, ½ behind). Every paragraph that
/// enters the range is shaped and rasterized: on the display queues (async) or on the main
/// thread during the pass (sync). Fonts come from fontconfig's per-character fallback; the
/// notes say which family drew each script on this machine. The shared glyph cache is emptied
/// when a mode starts, so glyphs are rasterized in both modes.
public final class TextHeavyBench: BenchScene {
    public static let name = "text-heavy"
    public static let summary = "60 paragraphs (Latin, Greek, Cyrillic, CJK, Arabic) scrolled at 1,200 pt/s; text drawn as it enters the range"
    public static let supportsSync = true
    let wall: TextWallNode
    let warmup: Double

    public init(stage: BenchStage) throws {
        warmup = stage.warmupSeconds
        // Each mode starts with a cold glyph cache, so the second mode is not favoured.
        GlyphCache.shared.removeAll()
        let viewport = stage.size
        wall = NodeSnapshot.buildInBackground { TextWallNode(viewport: viewport, paragraphs: 60) }
        stage.background = .white
        stage.show(wall)
    }

    public func update(time: Double) {
        wall.scroll(to: time < warmup ? 0 : (time - warmup) * 1200)
    }

    public var notes: [String] { TextWallNode.fontsUsed() }
}

/// The paragraphs: a hand-made list that scrolls by moving its bounds origin, like the
/// rainforest list; frames are measured once when it is built (off main).
final class TextWallNode: DisplayNode, @unchecked Sendable {
    static let samples: [(script: String, text: String)] = [
        ("Latin", "Silk brings the ideas of Texture to Linux: layout, text shaping and drawing run on display queues while the main thread stays free for input. A kiosk that scrolls a long page of text at sixty frames a second never waits for a paragraph to be shaped on the main thread; the paragraph appears when its pixels are ready, and the scroll never stutters."),
        ("Chinese", "丝绸框架把异步显示的思想带到了 Linux：布局、文字排版和绘制都在后台显示队列上运行，主线程始终可以及时响应输入。即使在树莓派这样的小型设备上，长篇文字滚动时也能保持每秒六十帧，每个段落在像素准备好之后才出现在屏幕上。"),
        ("Greek", "Το Silk φέρνει τις ιδέες του Texture στο Linux: η διάταξη, η μορφοποίηση κειμένου και η σχεδίαση εκτελούνται σε ουρές εμφάνισης, ενώ το κύριο νήμα μένει ελεύθερο για την είσοδο του χρήστη."),
        ("Japanese", "シルクはテクスチャの考え方をリナックスにもたらします。レイアウト、文字の組版、描画はバックグラウンドの表示キューで実行され、メインスレッドは常に入力に応えられます。小さなボードでも長い文章を毎秒六十フレームでスクロールできます。"),
        ("Cyrillic", "Silk переносит идеи Texture в Linux: вёрстка, форматирование текста и отрисовка выполняются в фоновых очередях, а главный поток всегда свободен для ввода. Даже на маленькой плате длинный текст прокручивается с частотой шестьдесят кадров в секунду."),
        ("Korean", "실크는 텍스처의 아이디어를 리눅스로 가져옵니다. 레이아웃, 텍스트 조판, 그리기는 백그라운드 표시 대기열에서 실행되고 메인 스레드는 항상 입력에 응답할 수 있습니다."),
        ("Arabic", "يجلب سيلك أفكار تكستشر إلى لينكس: يجري التخطيط وتشكيل النصوص والرسم في طوابير عرض خلفية، بينما يبقى الخيط الرئيسي متاحاً دائماً لاستقبال المدخلات. حتى على لوحة صغيرة يمكن تمرير نص طويل بستين إطاراً في الثانية."),
    ]
    static let attributes = TextAttributes(fontSize: 17, color: Color(rgb: 0x222222))
    static let margin = 32.0, spacing = 16.0

    let viewport: Size
    let paragraphs: [TextNode]
    let frames: [Rect]
    let contentHeight: Double

    /// Builds and measures on the calling thread (call it off main).
    init(viewport: Size, paragraphs count: Int) {
        self.viewport = viewport
        let width = max(50, viewport.width - 2 * TextWallNode.margin)
        var y = TextWallNode.margin
        var nodes: [TextNode] = [], frames: [Rect] = []
        for i in 0..<max(1, count) {
            let sample = TextWallNode.samples[i % TextWallNode.samples.count]
            let text = AttributedText("\(i + 1). " + sample.text, attributes: TextWallNode.attributes)
            let h = TextLayout(text: text, constrainedTo: Size(width: width, height: .infinity)).size.height.rounded(.up)
            let node = TextNode(text)
            node.backgroundColor = .white
            node.isOpaque = true
            let f = Rect(x: TextWallNode.margin, y: y, width: width, height: h)
            nodes.append(node); frames.append(f)
            y = f.maxY + TextWallNode.spacing
        }
        paragraphs = nodes
        self.frames = frames
        contentHeight = y + TextWallNode.margin
        super.init()
        name = "text-wall"
        backgroundColor = .white
        isOpaque = true
        clipsToBounds = true
        for (n, f) in zip(nodes, frames) {
            n.updateStyle { $0.width = .points(f.width); $0.height = .points(f.height); $0.layoutPosition = f.origin }
            addSubnode(n)
        }
        _ = try? layoutThatFits(SizeRange(exactly: viewport), parentSize: viewport)
        // Interface states are set on the main thread by the first `scroll(to:)`: their
        // handlers (which mark nodes for display) run on main.
    }

    override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        UnboundedHeightSpec(child: AbsoluteLayoutSpec(sizing: .sizeToFit, children: paragraphs))
    }

    /// Scrolls (bouncing at the ends) and updates the paragraphs' interface states. Main thread.
    func scroll(to offset: Double) {
        let range = max(1, contentHeight - viewport.height)
        let d = offset.truncatingRemainder(dividingBy: 2 * range)
        let y = (d < range ? d : 2 * range - d).rounded()
        boundsOrigin = Point(x: 0, y: y)
        updateRanges(offset: y)
    }

    private func updateRanges(offset top: Double) {
        let h = viewport.height, bottom = top + h
        for (n, f) in zip(paragraphs, frames) {
            var state: InterfaceState = [.measureLayout]
            if f.maxY > top - 1.5 * h && f.minY < bottom + 2.5 * h { state.insert(.preload) }
            if f.maxY > top - 0.5 * h && f.minY < bottom + 1.0 * h { state.insert(.display) }
            if f.maxY > top && f.minY < bottom { state.insert(.visible) }
            if n.interfaceState != state { n.setInterfaceState(state) }
        }
    }

    /// Which font family drew each script here ("Chinese: WenQuanYi Micro Hei").
    static func fontsUsed() -> [String] {
        samples.map { sample in
            let layout = TextLayout(text: AttributedText(sample.text, attributes: attributes),
                                    constrainedTo: Size(width: 10_000, height: .infinity))
            var families: [String] = []
            for run in layout.lines.flatMap(\.runs) where !families.contains(run.font.familyName) {
                families.append(run.font.familyName)
            }
            return "\(sample.script): \(families.joined(separator: ", "))"
        }
    }
}

/// Lays its child out with unbounded height (scroll content taller than the viewport), then
/// takes the viewport's size: paragraphs below the first screen keep their measured heights.
struct UnboundedHeightSpec: LayoutElement {
    let child: any LayoutElement
    var style: Style { Style() }
    var sublayoutElements: [any LayoutElement] { [child] }

    func calculateLayoutThatFits(_ constrainedSize: SizeRange, context: LayoutContext) throws(LayoutError) -> Layout {
        let content = SizeRange(min: Size(width: constrainedSize.min.width, height: 0),
                                max: Size(width: constrainedSize.max.width, height: .infinity))
        let inner = try child.layoutThatFits(content, parentSize: Size(width: constrainedSize.max.width, height: .nan),
                                             context: context)
        return Layout(element: self, size: constrainedSize.clamp(inner.size), sublayouts: [inner])
    }
}
