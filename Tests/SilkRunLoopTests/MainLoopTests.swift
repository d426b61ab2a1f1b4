// EventLoop.main must run on the process's main thread, the only thread that may drain
// libdispatch's main queue. swift-testing hands the main thread to dispatch_main() (the main
// queue is then served by worker threads and its handle reads -1), but XCTest runs its tests on
// the main thread — so these tests are XCTestCases.
#if canImport(XCTest)
import Dispatch
import Glibc
@testable import SilkRunLoop
import SilkSystem
import XCTest

final class MainLoopTests: XCTestCase {
    private struct Entry: Equatable, Sendable {
        var what: String
        var onLoopThread: Bool
    }

    func testDispatchMainQueueAndMainActorRunOnTheMainLoop() throws {
        let loop = EventLoop.main
        XCTAssertTrue(loop.isMain)
        XCTAssertTrue(loop.isOnLoopThread, "XCTest runs tests on the main thread")

        let log = LockedLog<Entry>()
        let producer = TestThread {
            DispatchQueue.main.async {
                log.append(Entry(what: "DispatchQueue.main", onLoopThread: loop.isOnLoopThread))
            }
            Task { @MainActor in
                log.append(Entry(what: "@MainActor", onLoopThread: loop.isOnLoopThread))
            }
        }
        producer.join()
        usleep(50_000)
        XCTAssertEqual(log.entries, [], "on Linux nothing but the main loop drains the main queue")
        let outcome = loop.run(until: { log.entries.count == 2 }, timeout: .seconds(5))
        XCTAssertEqual(outcome, .conditionMet)
        let entries = log.entries
        XCTAssertEqual(Set(entries.map(\.what)), ["DispatchQueue.main", "@MainActor"])
        XCTAssertTrue(entries.allSatisfy(\.onLoopThread), "\(entries)")
    }

    func testMainQueueWorkEnqueuedByMainQueueWorkRunsOnALaterIteration() throws {
        let loop = EventLoop.main
        let log = LoopFlag<[String]>([])
        var iterations = 0
        let token = loop.addObserver(.beforeWaiting) { _ in iterations += 1 }
        defer { loop.removeObserver(token) }
        DispatchQueue.main.async {
            log.value.append("outer")
            DispatchQueue.main.async { log.value.append("inner") }
        }
        XCTAssertEqual(loop.run(until: { log.value.count == 2 }, timeout: .seconds(5)), .conditionMet)
        XCTAssertEqual(log.value, ["outer", "inner"])
        XCTAssertGreaterThanOrEqual(iterations, 2)
    }

    func testMainQueueDrainsInStepThreeOfTheSameIteration() throws {
        let loop = EventLoop.main
        let log = LoopFlag<[String]>([])
        let token = loop.addObserver(.beforeWaiting) { _ in log.value.append("4 beforeWaiting") }
        defer { loop.removeObserver(token) }
        loop.runOnce()  // settle anything earlier tests left queued
        log.value.removeAll()
        DispatchQueue.main.async { log.value.append("3 main queue") }
        loop.perform { log.value.append("2 perform") }
        loop.addTimer(after: .zero) { log.value.append("1 timer") }
        loop.runOnce()
        XCTAssertEqual(log.value, ["1 timer", "2 perform", "3 main queue", "4 beforeWaiting"])
    }

    func testInstalledSignalHandlingMakesTheMainLoopExitOnSIGTERM() throws {
        // In an app this runs before any thread exists; here only the main thread blocks the
        // signals, so the signal is sent to the main thread itself.
        EventLoop.installSignalHandling()
        let loop = EventLoop.main
        let exits = LoopFlag<[LoopEvent]>([])
        let token = loop.addObserver(.exit) { exits.value.append($0) }
        defer { loop.removeObserver(token) }
        loop.perform { _ = raise(SIGTERM) }
        XCTAssertEqual(loop.run(), .terminated)
        XCTAssertEqual(exits.value, [.exit(.terminated)])
    }

    func testLoopCallbacksOnTheMainLoopAreOnTheMainActor() throws {
        let loop = EventLoop.main
        var checked = false
        loop.addTimer(after: .zero) {
            // What the node layer relies on to call @MainActor code from loop callbacks.
            MainActor.assumeIsolated { checked = true }
        }
        XCTAssertEqual(loop.run(until: { checked }, timeout: .seconds(5)), .conditionMet)
    }
}

/// A log any thread may append to.
private final class LockedLog<Element: Sendable>: Sendable {
    private let storage = Locked<[Element]>([])
    func append(_ element: Element) { storage.withLock { $0.append(element) } }
    var entries: [Element] { storage.withLock { $0 } }
}

/// Main-thread-only state shared with `@Sendable` blocks that run on the main loop.
/// `@unchecked Sendable`: only the main thread touches `value`.
private final class LoopFlag<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

#endif
