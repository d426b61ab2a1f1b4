import Foundation
import Glibc
import SilkRunLoop
import SilkSystem
import Testing
@testable import SilkWayland

/// Issue 23: a compositor that accepts the connection and never answers hung Silk forever in
/// `wl_display_roundtrip`. A tiny fake compositor — a listening Unix socket nobody ever reads
/// from — must now end the connection attempt within its deadline, with a message naming the
/// socket and the wait.
@Suite("Silent compositor")
struct SilentCompositorTests {
    /// A socket that accepts connections (the kernel completes them from the backlog) and
    /// never sends a byte. Removed with its folder on `close()`.
    final class SilentSocket {
        let directory: String
        let path: String
        let fd: Int32
        init() throws {
            directory = NSTemporaryDirectory() + "silk-silent-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            mkdir(directory, 0o700)
            path = directory + "/wayland-silent"
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, b) in path.utf8.enumerated() { raw[i] = b }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0, listen(fd, 4) == 0 else { throw SystemCallError(call: "bind/listen", errno: errno) }
        }
        func close() {
            _ = Glibc.close(fd)
            unlink(path)
            rmdir(directory)
        }
    }

    @Test("connecting to a compositor that never answers fails within its deadline, naming the socket")
    func silentCompositorTimesOut() throws {
        let silent = try SilentSocket()
        defer { silent.close() }
        let start = Date()
        do {
            // An absolute path is taken as the socket itself (libwayland ≥ 1.15).
            _ = try WaylandDisplay(name: silent.path, answerTimeout: 0.5)
            Issue.record("connected to a compositor that never answered")
        } catch {
            #expect(error.description.contains("did not answer within 0.5 s"), "\(error)")
            #expect(error.description.contains(silent.path), "\(error)")
        }
        let elapsed = Date().timeIntervalSince(start)
        #expect(elapsed >= 0.4 && elapsed < 5, "gave up after \(elapsed) s")
    }

    @Test("a pending SIGTERM ends the wait at once, and stays pending for the loop")
    func signalEndsTheWait() throws {
        let silent = try SilentSocket()
        defer { silent.close() }
        // Only this thread blocks SIGTERM (the test runner's other threads do not), so it is sent
        // to this thread; it becomes pending here, as a process-directed one does in an app.
        let loop = try EventLoop()
        try loop.watchTerminationSignals()
        #expect(pthread_kill(pthread_self(), SIGTERM) == 0)
        let start = Date()
        do {
            _ = try WaylandDisplay(name: silent.path, answerTimeout: 30)
            Issue.record("connected to a compositor that never answered")
        } catch {
            #expect(error.description.contains("stopped by SIGTERM while waiting for the compositor"), "\(error)")
        }
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(TerminationSignal.pending() == .terminate)
        #expect(loop.runOnce(timeout: .milliseconds(100)) == .terminated, "the loop still ends on it")
    }
}
