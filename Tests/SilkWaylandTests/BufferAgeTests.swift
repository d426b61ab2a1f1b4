import Glibc
import SilkGeometry
import SilkRender
import Testing
@testable import SilkWayland

/// The shared memory behind the buffers, and connecting (buffer age itself: `BufferAgeDamageTests`).
@Suite struct BufferAgeTests {
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
