import Foundation
import Testing
import SilkGeometry
import SilkLayout
import SilkRunLoop
@testable import SilkNodes

@Suite struct ScrollIndicatorGeometryTests {
    @Test func lengthAndPositionFollowContentAndOffset() throws {
        func thumb(_ offset: Double, content: Double = 200, minimum: Double = 0) throws -> ScrollIndicator.Thumb {
            try #require(ScrollIndicator.thumb(viewportLength: 100, contentLength: content, offset: offset, trackLength: 100, minimumLength: minimum))
        }
        #expect(try thumb(0) == .init(start: 0, length: 50))          // half the content shows: half the track
        #expect(try thumb(50) == .init(start: 25, length: 50))        // half way
        #expect(try thumb(100) == .init(start: 50, length: 50))       // at the end
        #expect(try thumb(0, content: 400).length == 25)
        #expect(try thumb(150, content: 400).start == 37.5)
        // A long list's thumb keeps the minimum length, and still reaches both ends.
        #expect(try thumb(0, content: 100_000, minimum: 32) == .init(start: 0, length: 32))
        #expect(try thumb(99_900, content: 100_000, minimum: 32) == .init(start: 68, length: 32))
        // Pulled past an end it shrinks by the overshoot (never below the minimum) and stays there.
        #expect(try thumb(-20) == .init(start: 0, length: 30))
        #expect(try thumb(120) == .init(start: 70, length: 30))
        #expect(try thumb(-500, minimum: 10) == .init(start: 0, length: 10))
        // The default minimum.
        #expect(ScrollIndicator.thumb(viewportLength: 100, contentLength: 10_000, offset: 0, trackLength: 94)?.length == ScrollIndicator.minimumLength)
    }

    @Test func absurdInputsShowNothingAndNeverTrap() {
        let bad: [Double] = [0, -1, -.infinity, .infinity, .nan]
        for v in bad {
            #expect(ScrollIndicator.thumb(viewportLength: v, contentLength: 500, offset: 0, trackLength: 100) == nil)
            #expect(ScrollIndicator.thumb(viewportLength: 100, contentLength: v, offset: 0, trackLength: 100) == nil)
            #expect(ScrollIndicator.thumb(viewportLength: 100, contentLength: 500, offset: 0, trackLength: v) == nil)
        }
        // Content that fits: nothing to indicate.
        #expect(ScrollIndicator.thumb(viewportLength: 100, contentLength: 100, offset: 0, trackLength: 100) == nil)
        #expect(ScrollIndicator.thumb(viewportLength: 100, contentLength: 50, offset: 0, trackLength: 100) == nil)
        // A NaN or infinite offset counts as the start (a NaN minimum as none); the thumb stays on the track.
        #expect(ScrollIndicator.thumb(viewportLength: 100, contentLength: 200, offset: .nan, trackLength: 100) == .init(start: 0, length: 50))
        let far = ScrollIndicator.thumb(viewportLength: 100, contentLength: 200, offset: .infinity, trackLength: 100, minimumLength: .nan)
        #expect(far == .init(start: 0, length: 50))
        // A minimum longer than the track is the track.
        #expect(ScrollIndicator.thumb(viewportLength: 100, contentLength: 200, offset: 50, trackLength: 20, minimumLength: 64) == .init(start: 0, length: 20))
        // Frames: no axis for zero, NaN or negative sizes, or a container too small for a thumb.
        for size in [Size(width: 0, height: 0), Size(width: .nan, height: .nan), Size(width: -5, height: -5), Size(width: 4, height: 4)] {
            let f = ScrollIndicator.frames(viewport: size, contentSize: Size(width: 1000, height: 1000), offset: .zero, directions: [.vertical, .horizontal])
            #expect(f.vertical == nil && f.horizontal == nil, "\(size)")
        }
        let none = ScrollIndicator.frames(viewport: Size(width: 100, height: 100), contentSize: Size(width: .nan, height: -3), offset: .zero,
                                          directions: [.vertical, .horizontal])
        #expect(none.vertical == nil && none.horizontal == nil)
    }

    @Test func framesSitAlongTheEdges() {
        let i = ScrollIndicator.inset, t = ScrollIndicator.thickness
        let v = ScrollIndicator.frames(viewport: Size(width: 200, height: 100), contentSize: Size(width: 200, height: 200),
                                       offset: Point(x: 0, y: 100), directions: .vertical)
        let track = 100 - 2 * i
        #expect(v.vertical == Rect(x: 200 - i - t, y: i + track / 2, width: t, height: track / 2))
        #expect(v.horizontal == nil)
        let rtl = ScrollIndicator.frames(viewport: Size(width: 200, height: 100), contentSize: Size(width: 200, height: 200),
                                         offset: .zero, directions: .vertical, rightToLeft: true)
        #expect(rtl.vertical?.minX == i)
        let both = ScrollIndicator.frames(viewport: Size(width: 100, height: 100), contentSize: Size(width: 400, height: 400),
                                          offset: .zero, directions: [.vertical, .horizontal], rightToLeft: false)
        // Each track stops short of the corner the other uses.
        #expect(both.vertical!.height == max(ScrollIndicator.minimumLength, (100 - 2 * i - t - i) / 4))
        #expect(both.horizontal!.minY == 100 - i - t)
        #expect(ScrollIndicator.color(in: .dark).alpha < 1)
    }
}

// Scrollers: `makeScroller()` (ScrollNodeTests.swift): 100×100 over 1000 points, clamped, a virtual clock.

