import Glibc
import SilkSystem
import Synchronization
import Testing
@testable import SilkRunLoop

@Suite struct CrossThreadTests {
    @Test func performRunsBlocksOnTheLoopThreadInOrder() throws {
        let loop = try EventLoop()
        let log = LoopConfined<[Int]>([])
        let offThread = LoopConfined<Bool>(false)
        let producer = TestThread {
            for index in 0..<100 {
                loop.perform {
                    if !loop.isOnLoopThread { offThread.value = true }
                    log.value.append(index)
                }
            }
        }
        producer.join()
        #expect(loop.run(until: { log.value.count == 100 }, timeout: .seconds(5)) == .conditionMet)
        #expect(log.value == Array(0..<100))
        #expect(!offThread.value)
    }

    @Test func blocksPerformedByABlockRunNextIteration() throws {
        let loop = try EventLoop(clock: .virtual)
        let log = LoopConfined<[String]>([])
        loop.perform {
            log.value.append("first")
            loop.perform { log.value.append("second") }
        }
        loop.runOnce()
        #expect(log.value == ["first"])
        loop.runOnce()
        #expect(log.value == ["first", "second"])
    }

    @Test func wakeUpFromAnotherThreadEndsAnUnboundedWait() throws {
        let loop = try EventLoop()
        var afterWaiting = 0
        loop.addObserver(.afterWaiting) { _ in afterWaiting += 1 }
        let watchdog = Watchdog(loop)
        let waker = TestThread {
            usleep(20_000)
            loop.wakeUp()
        }
        loop.runOnce(timeout: nil)
        waker.join()
        #expect(!watchdog.finish(), "wakeUp(), not the watchdog, ended the wait")
        #expect(afterWaiting == 1)
    }

    @Test func stopFromAnotherThreadEndsRun() throws {
        let loop = try EventLoop()
        var exitEvents: [LoopEvent] = []
        loop.addObserver(.exit) { exitEvents.append($0) }
        let stopper = TestThread {
            usleep(20_000)
            loop.stop()
        }
        #expect(loop.run() == .stopped)
        stopper.join()
        #expect(exitEvents == [.exit(.stopped)])
    }

    @Test func loopThreadRunsItsLoopUntilStopped() throws {
        let observed = Locked<Int>(0)
        let thread = try EventLoopThread(name: "silk-test-loop") { loop in
            loop.addObserver(.beforeWaiting) { _ in observed.withLock { $0 += 1 } }
        }
        let ran = Atomic<Bool>(false)
        let loopThreadSaysItOwnsTheLoop = Atomic<Bool>(false)
        let loop = thread.loop
        thread.loop.perform {
            loopThreadSaysItOwnsTheLoop.store(loop.isOnLoopThread, ordering: .relaxed)
            ran.store(true, ordering: .releasing)
        }
        while !ran.load(ordering: .acquiring) { usleep(1_000) }
        #expect(!thread.loop.isOnLoopThread)
        #expect(thread.stopAndJoin() == .stopped)
        #expect(thread.join() == nil, "already joined")
        let ownedByLoopThread = loopThreadSaysItOwnsTheLoop.load(ordering: .relaxed)
        #expect(ownedByLoopThread)
        #expect(observed.withLock { $0 } >= 1)
    }

    /// Many threads hammer `perform` and `wakeUp` while the loop runs: every block runs exactly
    /// once, on the loop thread, in each producer's order. Run under ThreadSanitizer in CI.
    @Test func stressManyThreadsPerformAndWakeUp() throws {
        let producers = 8, blocksPerProducer = 2_000
        let thread = try EventLoopThread(name: "silk-stress")
        let loop = thread.loop
        // Loop-thread-only state: TSan reports a race if any block ran elsewhere or unordered.
        let lastSeen = LoopConfined<[Int]>(Array(repeating: -1, count: producers))
        let total = LoopConfined<Int>(0)
        let outOfOrder = LoopConfined<Int>(0)
        let threads = (0..<producers).map { producer in
            TestThread {
                for index in 0..<blocksPerProducer {
                    loop.perform {
                        if lastSeen.value[producer] != index - 1 { outOfOrder.value += 1 }
                        lastSeen.value[producer] = index
                        total.value += 1
                    }
                    if index % 7 == 0 { loop.wakeUp() }
                }
            }
        }
        threads.forEach { $0.join() }
        // FIFO: this block runs after every block queued above, then ends the loop.
        loop.perform { loop.stop() }
        #expect(thread.join() == .stopped)
        #expect(total.value == producers * blocksPerProducer)
        #expect(outOfOrder.value == 0)
        #expect(lastSeen.value == Array(repeating: blocksPerProducer - 1, count: producers))
    }

    /// Loop threads started and stopped while other threads perform, wake and stop them
    /// concurrently: each ends once, with `.stopped`, after running what it was given.
    @Test func stressLoopThreadLifecycleWithConcurrentStops() throws {
        for round in 0..<10 {
            let thread = try EventLoopThread(name: "silk-cycle-\(round)")
            let loop = thread.loop
            let ran = LoopConfined<Int>(0)
            let producers = (0..<3).map { _ in
                TestThread {
                    for _ in 0..<200 { loop.perform { ran.value += 1 } }
                    loop.wakeUp()
                }
            }
            producers.forEach { $0.join() }
            let stoppers = (0..<3).map { _ in TestThread { loop.stop() } }
            stoppers.forEach { $0.join() }
            #expect(thread.join() == .stopped)
            // Blocks queued before the stops may or may not have run; none ran twice.
            #expect(ran.value <= 600)
        }
    }
}
