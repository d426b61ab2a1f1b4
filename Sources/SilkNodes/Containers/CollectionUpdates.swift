import Foundation

/// The changes of one batch update, in UIKit's terms: deletes, reloads and the sources of moves
/// name positions before the update; inserts and the destinations of moves name positions after
/// it. A reloaded item gets a new node where the old item ends up.
struct ChangeSet {
    var insertedSections: [Int] = []
    var deletedSections: [Int] = []
    var reloadedSections: [Int] = []
    var movedSections: [(from: Int, to: Int)] = []
    var insertedItems: [ItemPath] = []
    var deletedItems: [ItemPath] = []
    var reloadedItems: [ItemPath] = []
    var movedItems: [(from: ItemPath, to: ItemPath)] = []

    var isEmpty: Bool {
        insertedSections.isEmpty && deletedSections.isEmpty && reloadedSections.isEmpty && movedSections.isEmpty
            && insertedItems.isEmpty && deletedItems.isEmpty && reloadedItems.isEmpty && movedItems.isEmpty
    }

    /// The model after the changes. `makeItem` creates an item for a new position (an insert, a
    /// reload, an inserted or reloaded section's items); `count` is the data source's item
    /// count of a section after the update. Throws when an index is out of range or the
    /// result's counts disagree with the data source's.
    func apply<Item: AnyObject>(to old: [[Item]], sectionCount: Int, count: (Int) -> Int,
                                makeItem: (ItemPath) -> Item) throws(CollectionUpdateError) -> [[Item]] {
        func check(_ ok: Bool, _ what: @autoclosure () -> String) throws(CollectionUpdateError) {
            if !ok { throw CollectionUpdateError(what()) }
        }
        // STEP 1: validate positions before the update.
        for s in deletedSections + reloadedSections + movedSections.map(\.from) {
            try check(s >= 0 && s < old.count, "section \(s) does not exist (\(old.count) sections before the update)")
        }
        for p in deletedItems + reloadedItems + movedItems.map(\.from) {
            try check(p.section >= 0 && p.section < old.count && p.item >= 0 && p.item < old[p.section].count,
                      "item \(p) does not exist before the update")
        }
        try check(Set(deletedItems + movedItems.map(\.from)).count == deletedItems.count + movedItems.count,
                  "an item is deleted or moved twice")
        try check(Set(deletedSections + movedSections.map(\.from)).count == deletedSections.count + movedSections.count,
                  "a section is deleted or moved twice")

        // STEP 2: mark reloads (by object: the item is replaced wherever it ends up).
        var reloaded = Set<ObjectIdentifier>()
        for p in reloadedItems { reloaded.insert(ObjectIdentifier(old[p.section][p.item])) }
        let reloadedSectionSet = Set(reloadedSections)

        // STEP 3: take out deleted and moved items (old positions), then deleted and moved sections.
        var movingItems: [ItemPath: Item] = [:]
        for m in movedItems { movingItems[m.from] = old[m.from.section][m.from.item] }
        let removedItems = Set(deletedItems + movedItems.map(\.from))
        // Sections that lose nothing are kept as they are (shared, not copied: a feed's page insert
        // touched every one of its 10,000 items here).
        var sections: [[Item]?] = old.enumerated().map { s, items in
            removedItems.contains(where: { $0.section == s })
                ? items.enumerated().filter { !removedItems.contains(ItemPath(item: $0.offset, section: s)) }.map(\.element)
                : items
        }
        var movingSections: [Int: [Item]] = [:]
        var sectionReloads: [Int: Bool] = [:]   // moved section: was it reloaded
        for m in movedSections { movingSections[m.to] = sections[m.from]; sectionReloads[m.to] = reloadedSectionSet.contains(m.from) }
        for s in deletedSections + movedSections.map(\.from) { sections[s] = nil }
        // Reloaded sections that stay where they are: keep a marker to refill them.
        var kept: [(items: [Item], reload: Bool)] = []
        for (s, items) in sections.enumerated() { if let items { kept.append((items, reloadedSectionSet.contains(s))) } }

        // STEP 4: insert sections (new positions, ascending): new ones empty, to be filled.
        var inserts: [(index: Int, items: [Item], fresh: Bool, reload: Bool)] =
            insertedSections.map { ($0, [], true, false) } + movingSections.map { ($0.key, $0.value, false, sectionReloads[$0.key] ?? false) }
        inserts.sort { $0.index < $1.index }
        var result: [(items: [Item], fresh: Bool, reload: Bool)] = kept.map { ($0.items, false, $0.reload) }
        for ins in inserts {
            try check(ins.index >= 0 && ins.index <= result.count, "section \(ins.index) cannot be inserted (\(result.count) sections)")
            result.insert((ins.items, ins.fresh, ins.reload), at: ins.index)
        }
        try check(result.count == sectionCount, "\(result.count) sections after the update, the data source has \(sectionCount)")
        // Fresh and reloaded sections take all their items from the data source.
        for (s, r) in result.enumerated() where r.fresh || r.reload {
            result[s].items = (0..<max(0, count(s))).map { makeItem(ItemPath(item: $0, section: s)) }
        }

        // STEP 5: insert items (new positions, ascending): new ones and moved ones.
        var itemInserts: [(path: ItemPath, item: Item?)] = insertedItems.map { ($0, nil) }
            + movedItems.map { ($0.to, movingItems[$0.from]) }
        itemInserts.sort { $0.path < $1.path }
        // One copy of a section that grows, straight into its capacity class (inserting into the
        // shared array copied it at its exact size, then again at twice that).
        var insertsPerSection: [Int: Int] = [:]
        for ins in itemInserts { insertsPerSection[ins.path.section, default: 0] += 1 }
        for (s, n) in insertsPerSection where s >= 0 && s < result.count {
            result[s].items.reserveCapacity(collectionCapacity(result[s].items.count + n))
        }
        for ins in itemInserts {
            let s = ins.path.section
            try check(s >= 0 && s < result.count && ins.path.item >= 0 && ins.path.item <= result[s].items.count,
                      "item \(ins.path) cannot be inserted")
            result[s].items.insert(ins.item ?? makeItem(ins.path), at: ins.path.item)
        }

        // STEP 6: reloaded items get new nodes where they ended up; counts must agree.
        var out: [[Item]] = []
        for (s, r) in result.enumerated() {
            try check(r.items.count == count(s), "section \(s) has \(r.items.count) items after the update, the data source has \(count(s))")
            out.append(reloaded.isEmpty ? r.items : r.items.enumerated().map { i, item in
                reloaded.contains(ObjectIdentifier(item)) ? makeItem(ItemPath(item: i, section: s)) : item
            })
        }
        return out
    }
}

