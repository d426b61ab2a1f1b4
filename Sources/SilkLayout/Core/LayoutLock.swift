#if canImport(Glibc)
import Glibc
#endif

/// A value behind a pthread mutex. SilkLayout uses this rather than `Synchronization.Mutex`
/// because ThreadSanitizer cannot see Mutex's futex path on Linux and reports false races
/// (`make test-tsan` runs the layout concurrency tests).
final class LayoutLock<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }
    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }
    @inline(__always)
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
