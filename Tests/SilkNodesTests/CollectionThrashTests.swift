import Foundation
import Testing
import SilkGeometry
import SilkRunLoop
@testable import SilkNodes

/// Texture's table/collection thrash tests, on Silk: random deletes, inserts, reloads and moves
/// of items (and inserts/deletes of sections), applied in batches while the table scrolls on a
/// virtual clock, with the result checked against a model after every step. The model is
/// changed by plain array operations here; the change set handed to the table is derived from
/// that (UIKit semantics: old positions for deletes, reloads and move sources, final positions
/// for inserts and move destinations).
extension PipelineTests {
    @Suite(.serialized) struct CollectionThrashTests {
        init() { NodeScheduler.shared.synchronousDisplay = true }

        static func height(_ v: Int) -> Double { 10 + Double(v % 5) * 7 }

        struct Step {
            var newModel: [[Int]]
            var deletedItems: [ItemPath] = [], reloadedItems: [ItemPath] = [], insertedItems: [ItemPath] = []
            var movedItems: [(ItemPath, ItemPath)] = []
            var deletedSections: [Int] = [], insertedSections: [Int] = []
            var reloadedValues: [Int] = []
        }

        /// A random update of `old`, with fresh values from `next`.
        static func randomStep(_ old: [[Int]], next: inout Int, rng: inout SplitMix64) -> Step {
            var step = Step(newModel: [])
            let sectionOps = Int.random(in: 0..<6, using: &rng) == 0
            // Section deletes (old indices), keep at least one section.
            var deletedSections = Set<Int>()
            if sectionOps && old.count > 1 { deletedSections.insert(Int.random(in: 0..<old.count, using: &rng)) }
            var taken = Set<ItemPath>()
            var moving: [Int] = []
            for (s, items) in old.enumerated() where !deletedSections.contains(s) {
                for (i, _) in items.enumerated() {
                    let p = ItemPath(item: i, section: s)
                    switch Int.random(in: 0..<20, using: &rng) {
                    case 0, 1: step.deletedItems.append(p); taken.insert(p)
                    case 2: step.reloadedItems.append(p); step.reloadedValues.append(old[s][i])
                    case 3: moving.append(old[s][i]); taken.insert(p)
                    default: break
                    }
                }
            }
            // Remove deleted and moving items, then deleted sections.
            var model: [[Int]?] = old.enumerated().map { s, items in
                items.enumerated().filter { !taken.contains(ItemPath(item: $0.offset, section: s)) }.map(\.element)
            }
            for s in deletedSections { model[s] = nil }
            var m = model.compactMap { $0 }
            // Insert a section (its items come with it).
            var insertedSectionValues: [Int]?
            if sectionOps && Int.random(in: 0..<2, using: &rng) == 0 {
                let values = (0..<Int.random(in: 0...6, using: &rng)).map { _ in next += 1; return next }
                m.insert(values, at: Int.random(in: 0...m.count, using: &rng))
                insertedSectionValues = values
            }
            // Insert new and moving values at random places (not into the inserted section).
            var placed: [Int] = []
            let newValues = (0..<Int.random(in: 0...8, using: &rng)).map { _ in next += 1; return next }
            for v in newValues + moving {
                let targets = m.indices.filter { insertedSectionValues == nil || m[$0] != insertedSectionValues! }
                guard let s = targets.randomElement(using: &rng) else { continue }
                m[s].insert(v, at: Int.random(in: 0...m[s].count, using: &rng))
                placed.append(v)
            }
            // Final positions of what was inserted or moved.
            func find(_ v: Int) -> ItemPath? {
                for (s, items) in m.enumerated() { if let i = items.firstIndex(of: v) { return ItemPath(item: i, section: s) } }
                return nil
            }
            for v in newValues where placed.contains(v) { step.insertedItems.append(find(v)!) }
            for (s, items) in old.enumerated() {
                for (i, v) in items.enumerated() where moving.contains(v) {
                    if let to = find(v) { step.movedItems.append((ItemPath(item: i, section: s), to)) }
                    else { step.deletedItems.append(ItemPath(item: i, section: s)) }   // no section to go to
                }
            }
            step.deletedSections = Array(deletedSections)
            if let values = insertedSectionValues { step.insertedSections = [m.firstIndex(of: values)!] }
            step.newModel = m
            return step
        }

