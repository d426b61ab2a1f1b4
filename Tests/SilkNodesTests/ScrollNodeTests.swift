import Foundation
import Testing
import SilkGeometry
import SilkLayout
import SilkRunLoop
@testable import SilkNodes

/// The kinetic model on its own: exact distances, edges, springs.
@Suite struct ScrollPhysicsTests {
    @Test func decelerationCoversVelocityTimesTau() {
        var d = Deceleration(velocity: 1000)
        var travelled = 0.0
        for _ in 0..<600 { travelled += d.advance(by: 1.0 / 60) }
        #expect(abs(travelled - 1000 * Deceleration.timeConstant) < 0.01)
        #expect(!d.isMoving)
        // The same total in one step or many.
        var e = Deceleration(velocity: 1000)
        let once = e.advance(by: 0.5)
        var f = Deceleration(velocity: 1000)
        var many = 0.0
        for _ in 0..<50 { many += f.advance(by: 0.01) }
        #expect(abs(once - many) < 1e-9)
    }

    @Test func clampedEdgeStopsTheFlingAtTheEnd() {
        var axis = KineticAxis(position: 900, velocity: 2000, mode: .decelerating)
        for _ in 0..<120 { axis.advance(by: 1.0 / 60, maxOffset: 1000, edges: .clamped) }
        #expect(axis.position == 1000)
        #expect(!axis.isMoving)
    }

    @Test func elasticEdgeOvershootsAndSpringsBack() {
        var axis = KineticAxis(position: 900, velocity: 2000, mode: .decelerating)
        var furthest = 0.0
        for _ in 0..<180 {
            axis.advance(by: 1.0 / 60, maxOffset: 1000, edges: .elastic)
            furthest = max(furthest, axis.position)
        }
        #expect(furthest > 1000)
        #expect(axis.position == 1000)
        #expect(!axis.isMoving)
    }

    @Test func springReachesItsTargetAndRests() {
        var axis = KineticAxis(position: 0, mode: .spring(target: 300))
        for _ in 0..<60 { axis.advance(by: 1.0 / 60, maxOffset: 1000, edges: .clamped) }
        #expect(axis.position == 300)
        #expect(!axis.isMoving)
    }

    @Test func rubberBandResistsMoreTheFurtherYouPull() {
        let a = KineticAxis.rubberBand(50, dimension: 500), b = KineticAxis.rubberBand(500, dimension: 500)
        #expect(a > 0 && a < 50)
        #expect(b < 250 && b > a)
        #expect(KineticAxis.rubberBand(-50, dimension: 500) == -a)
    }

    @Test func velocityTrackerMeasuresRecentMotion() {
        var t = VelocityTracker()
        for i in 0...10 { t.add(Point(x: 0, y: Double(i) * 10), at: Double(i) * 0.01) }
        let v = t.velocity(at: 0.1)
        #expect(abs(v.y - 1000) < 1e-6)
        #expect(t.velocity(at: 5).y == 0)   // stale samples do not count
    }
}

/// A scroll node of 100×100 over 100×1000 of content, driven by events and a virtual clock.
func makeScroller(edges: ScrollEdgeBehavior = .clamped) throws -> (ScrollNode, Harness, InputDispatcher, EventLoop) {
    let s = ScrollNode()
    s.edgeBehavior = edges
    s.contentSize = Size(width: 100, height: 1000)
    let loop = try EventLoop(clock: .virtual)
    s.animationLoop = loop
    let h = Harness(root: s, size: Size(width: 100, height: 100))
    h.iterate()
    return (s, h, InputDispatcher(rootNode: s), loop)
}

extension PipelineTests {
    @Suite(.serialized) struct ScrollNodeTests {
        @Test func dragScrollsThenFlingsAndComesToRest() throws {
            let (s, _, d, loop) = try makeScroller()
            d.down(50, 80, at: 0)
            d.move(50, 75, at: 0.01)          // within the slop: nothing yet
            #expect(s.contentOffset.y == 0)
            // Recognized past the slop; the content follows the finger from there.
            for i in 1...10 { d.move(50, 75 - Double(i) * 6, at: 0.01 + Double(i) * 0.01) }
            #expect(s.isDragging)
            #expect(s.contentOffset.y == 54)   // 69 (recognized) − 15
            d.up(at: 0.11)
            #expect(!s.isDragging)
            #expect(s.isDecelerating)
            var last = s.contentOffset.y
            var steps = 0
            while s.isDecelerating && steps < 600 {
                loop.advance(by: .milliseconds(16))
                #expect(s.contentOffset.y >= last)   // a fling keeps going the same way
                last = s.contentOffset.y
                steps += 1
            }
            #expect(!s.isDecelerating)
            // Released at 600 pt/s: about v·τ = 195 points more.
            #expect(s.contentOffset.y > 60 + 150 && s.contentOffset.y < 60 + 230)
        }

        @Test func elasticDragPastTheStartSpringsBack() throws {
            let (s, _, d, loop) = try makeScroller(edges: .elastic)
            d.down(50, 10, at: 0)
            for i in 1...8 { d.move(50, 10 + Double(i) * 10, at: Double(i) * 0.05) }
            #expect(s.contentOffset.y < 0)          // rubber band
            #expect(s.contentOffset.y > -70)        // with resistance
            d.up(at: 1)
            for _ in 0..<120 { loop.advance(by: .milliseconds(16)) }
            #expect(s.contentOffset.y == 0)
            #expect(!s.isDecelerating)
        }

