import Foundation
import Testing
import SilkGeometry
import SilkLayout
import SilkRaster
import SilkRender
@testable import SilkNodes

private typealias AffineTransform = SilkGeometry.AffineTransform

/// The same nodes in the same order.
private func same(_ a: [DisplayNode], _ b: [DisplayNode]) -> Bool { a.count == b.count && zip(a, b).allSatisfy { $0 === $1 } }

/// Node transforms in hit testing and point conversion: a rotated, scaled node takes touches
/// where it is drawn.
@Suite struct TransformHitTestingTests {
    @Test func rotatedAndScaledNodesAreHitWhereDrawn() {
        let button = node(Rect(x: 80, y: 90, width: 40, height: 20))
        let root = node(Rect(x: 0, y: 0, width: 200, height: 200), [button])
        let d = InputDispatcher(rootNode: root)
        #expect(d.hitTest(Point(x: 85, y: 100)) === button)
        // A quarter turn about the centre (100, 100): now 20 wide and 40 tall.
        button.transform = AffineTransform(rotationAngle: .pi / 2)
        #expect(d.hitTest(Point(x: 85, y: 100)) === root)     // the old left end is empty now
        #expect(d.hitTest(Point(x: 100, y: 82)) === button)   // above the old frame, inside the turned one
        #expect(d.hitTest(Point(x: 95, y: 118)) === button)
        // Twice the size about the centre: 60…140 × 80…120.
        button.transform = AffineTransform(scaleX: 2, y: 2)
        #expect(d.hitTest(Point(x: 62, y: 82)) === button)
        #expect(d.hitTest(Point(x: 58, y: 100)) === root)
        // About another anchor: the top-left corner stays, the rest grows right and down.
        button.anchorPoint = Point(x: 0, y: 0)
        #expect(d.hitTest(Point(x: 62, y: 82)) === root)
        #expect(d.hitTest(Point(x: 155, y: 125)) === button)
        // A zero scale draws nothing and takes nothing.
        button.transform = AffineTransform(scaleX: 0, y: 1)
        #expect(d.hitTest(Point(x: 81, y: 100)) === root)
    }

    @Test func nestedTransformsConvertBothWays() {
        let child = node(Rect(x: 10, y: 0, width: 10, height: 10))
        let card = node(Rect(x: 50, y: 50, width: 40, height: 20), [child])
        let root = node(Rect(x: 0, y: 0, width: 200, height: 200), [card])
        card.transform = AffineTransform(rotationAngle: .pi)   // upside down about (70, 60)
        // The child's top-left corner (card (10, 0)) is drawn at the card's bottom right mirror.
        let w = child.convert(Point(x: 0, y: 0), to: nil)
        #expect(abs(w.x - 80) < 1e-9 && abs(w.y - 70) < 1e-9)
        let back = child.convert(w, from: nil)
        #expect(abs(back.x) < 1e-9 && abs(back.y) < 1e-9)
        let d = InputDispatcher(rootNode: root)
        #expect(d.hitTest(Point(x: 75, y: 65)) === child)    // drawn there after the half turn
        #expect(d.hitTest(Point(x: 65, y: 55)) === card)
        let r = child.convertToWindow(child.bounds)
        #expect(abs(r.minX - 70) < 1e-9 && abs(r.minY - 60) < 1e-9 && abs(r.width - 10) < 1e-9 && abs(r.height - 10) < 1e-9)
    }

    /// A tap on a turned control's drawn area (outside its untransformed frame) triggers it.
    @Test func tapOnARotatedControlTriggersIt() {
        let control = LoggedControl(Rect(x: 80, y: 90, width: 40, height: 20))
        let root = node(Rect(x: 0, y: 0, width: 200, height: 200), [control])
        control.transform = AffineTransform(rotationAngle: .pi / 2).scaledBy(x: 1.5, y: 1.5)
        let d = InputDispatcher(rootNode: root)
        d.down(100, 72, at: 0)   // 28 pt above the centre: inside the turned, scaled control only
        d.up(at: 0.05)
        #expect(control.log.contains { $0.contains("touchUpInside") }, "\(control.log)")
    }
}

extension PipelineTests {
    /// `transitionLayout(animated:)`: the new layout is measured off main, becomes the model in
    /// a node pass, and the default animation fades inserted subnodes in, removed ones out and
    /// moves the rest; the compositor's frame clock drives it to completion.
    @Suite(.serialized) struct LayoutTransitionTests {
        final class Switch: @unchecked Sendable {
            let state = Locked(0)
        }

        /// A vertical list showing `lists[state]` of the given nodes.
        func makeRoot(_ lists: [[DisplayNode]], _ s: Switch) -> DisplayNode {
            let root = DisplayNode()
            root.automaticallyManagesSubnodes = true
            root.layoutSpecBlock = { _, _ in
                StackLayoutSpec(direction: .vertical, spacing: 0, children: lists[s.state.current])
            }
            return root
        }

