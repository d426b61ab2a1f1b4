import Glibc
import Testing
@testable import SilkRunLoop

/// Signals are sent to the loop's own thread (`raise`, `pthread_kill`), never to the process:
/// the test runner's other threads do not block SIGINT/SIGTERM, so a process-directed signal
/// would kill it. An app blocks them everywhere with `EventLoop.installSignalHandling()`.
@Suite struct SignalTests {
    @Test func sigintEndsRunAfterExitObserversInOrder() throws {
        let loop = try EventLoop()
        try loop.watchTerminationSignals()
        var log: [String] = []
        loop.addObserver(.exit, order: 1) { event in log.append("restore terminal \(event)") }
        loop.addObserver(.exit, order: 0) { event in log.append("save state \(event)") }
        loop.perform { _ = raise(SIGINT) }
        #expect(loop.run() == .interrupted)
        #expect(log == ["save state exit(SilkRunLoop.ExitReason.interrupted)",
                        "restore terminal exit(SilkRunLoop.ExitReason.interrupted)"])
    }

    @Test func sigtermFromAnotherThreadEndsRun() throws {
        let loop = try EventLoop()
        try loop.watchTerminationSignals()
        try loop.watchTerminationSignals()  // idempotent
        let loopThread = pthread_self()
        let sender = TestThread {
            usleep(20_000)
            _ = pthread_kill(loopThread, SIGTERM)
        }
        var exits: [LoopEvent] = []
        loop.addObserver(.exit) { exits.append($0) }
        #expect(loop.run() == .terminated)
        sender.join()
        #expect(exits == [.exit(.terminated)])
    }

    @Test func aSignalWinsOverASimultaneousStopAndBothAreConsumed() throws {
        let loop = try EventLoop()
        try loop.watchTerminationSignals()
        loop.perform {
            _ = raise(SIGINT)
            loop.stop()
        }
        #expect(loop.run() == .interrupted)
        #expect(loop.runOnce(timeout: .zero) == nil, "the stop request went with the signal's exit")
    }
}

/// Issue 23: SIGHUP, SIGQUIT and SIGUSR1 killed the process with their default action (SIGQUIT:
/// the runtime's crash report, then a minute alive), skipping the exit observers that restore
/// the console; they now end the loop in order like SIGINT and SIGTERM.
@Suite struct MoreTerminationSignalTests {
    @Test(arguments: [(SIGHUP, ExitReason.hungUp), (SIGQUIT, .quit), (SIGUSR1, .userSignal)])
    func signalEndsRunInOrder(signal: Int32, reason: ExitReason) throws {
        let loop = try EventLoop()
        try loop.watchTerminationSignals()
        var exits: [LoopEvent] = []
        loop.addObserver(.exit) { exits.append($0) }
        loop.perform { _ = raise(signal) }
        #expect(loop.run() == reason)
        #expect(exits == [.exit(reason)])
    }
}