extension ChangeSet {
    /// For each section after the changes, the index it had before them — nil for a section
    /// inserted or reloaded, whose header is made anew. The section changes alone are applied
    /// (by `apply`, so both agree) to a model of one marker per section.
    func sectionOrigins(sectionCount: Int, newSectionCount: Int) throws(CollectionUpdateError) -> [Int?] {
        final class Marker { let origin: Int?; init(_ o: Int?) { origin = o } }
        var sectionsOnly = self
        sectionsOnly.insertedItems = []; sectionsOnly.deletedItems = []
        sectionsOnly.reloadedItems = []; sectionsOnly.movedItems = []
        let markers = (0..<sectionCount).map { [Marker($0)] }
        return try sectionsOnly.apply(to: markers, sectionCount: newSectionCount, count: { _ in 1 }, makeItem: { _ in Marker(nil) })
            .map { $0.first?.origin }
    }
}

/// A batch update that does not match the data source; the container reloads all data instead.
struct CollectionUpdateError: Error, CustomStringConvertible, Sendable {
    let description: String
    init(_ d: String) { description = d }
}

/// The capacity to give an array of `count` per-item values that a collection remakes at every
/// update (sizes, frames, the item list): the next power of two. A feed's page makes them a
/// little longer each time; with exact sizes each freed block is a hole the next one does not
/// fit. Powers of two can reuse their holes, and from 128 KiB up glibc maps them on their own.
/// (feed-10k's slope did not move measurably with it: docs/benchmark.md.)
func collectionCapacity(_ count: Int) -> Int {
    guard count > 16 else { return count }
    guard count < Int.max / 4 else { return count }
    return 1 << (Int.bitWidth - (count - 1).leadingZeroBitCount)
}
