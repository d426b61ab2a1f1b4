import Glibc
import Testing
@testable import SilkRunLoop

@Suite struct RealTimerTests {
    @Test func timersFireInDeadlineOrderAndNeverEarly() throws {
        let loop = try EventLoop()
        let start = loop.now
        var fired: [(name: String, lateness: Duration)] = []
        for milliseconds in [30, 10, 20] {
            let deadline = start + .milliseconds(milliseconds)
            loop.addTimer(after: .milliseconds(milliseconds)) {
                fired.append(("\(milliseconds)", loop.now - deadline))
            }
        }
        let cancelled = loop.addTimer(after: .milliseconds(15)) { fired.append(("cancelled", .zero)) }
        loop.cancelTimer(cancelled)

        #expect(loop.run(until: { fired.count == 3 }, timeout: .seconds(5)) == .conditionMet)
        #expect(fired.map(\.name) == ["10", "20", "30"])
        #expect(fired.allSatisfy { $0.lateness >= .zero }, "a timer never fires before its deadline")
        loop.runOnce(timeout: .milliseconds(10))
        #expect(fired.count == 3, "the cancelled timer stays cancelled")
    }

    @Test func timerFDWakesALoopBlockedWithoutTimeout() throws {
        let loop = try EventLoop()
        var fired = false
        loop.addTimer(after: .milliseconds(20)) { fired = true }
        let watchdog = Watchdog(loop)
        loop.runOnce(timeout: nil)  // blocks in step 5 until the timerfd expires
        #expect(!watchdog.finish(), "the timerfd, not the watchdog, ended the wait")
        #expect(!fired, "the wake-up only reads the timerfd (step 7)")
        loop.runOnce(timeout: .zero)
        #expect(fired, "the timer fires in step 1 of the next iteration")
    }

    @Test func repeatingTimerRepeatsUntilCancelledFromItsHandler() throws {
        let loop = try EventLoop()
        var count = 0
        var token: TimerToken?
        token = loop.addTimer(after: .milliseconds(1), repeating: .milliseconds(2)) {
            count += 1
            if count == 3 { loop.cancelTimer(token!) }
        }
        #expect(loop.run(until: { count == 3 }, timeout: .seconds(5)) == .conditionMet)
        loop.runOnce(timeout: .milliseconds(15))
        #expect(count == 3)
    }

    @Test func aLateRepeatingTimerFiresOnceAndSkipsMissedPeriods() throws {
        let loop = try EventLoop()
        var count = 0
        loop.addTimer(after: .milliseconds(2), repeating: .milliseconds(2)) { count += 1 }
        usleep(30_000)  // the loop is busy elsewhere for ~15 periods
        loop.runOnce(timeout: .zero)
        #expect(count == 1, "missed periods are coalesced into one call")
    }

    @Test func zeroDelayTimerScheduledByATimerWaitsForTheNextIteration() throws {
        let loop = try EventLoop()
        var log: [String] = []
        loop.addTimer(after: .zero) {
            log.append("outer")
            loop.addTimer(after: .zero) { log.append("inner") }
        }
        loop.runOnce()
        #expect(log == ["outer"])
        loop.runOnce()
        #expect(log == ["outer", "inner"])
    }
}

@Suite struct VirtualClockTests {
    @Test func virtualTimeOnlyMovesWithAdvance() throws {
        let loop = try EventLoop(clock: .virtual)
        #expect(loop.now == .zero)
        var fired = false
        loop.addTimer(after: .milliseconds(1)) { fired = true }
        loop.runOnce(timeout: .milliseconds(20))
        #expect(!fired, "20 ms of real time is no virtual time")
        #expect(loop.now == .zero)
        loop.advance(by: .milliseconds(1))
        #expect(fired)
        #expect(loop.now == LoopInstant(nanoseconds: 1_000_000))
    }

    @Test func advanceFiresTimersInDeadlineOrderAtTheirOwnDeadlines() throws {
        let loop = try EventLoop(clock: .virtual)
        var log: [String] = []
        func record(_ name: String) -> () -> Void {
            { log.append("\(name)@\(loop.now.milliseconds)") }
        }
        loop.addTimer(after: .milliseconds(10)) {
            log.append("a@\(loop.now.milliseconds)")
            loop.addTimer(after: .milliseconds(1), handler: record("scheduled-by-a"))
        }
        loop.addTimer(after: .milliseconds(5), handler: record("b"))
        loop.addTimer(after: .milliseconds(5), handler: record("c"))  // same deadline: after b
        let frame = loop.addTimer(after: .milliseconds(16), repeating: .milliseconds(16), handler: record("frame"))

        loop.advance(by: .milliseconds(4))
        #expect(log.isEmpty)
        loop.advance(by: .milliseconds(46))
        #expect(log == ["b@5.0", "c@5.0", "a@10.0", "scheduled-by-a@11.0",
                        "frame@16.0", "frame@32.0", "frame@48.0"])
        #expect(loop.now.milliseconds == 50)

        loop.cancelTimer(frame)
        loop.advance(by: .seconds(1))
        #expect(log.count == 7)
        #expect(loop.now.milliseconds == 1050)
    }

    @Test func dueVirtualTimerFiresInStepOneWithoutAdvancing() throws {
        let loop = try EventLoop(clock: .virtual)
        var log: [String] = []
        loop.addObserver(.beforeWaiting) { _ in log.append("beforeWaiting") }
        loop.addTimer(after: .zero) { log.append("timer") }
        loop.runOnce()
        #expect(log == ["timer", "beforeWaiting"])
    }

    @Test func frameTimerThenIterationCommits() throws {
        // The pattern render/animation tests will use: advance one frame, then one iteration.
        let loop = try EventLoop(clock: .virtual)
        var dirty = false, commits: [Double] = []
        loop.addTimer(after: .milliseconds(16), repeating: .milliseconds(16)) { dirty = true }
        loop.addObserver(.beforeWaiting, order: .max) { _ in
            if dirty { commits.append(loop.now.milliseconds); dirty = false }
        }
        for _ in 0..<3 {
            loop.advance(by: .milliseconds(16))
            loop.runOnce()
        }
        #expect(commits == [16, 32, 48])
    }
}
