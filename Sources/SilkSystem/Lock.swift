// The lock of the whole package: a pthread mutex, and a value behind one.
//
// Why not `Synchronization.Mutex` or `NSLock`: on Linux Mutex's contended path (futex wait/wake)
// is compiled into libswiftSynchronization.so, which is not built with ThreadSanitizer, so TSan
// never sees the lock being taken and reports every contended `withLock` as a data race (seen
// with `swift test --sanitize=thread`). TSan intercepts `pthread_mutex_lock`, so this lock is
// understood and a real race next to it is still reported. One type everywhere also means one
// set of rules: helpers that expect a lock held are named `_locked…`, and nothing calls back into
// the same lock (it is not recursive). (Like NIO's `NIOLock` and `NIOLockedValueBox`.)
import Glibc

/// A pthread mutex (`pthread_mutex_lock`/`pthread_mutex_unlock`), heap-allocated so that its
/// address never moves. Not recursive.
public final class Lock: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// Allocates and initialises an unlocked mutex (default attributes: not recursive, no error
    /// checking). Traps if `pthread_mutex_init` fails (out of resources; glibc's does not fail
    /// with default attributes).
    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Takes the lock; pair with `unlock()` on the same thread. Prefer `withLock`.
    @inlinable
    public func lock() { pthread_mutex_lock(mutex) }

    /// Releases the lock taken by `lock()`, on the thread that took it (unlocking from another
    /// thread, or a lock not held, is undefined behaviour for a pthread mutex).
    @inlinable
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock. Do not take the same lock inside `body`.
    @inlinable
    public func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A value behind a `Lock`.
///
/// `@unchecked Sendable`: `value` is only read or written while `lock` is held.
public final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let lock = Lock()
    // Unchecked: every access happens with `lock` held, which already excludes any overlap, and
    // the runtime's dynamic exclusivity check (`swift_beginAccess`/`swift_endAccess`, a
    // thread-local access set) cost about 3 % of a cold feed layout, whose nodes take their
    // locks thousands of times a pass (docs/benchmark.md, "Layout"). A body that reaches back
    // into the same `Locked` would deadlock on the non-recursive mutex before it could overlap.
    @usableFromInline @exclusivity(unchecked) var value: Value

    /// Puts `value` behind a new lock. Any thread may then use it through `withLock` or `current`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value. Do not call back into the same lock.
    @inlinable
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try lock.withLock { try body(&value) }
    }

    /// A copy of the value now.
    @inlinable
    public var current: Value { lock.withLock { value } }
}
