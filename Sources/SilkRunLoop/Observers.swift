// Loop observers: code that runs at fixed points of every iteration, in a declared order — the
// hook the node layer's transaction committer uses (like CFRunLoopObserver, which Texture and
// YYAsyncLayer build on). See EventLoop.swift for where each activity falls in an iteration.

/// Points in the loop an observer can watch. Combine them to watch several with one handler.
public struct Activity: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Step 4: after timers, performed blocks and the main queue; just before the loop waits.
    /// The place to commit state, layout and display (the committer registers the highest order).
    public static let beforeWaiting = Activity(rawValue: 1 << 0)
    /// Step 6: right after the wait returns, before ready descriptors are dispatched.
    public static let afterWaiting = Activity(rawValue: 1 << 1)
    /// Once, when a `run` call ends because of `stop()` or SIGINT/SIGTERM — restore the terminal,
    /// the console mode, release devices.
    public static let exit = Activity(rawValue: 1 << 2)

    /// Every activity: one handler for each point of the iteration.
    public static let all: Activity = [.beforeWaiting, .afterWaiting, .exit]
}

/// Why a `run` call ended.
public enum ExitReason: Equatable, Sendable {
    /// `stop()` was called.
    case stopped
    /// SIGINT arrived (see `EventLoop.installSignalHandling()`).
    case interrupted
    /// SIGTERM arrived.
    case terminated
    /// SIGHUP arrived (the controlling terminal or session went away).
    case hungUp
    /// SIGQUIT arrived.
    case quit
    /// SIGUSR1 arrived.
    case userSignal

    init(_ signal: TerminationSignal) {
        switch signal {
        case .interrupt: self = .interrupted
        case .terminate: self = .terminated
        case .hangUp: self = .hungUp
        case .quit: self = .quit
        case .user1: self = .userSignal
        }
    }
}

/// What an observer is being told.
public enum LoopEvent: Equatable, Sendable {
    case beforeWaiting
    case afterWaiting
    /// The `run` call is ending, for the given reason (an `.exit` observer).
    case exit(ExitReason)

    var activity: Activity {
        switch self {
        case .beforeWaiting: .beforeWaiting
        case .afterWaiting: .afterWaiting
        case .exit: .exit
        }
    }
}

/// Identifies an observer for `removeObserver(_:)`.
public struct ObserverToken: Hashable, Sendable {
    let id: UInt64
}

/// Observers sorted by (order, registration), the order they are called in.
struct ObserverList {
    struct Observer {
        let id: UInt64
        let activities: Activity
        let order: Int
        let handler: (LoopEvent) -> Void
    }

    private(set) var observers: [Observer] = []

    mutating func add(_ observer: Observer) {
        // After every observer with order <= the new one: equal orders run in registration order.
        let index = observers.firstIndex { $0.order > observer.order } ?? observers.endIndex
        observers.insert(observer, at: index)
    }

    mutating func remove(id: UInt64) {
        observers.removeAll { $0.id == id }
    }

    func contains(id: UInt64) -> Bool {
        observers.contains { $0.id == id }
    }
}

extension EventLoop {
    /// Registers `handler` for `activities`. Lower `order` runs first; equal orders run in
    /// registration order. The node layer's transaction committer registers for
    /// `.beforeWaiting` with the highest order so that it runs after everything else.
    ///
    /// The handler runs on the loop thread. An observer added while observers are being called
    /// is first called at the next occurrence; one removed is not called again, even later in
    /// the same pass. Loop thread only.
    @discardableResult
    public func addObserver(_ activities: Activity, order: Int = 0,
                            handler: @escaping (LoopEvent) -> Void) -> ObserverToken {
        assertOnLoopThread()
        let id = takeKey()
        observerList.add(.init(id: id, activities: activities, order: order, handler: handler))
        return ObserverToken(id: id)
    }

    /// Unregisters an observer. Loop thread only.
    public func removeObserver(_ token: ObserverToken) {
        assertOnLoopThread()
        observerList.remove(id: token.id)
    }

    /// Calls the observers of `event`'s activity in order, over a snapshot of the list; each is
    /// checked again just before its call so that a removal made by an earlier one takes effect.
    func notifyObservers(_ event: LoopEvent) {
        let activity = event.activity
        let snapshot = observerList.observers.filter { $0.activities.contains(activity) }
        for observer in snapshot {
            if snapshot.count > 1, !observerList.contains(id: observer.id) { continue }
            observer.handler(event)
        }
    }
}

/// Every observer order Silk itself uses, in one place, lowest first. Within one activity
/// observers run by ascending order, so this list is also the sequence of a frame's work on the
/// main loop. Apps that add their own observers pick an order between these (`rawValue ± n`).
public enum ObserverOrder: Int, Sendable, CaseIterable {
    /// `.exit`: the framebuffer session stops rendering and restores the console before
    /// anything else sees the exit.
    case consoleRestore = -9_223_372_036_854_775_808  // Int.min
    /// `.afterWaiting`: the Wayland connection reads what arrived before anything else runs.
    case waylandRead = -9_223_372_036_854_775_807  // Int.min + 1
    /// `.beforeWaiting`: a window's node pass — pass-thread blocks, layout, layers, display jobs.
    case nodePass = 100
    /// `.beforeWaiting`: a window's transaction committer publishes finished display work.
    case transactionCommit = 900_000
    /// `.beforeWaiting`: a window hands its layer tree's snapshot to the render thread.
    case windowCommit = 1_000_000
    /// `.beforeWaiting`: a window's display-complete callbacks (`Window.whenDisplayed`), after
    /// its commit.
    case displayCallbacks = 1_000_100
    /// `.beforeWaiting`: the Wayland connection flushes and prepares to read, last of all.
    case waylandPrepareRead = 9_223_372_036_854_774_807
}

extension EventLoop {
    /// `addObserver(_:order:handler:)` at one of Silk's named orders.
    @discardableResult
    public func addObserver(_ activities: Activity, order: ObserverOrder,
                            handler: @escaping (LoopEvent) -> Void) -> ObserverToken {
        addObserver(activities, order: order.rawValue, handler: handler)
    }
}