        /// Composites the harness's tree from `t0` for `seconds` at 60 Hz, running the
        /// completions on this (the pass) thread as the main loop would.
        @discardableResult
        func play(_ h: Harness, _ c: Compositor, from t0: Double, seconds: Double) -> Double {
            var t = t0
            while t < t0 + seconds {
                h.iterate()
                c.composite(h.host.snapshot(), at: t).completions.forEach { $0() }
                t += 1.0 / 60
            }
            return t
        }

        @Test func defaultTransitionFadesInsertsAndRemovalsAndMovesTheRest() throws {
            let a = ColorNode(.red), b = ColorNode(.green), c = ColorNode(.blue)
            for n in [a, b, c] { n.displaysAsynchronously = false }
            let s = Switch()
            let root = makeRoot([[a, b], [b, c]], s)
            // Where the new layout is measured: never on the pass thread (this one).
            let passThread = pthread_self()
            let measuredOnPassThread = Locked<Bool?>(nil)
            let spec = root.layoutSpecBlock!
            root.layoutSpecBlock = { n, range in
                if s.state.current == 1 { measuredOnPassThread.withLock { $0 = pthread_equal(pthread_self(), passThread) != 0 } }
                return spec(n, range)
            }
            let h = Harness(root: root)
            #expect(h.iterate(until: { h.pass.isDisplayComplete }))
            #expect(b.frame.minY == 10 && same(root.subnodes, [a, b]))
            let comp = try Compositor(pixelWidth: 100, pixelHeight: 60)
            comp.composite(h.host.snapshot(), at: 0)

            s.state.withLock { $0 = 1 }
            let done = Locked<[Bool]>([])
            root.transitionLayout(animated: true, duration: 0.2, timing: .linear) { ok in done.withLock { $0.append(ok) } }
            #expect(h.iterate(until: { c.supernode === root }), "the measured layout never arrived")
            #expect(measuredOnPassThread.current == false)
            // The new layout is the model; the removed node stays (behind) until the end.
            #expect(b.frame == Rect(x: 0, y: 0, width: 20, height: 10))
            #expect(c.frame == Rect(x: 0, y: 10, width: 20, height: 10))
            #expect(root.subnodes.first === a && a.isLeavingInTransition)
            let cAnims = c.layer?.animations ?? [], aAnims = a.layer?.animations ?? [], bAnims = b.layer?.animations ?? []
            #expect(cAnims.contains { $0.property == .opacity(from: 0, to: nil) })
            #expect(aAnims.contains { $0.property == .opacity(from: 1, to: 0) && !$0.isRemovedOnCompletion })
            #expect(bAnims.contains { $0.property == .position(from: Point(x: 10, y: 15), to: nil) && $0.beginsFromCurrentState })

            // Half way (linear): b is 5 pt up, half its way to the top.
            var t = play(h, comp, from: 1, seconds: 0.1)
            comp.composite(h.host.snapshot(), at: t)
            let mid = comp.backBuffer
            #expect(mid.argb32(x: 5, y: 7) == 0xff00_ff00, "b is not half way: \(String(mid.argb32(x: 5, y: 7), radix: 16))")
            #expect(mid.argb32(x: 5, y: 3) != 0xff00_ff00)
            #expect(done.current.isEmpty)
            t = play(h, comp, from: t, seconds: 0.3)
            h.iterate()
            #expect(done.current == [true])
            #expect(same(root.subnodes, [b, c]) && a.supernode == nil && !a.isLeavingInTransition)
            comp.composite(h.host.snapshot(), at: t + 1)
            #expect(comp.backBuffer.argb32(x: 5, y: 3) == 0xff00_ff00)
        }

        final class CustomTransitionNode: DisplayNode, @unchecked Sendable {
            let seen = Locked<[String]>([])
            override func animateLayoutTransition(_ context: LayoutTransitionContext) {
                let names = { (ns: [DisplayNode]) in ns.map { $0.name ?? "?" }.joined(separator: ",") }
                seen.withLock {
                    $0.append("inserted \(names(context.insertedSubnodes)) removed \(names(context.removedSubnodes))")
                    for n in context.finalSubnodes {
                        $0.append("\(n.name!) \(context.initialFrame(for: n).minY)→\(context.finalFrame(for: n).minY)")
                    }
                }
                context.completeTransition(didComplete: true)
            }
            override func didCompleteLayoutTransition(_ context: LayoutTransitionContext) {
                seen.withLock { $0.append("did complete, \(subnodes.count) subnodes") }
            }
        }

