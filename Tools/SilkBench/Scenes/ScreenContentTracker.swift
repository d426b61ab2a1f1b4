import SilkNodes

/// What a scrolling scene tracks on screen after every frame: when each item became visible and
/// when its content was there (time to content), how many visible items still showed a
/// placeholder, when the first screen was complete, and the frames in which a result whose job
/// had been cancelled was applied anyway (the committer drops those by sentinel;
/// `staleApplied` counts any that slipped through).
struct ScreenContentTracker {
    private var becameVisible: [Int: Double] = [:]
    private(set) var timeToContent: [Double] = []
    private(set) var placeholderCellFrames = 0
    private(set) var firstScreenCompleteMs: Double?
    private(set) var staleFrames = 0
    private var staleSeen = 0

    /// `visible`: the items on screen after `frame`, each with whether its content is shown.
    mutating func observe(_ visible: [(index: Int, hasContent: Bool)], frame: FrameObservation) {
        var missing = 0
        for (i, hasContent) in visible {
            if becameVisible[i] == nil { becameVisible[i] = frame.presentedAtMs }
            if hasContent {
                if let v = becameVisible[i], v >= 0 {
                    if frame.measuring { timeToContent.append(frame.presentedAtMs - v) }
                    becameVisible[i] = -1
                }
            } else {
                missing += 1
            }
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
        result.timeToContentMs = MeanMax(timeToContent)
    }
}
