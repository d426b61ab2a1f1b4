// A thread that owns and runs an EventLoop: for the render thread, background I/O, and tests.
import CSilkLinux
import Dispatch
import Glibc
import SilkSystem

/// Starts a POSIX thread, creates an `EventLoop` on it (so the thread owns the loop) and runs it
/// until `loop.stop()` or a signal ends it.
///
/// `Sendable`: `loop` is immutable and itself Sendable; the thread handle and the loop's result
/// sit behind locks.
public final class EventLoopThread: Sendable {
    /// The loop the thread runs. From other threads use `perform`, `wakeUp` and `stop`.
    public let loop: EventLoop

    private struct State {
        var thread: pthread_t?
        var exitReason: ExitReason?
    }
    private let state: Locked<State>

    /// The handshake between the starting thread and the new one.
    private final class Startup: Sendable {
        let name: String
        let clock: LoopClock
        let ready = DispatchSemaphore(value: 0)
        let result = Locked<Result<EventLoop, SystemCallError>?>(nil)
        let finished = Locked<ExitReason?>(nil)
        init(name: String, clock: LoopClock) { self.name = name; self.clock = clock }
    }

    /// Starts the thread and returns once its loop exists. `prepare` runs on the new thread
    /// before the loop starts — the place to add sources, timers and observers.
    /// Throws if the thread or the loop's descriptors cannot be created.
    public init(name: String, clock: LoopClock = .monotonic,
                prepare: @escaping @Sendable (EventLoop) -> Void = { _ in }) throws(SystemCallError) {
        let startup = Startup(name: name, clock: clock)
        let context = Unmanaged.passRetained(ThreadBody(startup: startup, prepare: prepare))
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { raw in
            let body = Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue()
            body.main()
            return nil
        }, context.toOpaque())
        if created != 0 {
            context.release()
            throw SystemCallError(call: "pthread_create", errno: created)
        }
        startup.ready.wait()
        switch startup.result.withLock({ $0 })! {
        case .success(let loop):
            self.loop = loop
            state = Locked(State(thread: thread))
        case .failure(let error):
            pthread_join(thread, nil)
            throw error
        }
        self.startup = startup
    }

    private let startup: Startup

    private final class ThreadBody: Sendable {
        let startup: Startup
        let prepare: @Sendable (EventLoop) -> Void
        init(startup: Startup, prepare: @escaping @Sendable (EventLoop) -> Void) {
            self.startup = startup
            self.prepare = prepare
        }

        func main() {
            _ = startup.name.withCString { silk_set_thread_name($0) }
            let loop: EventLoop
            do {
                loop = try EventLoop(clock: startup.clock)
            } catch {
                startup.result.withLock { $0 = .failure(error) }
                startup.ready.signal()
                return
            }
            startup.result.withLock { $0 = .success(loop) }
            prepare(loop)
            startup.ready.signal()
            let reason = loop.run()
            startup.finished.withLock { $0 = reason }
        }
    }

    /// Stops the loop and waits for the thread to end; returns why the loop ended (nil if
    /// `join` was already called). Must not be called on the loop's own thread.
    @discardableResult
    public func stopAndJoin() -> ExitReason? {
        loop.stop()
        return join()
    }

    /// Waits for the thread to end (after `loop.stop()` or a signal) and returns why its loop
    /// ended; nil if already joined. Must not be called on the loop's own thread.
    @discardableResult
    public func join() -> ExitReason? {
        precondition(!loop.isOnLoopThread, "a thread cannot join itself")
        guard let thread = state.withLock({ state -> pthread_t? in
            defer { state.thread = nil }
            return state.thread
        }) else { return nil }
        pthread_join(thread, nil)
        return startup.finished.withLock { $0 }
    }
}
