// Helpers for the loop tests: plain POSIX threads (so a blocked test never starves Swift's
// cooperative pool or libdispatch's workers), and a box for state only the loop thread touches.
import Glibc
import SilkRunLoop
import Synchronization

/// A POSIX thread running `body`; `join()` waits for it (and orders its writes before the join).
final class TestThread: @unchecked Sendable {
    // Invariant: `thread` is written once in init and read by `join`, both on the creating thread.
    private var thread = pthread_t()
    private final class Body { let run: @Sendable () -> Void; init(_ run: @escaping @Sendable () -> Void) { self.run = run } }

    init(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let result = pthread_create(&thread, nil, { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, context)
        precondition(result == 0, "pthread_create failed: \(result)")
    }

    func join() { pthread_join(thread, nil) }
}

/// State confined to one loop's thread, shared with `@Sendable` blocks that the loop runs.
/// `@unchecked Sendable`: only the loop thread reads or writes `value` while the loop runs; the
/// test reads it after joining that thread. ThreadSanitizer checks this claim in the stress test.
final class LoopConfined<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Wakes `loop` after `seconds` unless `finish()` is called first, so that a broken wake-up fails
/// a test instead of hanging it. `fired` tells whether it had to.
final class Watchdog: Sendable {
    private final class Flags: Sendable {
        let finished = Atomic<Bool>(false)
        let fired = Atomic<Bool>(false)
    }
    private let flags = Flags()
    private let thread: TestThread

    init(_ loop: EventLoop, seconds: Int = 5) {
        let flags = self.flags
        thread = TestThread {
            for _ in 0..<(seconds * 100) {
                if flags.finished.load(ordering: .acquiring) { return }
                usleep(10_000)
            }
            flags.fired.store(true, ordering: .releasing)
            loop.wakeUp()
        }
    }

    var fired: Bool { flags.fired.load(ordering: .acquiring) }

    /// Stops the watchdog and returns whether it had fired.
    @discardableResult
    func finish() -> Bool {
        flags.finished.store(true, ordering: .releasing)
        thread.join()
        return flags.fired.load(ordering: .acquiring)
    }
}

/// A pipe whose ends are closed on deinit (unless closed earlier with `closeWriteEnd`).
final class Pipe {
    let readEnd: Int32
    private(set) var writeEnd: Int32

    init() {
        var fds: [Int32] = [-1, -1]
        precondition(pipe(&fds) == 0)
        readEnd = fds[0]
        writeEnd = fds[1]
        for fd in fds { _ = fcntl(fd, F_SETFL, O_NONBLOCK) }
    }

    func write(_ text: String) {
        let count = text.utf8.count
        precondition(Glibc.write(writeEnd, text, count) == count)
    }

    func readAll() -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = Glibc.read(readEnd, &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : ""
    }

    func closeWriteEnd() {
        close(writeEnd)
        writeEnd = -1
    }

    deinit {
        close(readEnd)
        if writeEnd >= 0 { close(writeEnd) }
    }
}

extension LoopInstant {
    var milliseconds: Double { Double(nanoseconds) / 1e6 }
}
