import Foundation

/// The lock every node guards its state with: a pthread mutex, which ThreadSanitizer
/// understands (Synchronization.Mutex's futex path is invisible to it on Linux and reports false
/// races). Helpers that expect it held are named `_locked…`.
public final class NodeLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    public init() { pthread_mutex_init(mutex, nil) }
    deinit { pthread_mutex_destroy(mutex); mutex.deallocate() }
    @inline(__always)
    public func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A value behind a `NodeLock`.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NodeLock()
    private var value: Value
    public init(_ value: Value) { self.value = value }
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        try lock.withLock { try body(&value) }
    }
    public var current: Value { lock.withLock { value } }
}
