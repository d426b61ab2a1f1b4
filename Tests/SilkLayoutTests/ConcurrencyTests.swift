import Dispatch
import Foundation
import SilkGeometry
import SilkSystem
import Testing
@testable import SilkLayout
import SilkLayoutTools

/// Layout may run on any thread: the same trees laid out on many threads at once give the
/// same frames as a serial run (specs are immutable; nodes share their caches under locks).
@Suite struct ConcurrencyTests {
    @Test func sameTreesOnManyThreadsGiveIdenticalResults() throws {
        let url = try #require(Bundle.module.url(forResource: "yoga-flexbox", withExtension: "json", subdirectory: "Fixtures"))
        let cases = try CorpusFile.load(contentsOf: url).compactMap { c in c.root.map { (c, $0.spec) } }
        let feed = makeFeedTree(cells: 20).root
        let feedRange = SizeRange(min: Size(width: 320, height: 0), max: Size(width: 320, height: .infinity))

        let expectedCorpus = try cases.map { try allFrames(CorpusEvaluator.rootLayout($0.1, available: $0.0.available)) }
        let expectedFeed = allFrames(try feed.layoutThatFits(feedRange))

        // A `Lock`-guarded counter: Synchronization.Mutex's borrowed `inout` is reported as a
        // Swift access race by ThreadSanitizer here (a false positive seen in `make test-tsan`).
        let mismatches = MismatchCounter()
        DispatchQueue.concurrentPerform(iterations: 16) { worker in
            for round in 0..<3 {
                // Drop the feed's caches now and then, so threads race on cold nodes too.
                if worker % 4 == round { for node in feed.subnodes { node.invalidateLayout() } }
                var bad = 0
                for (i, (c, spec)) in cases.enumerated() where (i + worker) % 4 == 0 {
                    if let frames = try? allFrames(CorpusEvaluator.rootLayout(spec, available: c.available)),
                       frames == expectedCorpus[i] { continue }
                    bad += 1
                }
                if let frames = try? allFrames(feed.layoutThatFits(feedRange)), frames == expectedFeed {} else { bad += 1 }
                let b = bad
                mismatches.add(b)
            }
        }
        #expect(mismatches.value == 0)
    }
}

private final class MismatchCounter: @unchecked Sendable {
    private let lock = Lock()
    private var count = 0
    func add(_ n: Int) { lock.lock(); count += n; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
