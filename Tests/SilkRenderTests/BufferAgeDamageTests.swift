import SilkGeometry
import SilkRender
import Testing

/// Buffer age: what a buffer that missed frames must copy (both presenters' re-applied damage).
@Suite struct BufferAgeDamageTests {
    func region(_ rects: Rect...) -> DamageRegion {
        var r = DamageRegion()
        for x in rects { r.add(x) }
        return r
    }

    @Test func framesAreNumberedFromOne() {
        var history = BufferAgeDamage()
        #expect(history.nextFrame == 1)
        #expect(history.record(DamageRegion()) == 1)
        #expect(history.record(DamageRegion()) == 2)
        #expect(history.nextFrame == 3)
    }

    @Test func bufferThatMissedFramesGetsTheirDamage() {
        var history = BufferAgeDamage()
        let a = Rect(x: 0, y: 0, width: 10, height: 10)
        let b = Rect(x: 100, y: 100, width: 10, height: 10)
        let c = Rect(x: 200, y: 0, width: 5, height: 5)
        history.record(region(a))
        history.record(region(b))
        // A buffer holding frame 1, presenting frame 3 (damage c): frames 2 and 3 are missing.
        let copy = history.damageToCopy(intoBufferHolding: 1, damage: region(c))
        #expect(copy.map { Set($0.rects) } == Set([b, c]))
        // The previous frame's buffer (age 1) needs only the new damage.
        history.record(region(c))
        #expect(history.damageToCopy(intoBufferHolding: 3, damage: region(a))?.rects == [a])
    }

    @Test func neverPaintedOrTooOldMeansEverything() {
        var history = BufferAgeDamage()
        #expect(history.damageToCopy(intoBufferHolding: 0, damage: DamageRegion()) == nil)
        for f in 1...20 { history.record(region(Rect(x: Double(f), y: 0, width: 1, height: 1))) }
        #expect(history.damageToCopy(intoBufferHolding: 2, damage: DamageRegion()) == nil)
        #expect(history.damageToCopy(intoBufferHolding: 18, damage: DamageRegion()) != nil)
        // A frame number not yet presented is not a buffer's content: copy everything.
        #expect(history.damageToCopy(intoBufferHolding: 21, damage: DamageRegion()) == nil)
    }

    /// The framebuffer's two pan pages: after the first two frames (each page drawn whole
    /// once) a page receives the damage of the frame it missed plus the new one (age 2).
    @Test func twoPagesAlternateWithAgeTwo() {
        var history = BufferAgeDamage(historyLimit: 2)
        var pageFrame = [0, 0]
        var copies: [DamageRegion?] = []
        let damages = (1...5).map { region(Rect(x: Double($0 * 10), y: 0, width: 5, height: 5)) }
        for (n, damage) in damages.enumerated() {
            let page = n % 2 == 0 ? 1 : 0
            copies.append(history.damageToCopy(intoBufferHolding: pageFrame[page], damage: damage))
            pageFrame[page] = history.record(damage)
        }
        #expect(copies[0] == nil && copies[1] == nil)
        for n in 2..<5 {
            var expected = damages[n]
            expected.formUnion(damages[n - 1])
            #expect(copies[n] == expected)
        }
    }
}