        static func check(_ h: CollectionHarness, _ step: Int) {
            let table = h.collection
            #expect(h.shownValues == h.source.model, "step \(step): model")
            var y = 0.0
            for (s, items) in h.source.model.enumerated() {
                for (i, v) in items.enumerated() {
                    let p = ItemPath(item: i, section: s)
                    let f = table.frameForItem(at: p)
                    #expect(f == Rect(x: 0, y: y, width: 100, height: height(v)), "step \(step): frame of \(v)")
                    y += height(v)
                    if let node = table.nodeForItem(at: p) as? ValueCell {
                        #expect(node.value == v, "step \(step): node of \(p)")
                        if node.supernode === table { #expect(node.frame == f, "step \(step): attached frame of \(v)") }
                    }
                }
            }
            #expect(table.contentSize.height == y, "step \(step): content size")
            // Exactly the items in the preload range are attached, all in range.
            guard let rects = table.lastRects else { return }
            for (s, items) in h.source.model.enumerated() {
                for i in items.indices {
                    let p = ItemPath(item: i, section: s)
                    let inPreload = RangeController.overlaps(table.frameForItem(at: p)!, rects.preload)
                    let node = table.nodeForItem(at: p)
                    #expect((node?.supernode === table) == inPreload,
                            "step \(step): attachment of \(p) node \(node == nil ? "nil" : "live") offset \(table.contentOffset) preload \(rects.preload)")
                }
            }
            let attached = table.subnodes.compactMap { $0 as? ValueCell }
            #expect(attached.count == table.attachedItemCount, "step \(step): attached count")
        }

        @Test(arguments: [1, 2, 3])
        func thrashWhileScrolling(seed: UInt64) throws {
            defer { NodeScheduler.shared.synchronousDisplay = false }
            var rng = SplitMix64(seed: seed)
            var next = 1000
            let initial = (0..<3).map { s in (0..<40).map { s * 100 + $0 } }
            let source = ModelDataSource(initial, height: Self.height)
            let table = TableNode()
            table.updateAnimationDuration = 0.2
            let loop = try EventLoop(clock: .virtual)
            table.animationLoop = loop
            let h = CollectionHarness(table, source: source)
            Self.check(h, -1)
            for stepIndex in 0..<150 {
                let step = Self.randomStep(source.model, next: &next, rng: &rng)
                // Nodes of reloaded items, to see that they are replaced. Held strongly: an
                // ObjectIdentifier of a freed node may name the new node allocated at its address.
                let before: [Int: DisplayNode] = table.pendingUpdateCount > 0 ? [:] : Dictionary(uniqueKeysWithValues: step.reloadedItems.compactMap { p in
                    table.nodeForItem(at: p).map { (source.model[p.section][p.item], $0 as DisplayNode) }
                })
                source.model = step.newModel
                table.performBatchUpdates(animated: Bool.random(using: &rng)) {
                    table.deleteSections(step.deletedSections)
                    table.insertSections(step.insertedSections)
                    table.deleteItems(at: step.deletedItems)
                    table.reloadItems(at: step.reloadedItems)
                    table.insertItems(at: step.insertedItems)
                    for (a, b) in step.movedItems { table.moveItem(at: a, to: b) }
                }
                // Scroll meanwhile: at once, animated on the virtual clock, or not at all.
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: table.setContentOffset(Point(x: 0, y: Double(Int.random(in: 0...4000, using: &rng))))
                case 1:
                    table.setContentOffset(Point(x: 0, y: Double(Int.random(in: 0...4000, using: &rng))), animated: true)
                    for _ in 0..<Int.random(in: 1...30, using: &rng) { loop.advance(by: .milliseconds(16)); h.harness.iterate() }
                default: break
                }
                // Sometimes let a second update queue behind the first before anything commits.
                if Int.random(in: 0..<4, using: &rng) == 0 { continue }
                h.settle()
                for _ in 0..<40 where table.isDecelerating { loop.advance(by: .milliseconds(16)); h.settle() }
                Self.check(h, stepIndex)
                for (v, old) in before {
                    guard let p = h.shownValues.enumerated().lazy.compactMap({ s, items in items.firstIndex(of: v).map { ItemPath(item: $0, section: s) } }).first,
                          let node = table.nodeForItem(at: p) else { continue }
                    #expect(node !== old, "step \(stepIndex): reloaded \(v) kept its node")
                }
            }
            h.settle()
            Self.check(h, 999)
        }
    }
}
