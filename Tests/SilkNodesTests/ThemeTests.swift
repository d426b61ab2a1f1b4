import Foundation
import Testing
import SilkGeometry
import SilkLayout
import SilkRaster
import SilkRender
import SilkScenes
import SilkTestSupport
@testable import SilkNodes

@Suite struct ThemeInheritanceTests {
    @Test func aThemeIsInheritedDownToTheNodesThatSetTheirOwn() {
        let root = DisplayNode(), mid = DisplayNode(), leaf = SwitchNode(), other = SwitchNode()
        root.addSubnode(mid); mid.addSubnode(leaf); root.addSubnode(other)
        #expect(leaf.effectiveTheme == .light)                  // nothing set anywhere
        root.theme = .dark
        #expect(leaf.effectiveTheme == .dark && other.effectiveTheme == .dark)
        let red = Theme.dark.with { $0.name = "red"; $0.colors.accent = Color(rgb: 0xE53E3E) }
        #expect(red.colors.background == Theme.dark.colors.background && red != .dark)
        mid.theme = red
        #expect(leaf.effectiveTheme == red && other.effectiveTheme == .dark)
        mid.theme = nil
        #expect(leaf.effectiveTheme == .dark)
        leaf.removeFromSupernode()
        #expect(leaf.effectiveTheme == .light)
    }

    @Test func absurdThemeNumbersFallBack() {
        let t = Theme.light.with { $0.fonts.bodySize = .nan; $0.metrics.switchSize = Size(width: -4, height: .infinity) }
        #expect(t.bodyText().fontSize == 16)
        let s = SwitchNode()
        s.theme = t
        #expect(s.calculateSizeThatFits(Size(width: 100, height: 100)) == Size(width: 52, height: 32))
    }
}

extension PipelineTests {
    /// Switching themes at run time redraws only the controls whose drawing changed; the
    /// gallery in both themes as goldens.
    @Suite(.serialized) struct ThemeSwitchingTests {
        @Test func switchingThemesRedrawsOnlyWhatChanged() {
            let sw = SwitchNode(isOn: true), box = CheckBoxNode(title: "Box"), slider = SliderNode(value: 0.5)
            let text = TextNode(AttributedText("plain"))
            let root = DisplayNode()
            for n in [sw, box, slider, text] as [DisplayNode] { n.displaysAsynchronously = false; root.addSubnode(n) }
            root.layoutSpecBlock = { _, _ in
                StackLayoutSpec(direction: .vertical, spacing: 8, alignItems: .start, children: [sw, box, slider, text])
            }
            let h = Harness(root: root, size: Size(width: 300, height: 200))
            #expect(h.iterate(until: { h.pass.isDisplayComplete }))
            func jobs(after change: () -> Void) -> Int {
                let before = h.pass.statistics.jobsStarted
                change()
                _ = h.iterate(until: { h.pass.isDisplayComplete })
                h.iterate()
                return h.pass.statistics.jobsStarted - before
            }
            #expect(jobs(after: { root.theme = .dark }) == 3)            // every control; not the text
            #expect(jobs(after: { root.theme = Theme.dark.with { $0.colors.danger = .green } }) == 0)   // nobody shows it
            // The switch's and the slider's thumbs are layer colours: recoloured, not redrawn.
            #expect(jobs(after: { root.theme = Theme.dark.with { $0.colors.danger = .green; $0.colors.thumb = .red } }) == 0)
            #expect(slider.thumbNode.backgroundColor == .red && sw.thumbNode.backgroundColor == .red)
            #expect(jobs(after: { root.theme = Theme.dark.with { $0.colors.danger = .green; $0.colors.thumb = .red } }) == 0)  // the same again
            #expect(jobs(after: { box.theme = Theme.light }) == 1)       // a node's own theme
            #expect(jobs(after: { root.theme = .light }) == 2)           // box keeps its own
            #expect(box.effectiveTheme == .light && sw.effectiveTheme == .light)
        }

        @Test func galleryInBothThemes() throws {
            let bitmap = try ControlsScene.render(size: ControlsScene.defaultSize, scale: 1)
            try Golden.verify(bitmap, named: "controls-gallery@1x", in: Golden.directory())
        }

        @Test func galleryAtTwiceTheScaleIsSharp() throws {
            let bitmap = try ControlsScene.render(size: Size(width: 480, height: 300), scale: 2, themes: [.light])
            try Golden.verify(bitmap, named: "controls-light@2x", in: Golden.directory())
        }
    }
}
