import Glibc
import SilkSystem
import Testing

@Suite struct SystemCallTests {
    @Test func aFailedCallIsNamedWithItsErrno() {
        #expect(throws: SystemCallError(call: "close(-1)", errno: EBADF)) {
            _ = try systemCall("close(-1)") { close(-1) }
        }
        #expect("\(SystemCallError(call: "close(-1)", errno: EBADF))" == "close(-1) failed: Bad file descriptor (errno 9)")
    }

    @Test func eintrIsRetried() throws {
        // The body reports EINTR twice, then succeeds: the caller only sees the success.
        var attempts = 0
        let result = try systemCall("read") { () -> Int in
            attempts += 1
            if attempts < 3 { errno = EINTR; return -1 }
            return 42
        }
        #expect(result == 42)
        #expect(attempts == 3)
    }

    @Test func aSuccessfulCallReturnsItsResult() throws {
        var fds: [Int32] = [0, 0]
        _ = try systemCall("pipe") { pipe(&fds) }
        #expect(try systemCall("close") { close(fds[0]) } == 0)
        #expect(try systemCall("close") { close(fds[1]) } == 0)
    }
}

@Suite struct LockTests {
    @Test func lockedCountsEveryIncrementAcrossThreads() async {
        let counter = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<1_000 { counter.withLock { $0 += 1 } } }
            }
        }
        #expect(counter.current == 8_000)
    }

    @Test func lockRunsTheBodyAndReturnsItsValue() {
        let lock = Lock()
        #expect(lock.withLock { 7 } == 7)
        lock.lock()
        lock.unlock()
        #expect(lock.withLock { "again" } == "again")
    }
}
