import Glibc
import SilkGeometry
import SilkRender
import Testing
@testable import SilkWayland

/// Buffer age: what a buffer that missed frames must copy (the presenter's re-applied damage).
@Suite struct BufferAgeTests {
    func region(_ rects: Rect...) -> DamageRegion {
        var r = DamageRegion()
        for x in rects { r.add(x) }
        return r
    }

    @Test func bufferThatMissedFramesGetsTheirDamage() {
        let chain = BufferChain(shm: nil)
        let a = Rect(x: 0, y: 0, width: 10, height: 10)
        let b = Rect(x: 100, y: 100, width: 10, height: 10)
        let c = Rect(x: 200, y: 0, width: 5, height: 5)
        chain.record(region(a), frame: 1)
        chain.record(region(b), frame: 2)
        // A buffer holding frame 1, presenting frame 3 (damage c): frames 2 and 3 are missing.
        let copy = chain.damageSince(heldFrame: 1, frame: 3, damage: region(c))
        #expect(copy.map { Set($0.rects) } == Set([b, c]))
        // The previous frame's buffer (age 1) needs only the new damage.
        chain.record(region(c), frame: 3)
        #expect(chain.damageSince(heldFrame: 3, frame: 4, damage: region(a))?.rects == [a])
    }

    @Test func neverPaintedOrTooOldMeansEverything() {
        let chain = BufferChain(shm: nil)
        #expect(chain.damageSince(heldFrame: 0, frame: 1, damage: DamageRegion()) == nil)
        for f in 1...20 { chain.record(region(Rect(x: Double(f), y: 0, width: 1, height: 1)), frame: f) }
        #expect(chain.damageSince(heldFrame: 2, frame: 21, damage: DamageRegion()) == nil)
        #expect(chain.damageSince(heldFrame: 18, frame: 21, damage: DamageRegion()) != nil)
    }

    @Test func sharedMemoryIsSealedAndCloseOnExec() throws {
        let m = try SharedMemory(size: 4096)
        #expect(m.seals & 0x2 != 0)  // F_SEAL_SHRINK
        #expect(m.seals & 0x1 != 0)  // F_SEAL_SEAL
        #expect(fcntl(m.fd, F_GETFD) & FD_CLOEXEC != 0)
        m.address.storeBytes(of: 0xdeadbeef as UInt32, as: UInt32.self)
        #expect(ftruncate(m.fd, 0) == -1)  // shrinking is refused
    }

    @Test func connectingWithoutACompositorNamesTheSocket() {
        do {
            _ = try WaylandDisplay(name: "silk-no-such-socket-\(getpid())")
            Issue.record("connected to a socket that does not exist")
        } catch {
            #expect(error.description.contains("wl_display_connect(silk-no-such-socket"))
            #expect(error.description.contains("no Wayland compositor"))
        }
    }
}
