import SilkNodes

/// What a scrolling scene tracks on screen after every frame: when each item became visible and
/// when its content was there (time to content), how many visible items still showed a
/// placeholder, when the first screen was complete, and the frames in which a result whose job
/// had been cancelled was applied anyway (the committer drops those by sentinel;
/// `staleApplied` counts any that slipped through).
struct ScreenContentTracker {
    /// Items on screen still waiting for their content: when each became visible.
    private var becameVisible: [Int: Double] = [:]
    /// Items whose content was seen (a bit per item index): the tracker's own memory must not
    /// grow by a dictionary entry per item in a 10,000-post feed whose memory is what is measured.
    private var done = ItemBits()
    private var timeToContentSum = 0.0, timeToContentMax = 0.0, timeToContentCount = 0
    private(set) var placeholderCellFrames = 0
    private(set) var firstScreenCompleteMs: Double?
    private(set) var staleFrames = 0
    private var staleSeen = 0

    /// `visible`: the items on screen after `frame`, each with whether its content is shown.
    mutating func observe(_ visible: [(index: Int, hasContent: Bool)], frame: FrameObservation) {
        var missing = 0
        for (i, hasContent) in visible {
            if !done.contains(i), becameVisible[i] == nil { becameVisible[i] = frame.presentedAtMs }
            if hasContent {
                if let v = becameVisible.removeValue(forKey: i) {
                    if frame.measuring {
                        let t = frame.presentedAtMs - v
                        timeToContentSum += t; timeToContentMax = max(timeToContentMax, t); timeToContentCount += 1
                    }
                    done.insert(i)
                }
            } else {
                missing += 1
            }
        }
        // An item that left the screen without its content is forgotten (a fast scroll passes
        // thousands): back on screen, it waits anew.
        if becameVisible.count > visible.count {
            let onScreen = Set(visible.map(\.index))
            becameVisible = becameVisible.filter { onScreen.contains($0.key) }
        }
        if frame.measuring { placeholderCellFrames += missing }
        if missing == 0, !visible.isEmpty, firstScreenCompleteMs == nil { firstScreenCompleteMs = frame.presentedAtMs }
        let stale = frame.staleApplied
        if stale > staleSeen { staleFrames += 1; staleSeen = stale }
    }

    /// Stale frames, placeholder cell-frames and time to content.
    func report(into result: inout ModeResult) {
        result.staleFrames = staleFrames
        result.placeholderCellFrames = placeholderCellFrames
        result.timeToContentMs = MeanMax(mean: timeToContentCount == 0 ? 0 : timeToContentSum / Double(timeToContentCount),
                                         max: timeToContentMax)
    }
}

/// A set of non-negative item indices as bits: 1.25 KB for 10,000 items.
struct ItemBits {
    private var words: [UInt64] = []
    private(set) var count = 0
    func contains(_ i: Int) -> Bool { i >= 0 && i / 64 < words.count && words[i / 64] & (1 << UInt64(i % 64)) != 0 }
    mutating func insert(_ i: Int) {
        guard i >= 0, !contains(i) else { return }
        if i / 64 >= words.count { words.append(contentsOf: repeatElement(0, count: i / 64 + 1 - words.count)) }
        words[i / 64] |= 1 << UInt64(i % 64)
        count += 1
    }
}
