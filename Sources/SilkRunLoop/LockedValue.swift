// A value behind a pthread mutex, for the loop's cross-thread state.
//
// Why not `Synchronization.Mutex`: on Linux its contended path (futex wait/wake) is compiled into
// libswiftSynchronization.so, which is not built with ThreadSanitizer, so TSan never sees the
// lock being taken and reports every contended `withLock` as a data race (seen here with
// `swift test --sanitize=thread`). TSan intercepts `pthread_mutex_lock`, so this lock is
// understood and a real race next to it is still reported. (Like NIO's `NIOLockedValueBox`.)
import Glibc

/// `@unchecked Sendable`: `value` is only read or written between `pthread_mutex_lock` and
/// `pthread_mutex_unlock` of `mutex`, which is heap-allocated so that its address never moves.
final class LockedValue<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value. Do not call back into the same lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
