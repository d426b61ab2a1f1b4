import Foundation
import SilkGeometry
import SilkRaster
import Testing

// Layout + rasterization of a 300-character paragraph with a cold and a warm glyph cache.
// Runs only when SILK_TEXT_BENCH is set; measure a release build:
//
//   SILK_TEXT_BENCH=1 swift test -c release --scratch-path .build-text -Xswiftc -enable-testing \
//       --filter TextBenchmark
//
// Prints medians of 31 runs of thread CPU time (fonts already loaded; cold = glyph cache and
// loaded outlines emptied first).

@Suite("Text benchmark")
struct TextBenchmark {
    static let paragraph: String = {
        let s = "Silk brings the ideas of Texture to Linux: layout, text shaping and drawing run on display queues while the main thread stays free for input. Text is shaped with HarfBuzz, broken into lines, and drawn from a glyph cache shared by every thread, so a list of cards scrolls at sixty frames per second on a small board."
        return String(s.prefix(300))
    }()

    @Test(.enabled(if: ProcessInfo.processInfo.environment["SILK_TEXT_BENCH"] != nil))
    func paragraphColdAndWarm() throws {
        let text = AttributedText(Self.paragraph, attributes: TextAttributes(fontSize: 15))
        #expect(text.scalarCount == 300)
        let size = Size(width: 320, height: .infinity)
        let cache = GlyphCache(byteBudget: 32 << 20)
        for scale in [1.0, 2.0] {
            let probe = TextLayout(text: text, constrainedTo: size)  // loads fonts
            let bitmap = try Bitmap(size: Size(width: 320, height: probe.size.height + 4), scale: scale)
            // Thread CPU time (CLOCK_THREAD_CPUTIME_ID): on this shared machine wall time swings
            // 30–50 % with other builds; CPU time of the measuring thread does not.
            func cpu() -> Double {
                var ts = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
                return Double(ts.tv_sec) * 1e6 + Double(ts.tv_nsec) / 1000
            }
            func time(_ body: () -> Void) -> Double {
                let c0 = cpu()
                body()
                return cpu() - c0
            }
            func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
            var cold: [Double] = [], warm: [Double] = [], layoutOnly: [Double] = [], drawOnly: [Double] = []
            var glyphs = 0, renders = 0
            for _ in 0..<31 {
                cache.removeAll()
                FontDatabase.shared.removeCachedOutlines()
                cold.append(time {
                    let l = TextLayout(text: text, constrainedTo: size)
                    l.draw(into: bitmap, scale: scale, glyphCache: cache)
                })
                renders = cache.statistics.misses
                warm.append(time {
                    let l = TextLayout(text: text, constrainedTo: size)
                    l.draw(into: bitmap, scale: scale, glyphCache: cache)
                })
                var l: TextLayout? = nil
                layoutOnly.append(time { l = TextLayout(text: text, constrainedTo: size) })
                drawOnly.append(time { l!.draw(into: bitmap, scale: scale, glyphCache: cache) })
                glyphs = l!.lines.reduce(0) { $0 + $1.runs.reduce(0) { $0 + $1.glyphCount } }
            }
            print(String(format: "text bench scale %.0f: %d glyphs, %d lines, %d glyph renders when cold; CPU time: layout+draw cold %.0f µs, warm %.0f µs (layout %.0f µs, draw %.0f µs); cold/warm %.1f×",
                         scale, glyphs, probe.lineCount, renders, median(cold), median(warm), median(layoutOnly), median(drawOnly),
                         median(cold) / median(warm)))
        }
    }
}
