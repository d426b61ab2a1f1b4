import SilkSystem

/// A node's display sentinel: a counter bumped whenever the node's pending display becomes
/// stale (redraw, removal, leaving the display range, `preventOrCancelDisplay`). A display job
/// captures the value when it starts; `isCancelled` is "the value moved on".
public final class Sentinel: @unchecked Sendable {
    private let lock = Lock()
    private var value: UInt64 = 0
    public var current: UInt64 { lock.withLock { value } }
    /// Cancels whatever is running and returns the new value.
    @discardableResult
    public func increment() -> UInt64 { lock.withLock { value += 1; return value } }
    public func isCurrent(_ v: UInt64) -> Bool { lock.withLock { value == v } }
}
