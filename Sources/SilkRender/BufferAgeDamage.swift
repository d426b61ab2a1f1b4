/// The damage history that buffer age needs, shared by every presenter that draws into more than
/// one buffer (Wayland's `wl_shm` buffers, the framebuffer's two pan pages).
///
/// A presenter numbers its presented frames 1, 2, 3, … and remembers per buffer the frame whose
/// pixels it holds (0: never painted). To bring a buffer holding frame *m* to frame *n*, it
/// copies from the compositor's back buffer the union of the damage of frames *m+1 … n* — its
/// age is *n − m* — or everything when that history is gone (older than `historyLimit` frames)
/// or the buffer was never painted. The usual order for a frame:
///
///     let copy = history.damageToCopy(intoBufferHolding: buffer.frame, damage: damage)
///     // copy `copy` (nil: everything) from the back buffer into the buffer
///     buffer.frame = history.record(damage)
///
/// Over-approximating is always correct (it only copies more of the same pixels). Not
/// thread-safe: the render thread owns it.
public struct BufferAgeDamage: Sendable {
    /// Damage of recent frames, newest last: `history[i]` is frame `historyStart + i`'s.
    private var history: [DamageRegion] = []
    private var historyStart = 1
    /// Frames whose damage is kept (a buffer older than this is copied whole).
    public let historyLimit: Int
    /// The number the next recorded frame gets (1 for the first).
    public private(set) var nextFrame = 1

    /// An empty history keeping the damage of the last `historyLimit` frames (at least 1). The
    /// default, 8, suits Wayland's `wl_shm` buffers (the compositor may hold one back for a few
    /// frames); the framebuffer's two pan pages need 2. A longer history only costs regions.
    public init(historyLimit: Int = 8) {
        self.historyLimit = max(1, historyLimit)
    }

    /// What to copy into a buffer that holds frame `heldFrame` (0: never painted) to bring it to
    /// the next frame, whose own damage is `damage`: `damage` and the damage of every frame the
    /// buffer missed, or nil for everything (never painted, or it missed more frames than the
    /// history keeps).
    public func damageToCopy(intoBufferHolding heldFrame: Int, damage: DamageRegion) -> DamageRegion? {
        let frame = nextFrame
        guard heldFrame > 0, heldFrame >= historyStart - 1, heldFrame < frame else { return nil }
        var region = damage
        for f in (heldFrame + 1)..<frame {
            let i = f - historyStart
            guard i >= 0, i < history.count else { return nil }
            region.formUnion(history[i])
        }
        return region
    }

    /// Records the next frame's damage (once per presented frame, in order) and returns its
    /// number: the frame the buffer it was drawn into now holds.
    @discardableResult
    public mutating func record(_ damage: DamageRegion) -> Int {
        let frame = nextFrame
        if history.isEmpty { historyStart = frame }
        history.append(damage)
        if history.count > historyLimit { history.removeFirst(); historyStart += 1 }
        nextFrame += 1
        return frame
    }
}
