import SilkGeometry

// The engine's per-box caches, stored inline where possible: a pass builds one `FlexBox` per
// element, so an allocation per box would show in the cold layout time. Yoga keeps the same
// kinds of cache (measurements by available lengths and modes, the last layout).

/// One cached measurement: the inputs and the resulting border-box size.
struct FlexCacheEntry {
    var availableWidth: Double, availableHeight: Double
    var widthMode: SizingMode, heightMode: SizingMode
    var width: Double, height: Double
    @inline(__always)
    func matches(_ w: Double, _ h: Double, _ wm: SizingMode, _ hm: SizingMode) -> Bool {
        wm == widthMode && hm == heightMode && sameLength(w, availableWidth) && sameLength(h, availableHeight)
    }
}

/// Recent measurements of a box: four inline (enough for most boxes, no allocation), more
/// in an array when a box is measured in many ways (Yoga keeps 16); replaced round-robin.
struct MeasurementCache {
    private var e0, e1, e2, e3: FlexCacheEntry?
    private var more: [FlexCacheEntry] = []
    private var count = 0
    static let capacity = 16

    // The lookups below are `mutating` though they change nothing: the caches are stored
    // properties of a `FlexBox` (a class), and a non-mutating call copied the whole cache out of
    // the box first, retaining and releasing every layout and array in it (about 2 % of a cold
    // feed layout); a mutating call works on the stored value in place.
    @inline(__always)
    mutating func lookup(_ w: Double, _ h: Double, _ wm: SizingMode, _ hm: SizingMode) -> FlexCacheEntry? {
        if count == 0 { return nil }
        if let e = e0, e.matches(w, h, wm, hm) { return e }
        if let e = e1, e.matches(w, h, wm, hm) { return e }
        if let e = e2, e.matches(w, h, wm, hm) { return e }
        if let e = e3, e.matches(w, h, wm, hm) { return e }
        if count > 4 { for e in more where e.matches(w, h, wm, hm) { return e } }
        return nil
    }
    mutating func insert(_ entry: FlexCacheEntry) {
        let slot = count % Self.capacity
        switch slot {
        case 0: e0 = entry
        case 1: e1 = entry
        case 2: e2 = entry
        case 3: e3 = entry
        default:
            if more.count < Self.capacity - 4 { more.append(entry) } else { more[slot - 4] = entry }
        }
        count += 1
    }
}

/// Recent layouts of a non-stack element by content range: two inline, up to 16 in all,
/// replaced round-robin. An exact range equal to the size an earlier layout chose reuses that
/// layout (Yoga's "exact size matches the old measured size" rule): a parent measures a
/// child, then lays it out at the measured size.
struct ElementLayoutMemo {
    // Four inline: a feed's cells are laid out in three or four ranges a pass, and the array
    // behind the first two slots cost an allocation per such box (1 % of a cold feed layout).
    private var r0: SizeRange?, l0: Layout?
    private var r1: SizeRange?, l1: Layout?
    private var r2: SizeRange?, l2: Layout?
    private var r3: SizeRange?, l3: Layout?
    private var more: [(SizeRange, Layout)] = []
    private var count = 0
    static let capacity = 16

    /// `mutating` to be read in place (see `MeasurementCache.lookup`).
    mutating func lookup(_ range: SizeRange) -> Layout? {
        if count == 0 { return nil }   // the first layout of most boxes
        if let r = r0, r == range { return l0 }
        if let r = r1, r == range { return l1 }
        if let r = r2, r == range { return l2 }
        if let r = r3, r == range { return l3 }
        if count > 4 { for (r, l) in more where r == range { return l } }
        guard range.isExact else { return nil }
        if let r = r0, let l = l0, reusable(l, from: r, for: range) { return l }
        if let r = r1, let l = l1, reusable(l, from: r, for: range) { return l }
        if let r = r2, let l = l2, reusable(l, from: r, for: range) { return l }
        if let r = r3, let l = l3, reusable(l, from: r, for: range) { return l }
        if count > 4 { for (r, l) in more where reusable(l, from: r, for: range) { return l } }
        return nil
    }
    mutating func insert(_ range: SizeRange, _ layout: Layout) {
        let slot = count % Self.capacity
        switch slot {
        case 0: r0 = range; l0 = layout
        case 1: r1 = range; l1 = layout
        case 2: r2 = range; l2 = layout
        case 3: r3 = range; l3 = layout
        default:
            if more.count < Self.capacity - 4 { more.append((range, layout)) } else { more[slot - 4] = (range, layout) }
        }
        count += 1
    }
}

/// Finished root layouts by range and parent size: one inline, up to 8 in all.
struct RootResultMemo {
    private var k0: (SizeRange, Size)?, l0: Layout?
    private var more: [(SizeRange, Size, Layout)] = []
    private var count = 0
    static let capacity = 8

    @inline(__always) private static func same(_ a: Size, _ b: Size) -> Bool {
        (a.width == b.width || (a.width.isNaN && b.width.isNaN)) && (a.height == b.height || (a.height.isNaN && b.height.isNaN))
    }
    /// `mutating` to be read in place (see `MeasurementCache.lookup`).
    mutating func lookup(_ range: SizeRange, _ parent: Size) -> Layout? {
        if let k = k0, k.0 == range, Self.same(k.1, parent) { return l0 }
        if count > 1 { for (r, p, l) in more where r == range && Self.same(p, parent) { return l } }
        return nil
    }
    mutating func insert(_ range: SizeRange, _ parent: Size, _ layout: Layout) {
        let slot = count % Self.capacity
        if slot == 0 {
            k0 = (range, parent); l0 = layout
        } else if more.count < Self.capacity - 1 {
            more.append((range, parent, layout))
        } else {
            more[slot - 1] = (range, parent, layout)
        }
        count += 1
    }
}

/// Whether `layout`, computed for `old`, is also the layout for the exact range `new`: its
/// size is `new`'s size and lies inside `old`.
@inline(__always)
func reusable(_ layout: Layout, from old: SizeRange, for new: SizeRange) -> Bool {
    reusable(size: layout.size, from: old, for: new)
}
@inline(__always)
func reusable(size s: Size, from old: SizeRange, for new: SizeRange) -> Bool {
    return s == new.min && s.width >= old.min.width && s.width <= old.max.width
        && s.height >= old.min.height && s.height <= old.max.height
}