extension PipelineTests {
    @Suite(.serialized) struct ScrollIndicatorNodeTests {
        @Test func aDragShowsItAndItFadesAfterIdle() throws {
            let (s, h, d, loop) = try makeScroller()
            #expect(!s.isShowingScrollIndicator)
            d.down(50, 80, at: 0)
            for i in 1...10 { d.move(50, 80 - Double(i) * 6, at: Double(i) * 0.01) }
            #expect(s.isShowingScrollIndicator)
            let frame = try #require(s.scrollIndicatorFrames.vertical)
            // In content coordinates: it moves with the offset, where the geometry puts it.
            let thumb = try #require(ScrollIndicator.thumb(viewportLength: 100, contentLength: 1000, offset: s.contentOffset.y,
                                                           trackLength: 100 - 2 * ScrollIndicator.inset))
            #expect(frame == Rect(x: 100 - ScrollIndicator.inset - ScrollIndicator.thickness,
                                  y: s.contentOffset.y + ScrollIndicator.inset + thumb.start, width: ScrollIndicator.thickness, height: thumb.length))
            // It is above the content and takes no touches: the scroll node itself is hit there.
            #expect(s.subnodes.last?.name == "scroll-indicator")
            #expect(s.hitTest(Point(x: frame.midX, y: frame.midY - s.contentOffset.y)) === s)
            // Still held: it stays however long the finger rests.
            loop.advance(by: .seconds(2))
            #expect(s.isShowingScrollIndicator)
            d.up(at: 2.2)   // a slow release: no fling
            h.iterate()
            loop.advance(by: .milliseconds(Int64(s.scrollIndicatorFadeDelay * 1000) - 100))
            #expect(s.isShowingScrollIndicator)
            loop.advance(by: .milliseconds(300))
            #expect(!s.isShowingScrollIndicator)
            h.iterate()
            // The fade is an opacity animation to the new model value (0).
            let node = try #require(s.subnodes.last)
            #expect(node.opacity == 0)
        }

        @Test func codeMovingTheOffsetDoesNotShowItUnlessItFlashes() throws {
            let (s, _, _, loop) = try makeScroller()
            s.setContentOffset(Point(x: 0, y: 300))
            #expect(!s.isShowingScrollIndicator)
            s.setContentOffset(Point(x: 0, y: 600), animated: true)
            for _ in 0..<60 { loop.advance(by: .milliseconds(16)) }
            #expect(!s.isShowingScrollIndicator)
            s.flashScrollIndicators()
            #expect(s.isShowingScrollIndicator)
            #expect(s.scrollIndicatorFrames.vertical?.minY ?? 0 > 600)
            loop.advance(by: .seconds(1))
            #expect(!s.isShowingScrollIndicator)
        }

        @Test func wheelAndKeysShowItAndItCanBeTurnedOff() throws {
            let (s, h, d, loop) = try makeScroller()
            d.handle(InputEvent(.scroll(Point(x: 50, y: 50), ScrollDelta(dy: 10, source: .wheel, discreteSteps: 1)), timestamp: 0))
            #expect(s.contentOffset.y == 30 && s.isShowingScrollIndicator)
            loop.advance(by: .seconds(1))
            #expect(!s.isShowingScrollIndicator)
            #expect(s.keyDown(KeyInput(key: .end)))
            #expect(s.isShowingScrollIndicator)
            #expect(s.scrollIndicatorFrames.vertical?.maxY == 1000 - ScrollIndicator.inset)
            s.showsScrollIndicator = false
            #expect(!s.isShowingScrollIndicator)
            _ = s.keyDown(KeyInput(key: .home))
            #expect(!s.isShowingScrollIndicator)
            s.flashScrollIndicators()
            #expect(!s.isShowingScrollIndicator)
            h.iterate()
        }

        /// A content that fits has nothing to indicate; a pager shows none.
        @Test func nothingToIndicate() throws {
            let (s, _, _, _) = try makeScroller()
            s.contentSize = Size(width: 100, height: 80)
            s.flashScrollIndicators()
            #expect(!s.isShowingScrollIndicator)
            #expect(!PagerNode().showsScrollIndicator && TableNode().showsScrollIndicator)
        }

        /// A scroll node whose subnodes follow its layout spec keeps the indicator (it is in no spec), on top.
        @Test func survivesLayoutsThatManageSubnodes() throws {
            let s = ScrollNode()
            s.animationLoop = try EventLoop(clock: .virtual)
            s.automaticallyManagesContentSize = true
            s.automaticallyManagesSubnodes = true
            let a = DisplayNode(), b = DisplayNode()
            a.style.height = .points(600); b.style.height = .points(600)
            s.layoutSpecBlock = { _, _ in StackLayoutSpec(direction: .vertical, children: [a, b]) }
            let h = Harness(root: s, size: Size(width: 100, height: 100))
            h.iterate()
            #expect(s.contentSize.height == 1200)
            s.flashScrollIndicators()
            h.iterate()
            let c = DisplayNode(); c.style.height = .points(10)
            s.layoutSpecBlock = { _, _ in StackLayoutSpec(direction: .vertical, children: [a, b, c]) }
            s.setNeedsLayout()
            h.iterate()
            #expect(s.subnodes.count == 4)
            #expect(s.subnodes.last?.name == "scroll-indicator")
            #expect(s.isShowingScrollIndicator)
        }

        @Test func themedAndRecoloured() throws {
            let (s, _, _, _) = try makeScroller()
            s.theme = .dark
            s.flashScrollIndicators()
            let node = try #require(s.subnodes.last)
            #expect(node.backgroundColor == ScrollIndicator.color(in: .dark))
            s.theme = .light
            #expect(node.backgroundColor == ScrollIndicator.color(in: .light))
        }
    }
}
