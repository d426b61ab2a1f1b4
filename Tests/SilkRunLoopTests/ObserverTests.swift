import Testing
@testable import SilkRunLoop

@Suite struct ObserverTests {
    @Test func observersRunByAscendingOrderThenRegistration() throws {
        let loop = try EventLoop(clock: .virtual)
        var log: [String] = []
        loop.addObserver(.beforeWaiting, order: 10) { _ in log.append("before 10 first") }
        loop.addObserver(.beforeWaiting, order: -5) { _ in log.append("before -5") }
        loop.addObserver(.beforeWaiting, order: 10) { _ in log.append("before 10 second") }
        loop.addObserver([.beforeWaiting, .afterWaiting], order: 0) { event in log.append("\(event) 0") }
        loop.addObserver(.afterWaiting, order: -1) { _ in log.append("after -1") }
        loop.addObserver(.exit) { _ in log.append("exit") }
        loop.runOnce()
        #expect(log == ["before -5", "beforeWaiting 0", "before 10 first", "before 10 second",
                        "after -1", "afterWaiting 0"])
    }

    @Test func oneIterationRunsItsStepsInTheDocumentedOrder() throws {
        let loop = try EventLoop()
        let pipe = Pipe()
        let log = LoopConfined<[String]>([])
        _ = try loop.addSource(fd: pipe.readEnd, events: .readable) { _ in
            _ = pipe.readAll()
            log.value.append("7 source")
        }
        loop.addObserver(.afterWaiting) { _ in log.value.append("6 afterWaiting") }
        loop.addObserver(.beforeWaiting) { _ in log.value.append("4 beforeWaiting") }
        loop.addObserver(.exit) { _ in log.value.append("8 exit") }
        loop.perform { log.value.append("2 perform") }
        loop.addTimer(after: .zero) { log.value.append("1 timer") }
        pipe.write("x")
        loop.stop()
        #expect(loop.runOnce() == .stopped)
        #expect(log.value == ["1 timer", "2 perform", "4 beforeWaiting", "6 afterWaiting", "7 source", "8 exit"])
    }

    @Test func observerRemovedDuringAPassIsNotCalledAndOneAddedWaitsForTheNext() throws {
        let loop = try EventLoop(clock: .virtual)
        var log: [String] = []
        var victim: ObserverToken?
        loop.addObserver(.beforeWaiting, order: 0) { _ in
            log.append("remover")
            if let token = victim {
                loop.removeObserver(token)
                victim = nil
                loop.addObserver(.beforeWaiting, order: 2) { _ in log.append("late") }
            }
        }
        victim = loop.addObserver(.beforeWaiting, order: 1) { _ in log.append("victim") }
        loop.runOnce()
        #expect(log == ["remover"])
        loop.runOnce()
        #expect(log == ["remover", "remover", "late"])
    }

    @Test func exitObserversRunInOrderOnceWhenStopped() throws {
        let loop = try EventLoop(clock: .virtual)
        var log: [String] = []
        loop.addObserver(.exit, order: 3) { event in log.append("3 \(event)") }
        loop.addObserver(.exit, order: -1) { event in log.append("-1 \(event)") }
        loop.addObserver(.exit, order: 0) { event in log.append("0 \(event)") }
        loop.stop()
        #expect(loop.runOnce() == .stopped)
        #expect(log == ["-1 exit(SilkRunLoop.ExitReason.stopped)", "0 exit(SilkRunLoop.ExitReason.stopped)",
                        "3 exit(SilkRunLoop.ExitReason.stopped)"])
        #expect(loop.runOnce() == nil, "a stop request is consumed by the run that honours it")
        #expect(log.count == 3)
    }

    @Test func stopFromAHandlerEndsRunAfterTheIteration() throws {
        let loop = try EventLoop(clock: .virtual)
        var iterations = 0
        loop.addObserver(.beforeWaiting) { _ in
            iterations += 1
            // An idle loop blocks in step 5; wake it so that it comes around again.
            if iterations == 3 { loop.stop() } else { loop.wakeUp() }
        }
        #expect(loop.run() == .stopped)
        #expect(iterations == 3)
    }
}
