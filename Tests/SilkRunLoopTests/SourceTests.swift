import Glibc
import SilkSystem
import Testing
@testable import SilkRunLoop

@Suite struct SourceTests {
    @Test func readableSourceFiresWhenAnotherThreadWrites() throws {
        let loop = try EventLoop()
        let pipe = Pipe()
        var received = ""
        var reported: [SourceEvents] = []
        _ = try loop.addSource(fd: pipe.readEnd, events: .readable) { events in
            reported.append(events)
            received += pipe.readAll()
        }
        loop.runOnce(timeout: .zero)
        #expect(reported.isEmpty, "nothing to read yet")

        let writeEnd = pipe.writeEnd
        let writer = TestThread {
            usleep(20_000)
            _ = Glibc.write(writeEnd, "hi", 2)
        }
        #expect(loop.run(until: { !received.isEmpty }, timeout: .seconds(5)) == .conditionMet)
        writer.join()
        #expect(received == "hi")
        #expect(reported == [.readable])
    }

    @Test func writableAndHangupAreReported() throws {
        let loop = try EventLoop()
        let pipe = Pipe()
        var writeEvents: SourceEvents = []
        let writeToken = try loop.addSource(fd: pipe.writeEnd, events: .writable) { writeEvents.formUnion($0) }
        loop.runOnce(timeout: .zero)
        #expect(writeEvents == .writable, "an empty pipe is writable at once")
        loop.removeSource(writeToken)

        var readEvents: SourceEvents = []
        _ = try loop.addSource(fd: pipe.readEnd, events: [.readable, .hangup]) { readEvents.formUnion($0) }
        pipe.closeWriteEnd()
        loop.runOnce(timeout: .zero)
        #expect(readEvents.contains(.hangup), "closing the write end hangs up the read end: \(readEvents)")
    }

    @Test func removedSourceIsNotCalledAgain() throws {
        let loop = try EventLoop()
        let pipe = Pipe()
        var calls = 0
        let token = try loop.addSource(fd: pipe.readEnd, events: .readable) { _ in calls += 1 }
        pipe.write("x")
        loop.runOnce(timeout: .zero)
        #expect(calls == 1)
        loop.removeSource(token)
        loop.removeSource(token)  // twice is harmless
        loop.runOnce(timeout: .milliseconds(20))
        #expect(calls == 1, "level-triggered data is still there, but the source is gone")
    }

    @Test func sourceRemovedByAnEarlierHandlerInTheSameIterationIsSkipped() throws {
        let loop = try EventLoop()
        let first = Pipe(), second = Pipe()
        var calls: [String] = []
        var firstToken: SourceToken?
        var secondToken: SourceToken?
        firstToken = try loop.addSource(fd: first.readEnd, events: .readable) { _ in
            calls.append("first")
            loop.removeSource(secondToken!)
            loop.removeSource(firstToken!)
        }
        secondToken = try loop.addSource(fd: second.readEnd, events: .readable) { _ in
            calls.append("second")
            loop.removeSource(firstToken!)
            loop.removeSource(secondToken!)
        }
        first.write("1")
        second.write("2")
        loop.runOnce(timeout: .zero)
        #expect(calls.count == 1, "whichever ran first removed the other: \(calls)")
    }

    @Test func updateSourceChangesInterest() throws {
        let loop = try EventLoop()
        let pipe = Pipe()
        var events: [SourceEvents] = []
        let token = try loop.addSource(fd: pipe.writeEnd, events: []) { events.append($0) }
        loop.runOnce(timeout: .zero)
        #expect(events.isEmpty)
        try loop.updateSource(token, events: .writable)
        loop.runOnce(timeout: .zero)
        #expect(events == [.writable])
    }

    @Test func addingABadDescriptorThrowsANamedError() throws {
        let loop = try EventLoop()
        #expect(throws: SystemCallError(call: "epoll_ctl(EPOLL_CTL_ADD)", errno: EBADF)) {
            try loop.addSource(fd: 987_654, events: .readable) { _ in }
        }
        #expect("\(SystemCallError(call: "epoll_ctl(EPOLL_CTL_ADD)", errno: EBADF))"
                    .contains("Bad file descriptor"))
    }
}