        @Test func appsOverrideTheAnimationWithTheContext() {
            let a = ColorNode(.red), b = ColorNode(.green), c = ColorNode(.blue)
            a.name = "a"; b.name = "b"; c.name = "c"
            let s = Switch()
            let root = CustomTransitionNode()
            root.automaticallyManagesSubnodes = true
            let lists: [[DisplayNode]] = [[a, b], [c, b]]
            root.layoutSpecBlock = { _, _ in StackLayoutSpec(direction: .vertical, spacing: 0, children: lists[s.state.current]) }
            let h = Harness(root: root)
            #expect(h.iterate(until: { h.pass.isDisplayComplete }))
            s.state.withLock { $0 = 1 }
            root.transitionLayout()
            #expect(h.iterate(until: { !root.seen.current.isEmpty }))
            #expect(root.seen.current == ["inserted c removed a", "c 0.0→0.0", "b 10.0→10.0", "did complete, 2 subnodes"])
            #expect(same(root.subnodes, [c, b]))
        }

        @Test func aSecondTransitionInterruptsTheFirstWithoutJumps() throws {
            let a = ColorNode(.red), b = ColorNode(.green), c = ColorNode(.blue)
            for n in [a, b, c] { n.displaysAsynchronously = false }
            let s = Switch()
            let root = makeRoot([[a, b, c], [c, a, b], [b]], s)
            let h = Harness(root: root)
            #expect(h.iterate(until: { h.pass.isDisplayComplete }))
            let comp = try Compositor(pixelWidth: 100, pixelHeight: 60)
            comp.composite(h.host.snapshot(), at: 0)
            let first = Locked<[Bool]>([]), second = Locked<[Bool]>([])
            s.state.withLock { $0 = 1 }
            root.transitionLayout(animated: true, duration: 0.5, timing: .linear) { ok in first.withLock { $0.append(ok) } }
            #expect(h.iterate(until: { c.frame.minY == 0 }))
            let t = play(h, comp, from: 1, seconds: 0.2)
            s.state.withLock { $0 = 2 }
            root.transitionLayout(animated: true, duration: 0.2, timing: .linear) { ok in second.withLock { $0.append(ok) } }
            #expect(h.iterate(until: { first.current == [false] }))
            // The second transition's move of b starts where b was drawn, not at its old frame.
            let move = b.layer?.animations.first { $0.property.key == .position }
            #expect(move?.beginsFromCurrentState == true)
            play(h, comp, from: t, seconds: 0.5)
            h.iterate()
            #expect(second.current == [true])
            #expect(same(root.subnodes, [b]) && a.supernode == nil && c.supernode == nil)
        }

        @Test func unanimatedTransitionAppliesAtOnce() {
            let a = ColorNode(.red), b = ColorNode(.green)
            let s = Switch()
            let root = makeRoot([[a], [b]], s)
            let h = Harness(root: root)
            #expect(h.iterate(until: { h.pass.isDisplayComplete }))
            s.state.withLock { $0 = 1 }
            let done = Locked<[Bool]>([])
            root.transitionLayout(animated: false) { ok in done.withLock { $0.append(ok) } }
            #expect(h.iterate(until: { !done.current.isEmpty }))
            #expect(done.current == [true] && same(root.subnodes, [b]) && a.supernode == nil)
            #expect(b.layer?.animations.isEmpty == true)
        }

        @Test func animateBlockAnimatesNodeChangesFromTheScreen() throws {
            let box = ColorNode(.red)
            box.displaysAsynchronously = false
            let root = DisplayNode()
            root.addSubnode(box)
            let h = Harness(root: root)
            box.frame = Rect(x: 0, y: 0, width: 20, height: 10)
            #expect(h.iterate(until: { h.pass.isDisplayComplete }))
            let done = Locked<[Bool]>([])
            box.animate(duration: 0.2, timing: .linear, changes: {
                box.frame = Rect(x: 40, y: 0, width: 20, height: 10)
                box.opacity = 0.5
                box.transform = AffineTransform(rotationAngle: 0.3)
            }, completion: { ok in done.withLock { $0.append(ok) } })
            h.iterate()
            let keys = Set(box.layer?.animations.map(\.property.key) ?? [])
            #expect(keys == [.position, .opacity, .transform])
            #expect(box.layer?.animations.allSatisfy(\.beginsFromCurrentState) == true)
            let comp = try Compositor(pixelWidth: 100, pixelHeight: 60)
            play(h, comp, from: 0, seconds: 0.4)
            h.iterate()
            #expect(done.current == [true])
            // Nothing changed: the completion still runs, at once.
            box.animate(duration: 0.2, changes: {}, completion: { ok in done.withLock { $0.append(ok) } })
            h.iterate()
            #expect(done.current == [true, true])
        }
    }
}