        @Test func clampedDragStopsAtTheEdge() throws {
            let (s, _, d, _) = try makeScroller(edges: .clamped)
            d.down(50, 10, at: 0)
            for i in 1...8 { d.move(50, 10 + Double(i) * 10, at: Double(i) * 0.05) }
            #expect(s.contentOffset.y == 0)
            d.up(at: 1)
        }

        @Test func aFingerCatchesAFling() throws {
            let (s, _, d, loop) = try makeScroller()
            s.setContentOffset(Point(x: 0, y: 500), animated: true)
            loop.advance(by: .milliseconds(50))
            #expect(s.isDecelerating)
            let caught = s.contentOffset.y
            d.down(50, 50, at: 10)
            #expect(!s.isDecelerating)
            loop.advance(by: .milliseconds(200))
            #expect(s.contentOffset.y == caught)
            d.up(at: 10.05)
        }

        @Test func animatedOffsetArrivesExactly() throws {
            let (s, _, _, loop) = try makeScroller()
            s.setContentOffset(Point(x: 0, y: 400), animated: true)
            for _ in 0..<60 { loop.advance(by: .milliseconds(16)) }
            #expect(s.contentOffset.y == 400)
            #expect(!s.isDecelerating)
            s.setContentOffset(Point(x: 0, y: 5000))
            #expect(s.contentOffset.y == 900)   // clamped to content − viewport
        }

        @Test func wheelAndKeysScroll() throws {
            let (s, _, d, _) = try makeScroller()
            d.handle(InputEvent(.scroll(Point(x: 50, y: 50), ScrollDelta(dy: 10, source: .wheel, discreteSteps: 1)), timestamp: 0))
            #expect(s.contentOffset.y == 30)
            d.handle(InputEvent(.scroll(Point(x: 50, y: 50), ScrollDelta(dy: 7, source: .continuous)), timestamp: 0.1))
            #expect(s.contentOffset.y == 37)
            // Keys reach the root (nothing focused).
            d.key(.down, at: 1)
            #expect(s.contentOffset.y == 77)
            d.key(.pageDown, at: 2)
            #expect(s.contentOffset.y == 167)
            d.key(.end, at: 3)
            #expect(s.contentOffset.y == 900)
            d.key(.up, at: 4)
            #expect(s.contentOffset.y == 860)
            d.key(.pageUp, at: 5)
            #expect(s.contentOffset.y == 770)
            d.key(.home, at: 6)
            #expect(s.contentOffset.y == 0)
            // A horizontal wheel on a vertical container is not consumed.
            #expect(!s.scrollWheel(ScrollDelta(dx: 10, source: .wheel), at: .zero, with: InputEvent(.pointerLeave, timestamp: 7)))
        }

        @Test func dragOverAButtonCancelsItsTouch() throws {
            let (s, h, d, _) = try makeScroller()
            let button = ControlNode()
            let log = Locked<[String]>([])
            button.addTarget(for: .allEvents) { _, e in log.withLock { $0.append(e.description) } }
            button.frame = Rect(x: 0, y: 40, width: 100, height: 40)
            s.addSubnode(button)
            h.iterate()
            d.down(50, 60, at: 0)
            d.move(50, 40, at: 0.05)
            d.up(at: 0.1)
            #expect(log.current.contains("touchDown"))
            #expect(log.current.contains("touchCancel"))
            #expect(!log.current.contains("primaryActionTriggered"))
            #expect(s.contentOffset.y == 0)   // the move after recognition starts from there: no jump
        }

        @Test func hitTestingFollowsTheOffset() throws {
            let (s, h, d, _) = try makeScroller()
            let a = TouchRecorder(Rect(x: 0, y: 500, width: 100, height: 50))
            s.addSubnode(a)
            h.iterate()
            s.setContentOffset(Point(x: 0, y: 480))
            #expect(d.hitTest(Point(x: 10, y: 30)) === a)
            #expect(d.hitTest(Point(x: 10, y: 10)) === s)
        }

        @Test func contentSizeComesFromTheLayoutSpec() throws {
            let s = ScrollNode()
            s.automaticallyManagesContentSize = true
            let items = (0..<12).map { _ in ColorNode(.red, size: Size(width: 80, height: 50)) }
            for i in items { s.addSubnode(i) }
            s.layoutSpecBlock = { _, _ in StackLayoutSpec(direction: .vertical, spacing: 10, children: items) }
            let h = Harness(root: s, size: Size(width: 100, height: 100))
            h.iterate()
            #expect(s.contentSize == Size(width: 100, height: 12 * 50 + 11 * 10))
            #expect(s.bounds.size == Size(width: 100, height: 100))
            #expect(items[11].frame.minY == 11 * 60)
            s.setContentOffset(Point(x: 0, y: 10_000))
            #expect(s.contentOffset.y == 710 - 100)
            // Scrolling moves the layer's bounds; the items' contents are not redrawn.
            #expect(h.iterate(until: { items.allSatisfy { $0.layer?.contents != nil || !$0.interfaceState.contains(.display) } }))
            let draws = items.map(\.counter.value)
            s.setContentOffset(Point(x: 0, y: 100))
            h.iterate()
            #expect(s.layer?.bounds.origin == Point(x: 0, y: 100))
            #expect(items.map(\.counter.value) == draws)
        }
    }
}
