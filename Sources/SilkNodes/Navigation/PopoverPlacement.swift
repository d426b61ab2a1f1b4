import Foundation
import SilkGeometry

/// Where a popover goes: below its anchor (a dropdown's box), or above it when there is no
/// room below, never outside the window's edges minus a margin, at least as wide as the anchor
/// when the window allows. A pure function of its inputs, so every case can be tested (and a
/// `ModalStyle.popover` modal is placed by it).
///
/// Rules, in order:
/// - The window (`bounds`) loses `margin` on every side; a window narrower or shorter than
///   twice the margin keeps what is left (the margin shrinks, never below 0).
/// - The popover is `size` wide, widened to the anchor's width, narrowed to the room left.
///   It is as tall as `size`, cut to the room left.
/// - It opens below the anchor (`gap` under its bottom edge) when it fits there, else above it
///   when it fits there, else on the side with more room, pushed back inside the window (it
///   then covers part of the anchor rather than leaving the screen).
/// - Its leading edge lines up with the anchor's (the trailing edge in right-to-left), pushed
///   back inside the window.
///
/// Absurd input never yields an absurd frame: a NaN or infinite anchor places the popover
/// centred in the window; NaN, infinite or negative sizes count as 0; a NaN or infinite
/// window gives an empty frame at the origin; an anchor outside the window still gives a frame
/// inside it. The origin is rounded to whole points (crisp edges).
public struct PopoverPlacement: Hashable, Sendable {
    /// The popover's frame, in the coordinates of `bounds`.
    public var frame: Rect
    /// Whether it opens above the anchor (there was no room below).
    public var opensAbove: Bool

    /// The default room kept between the popover and the window's edges, in points.
    public static let defaultMargin = 8.0
    /// The default distance between the anchor and the popover, in points.
    public static let defaultGap = 4.0

    /// Places a popover of `size` for `anchor` inside `bounds` (see the type's rules).
    public init(size: Size, anchor: Rect, bounds: Rect, margin: Double = defaultMargin, gap: Double = defaultGap,
                rightToLeft: Bool = false) {
        func sane(_ v: Double) -> Double { v.isFinite ? max(0, v) : 0 }
        let boundsFinite = [bounds.minX, bounds.minY, bounds.width, bounds.height].allSatisfy(\.isFinite)
        guard boundsFinite else {
            self.init(frame: Rect(x: 0, y: 0, width: 0, height: 0), opensAbove: false)
            return
        }
        let window = Rect(x: bounds.minX, y: bounds.minY, width: sane(bounds.width), height: sane(bounds.height))
        let mx = min(sane(margin), window.width / 2), my = min(sane(margin), window.height / 2)
        let room = Rect(x: window.minX + mx, y: window.minY + my, width: window.width - 2 * mx, height: window.height - 2 * my)
        let gap = sane(gap)
        let anchorFinite = [anchor.minX, anchor.minY, anchor.width, anchor.height].allSatisfy(\.isFinite)
        let w = min(max(sane(size.width), anchorFinite ? sane(anchor.width) : 0), room.width)
        let h = min(sane(size.height), room.height)
        func clamp(_ v: Double, _ lo: Double, _ hi: Double) -> Double { min(max(v, lo), max(lo, hi)) }
        guard anchorFinite else {
            self.init(frame: Rect(x: (room.midX - w / 2).rounded(), y: (room.midY - h / 2).rounded(), width: w, height: h),
                      opensAbove: false)
            return
        }
        // A negative width or height (an unnormalised rect) spans the same area.
        let a = Rect(x: min(anchor.minX, anchor.maxX), y: min(anchor.minY, anchor.maxY),
                     width: abs(anchor.width), height: abs(anchor.height))
        let below = a.maxY + gap, above = a.minY - gap - h
        let fitsBelow = below >= room.minY && below + h <= room.maxY
        let fitsAbove = above >= room.minY && above + h <= room.maxY
        let opensAbove: Bool
        let y: Double
        if fitsBelow {
            y = below; opensAbove = false
        } else if fitsAbove {
            y = above; opensAbove = true
        } else {
            // Neither side has the room: the side with more, then inside the window.
            opensAbove = (a.minY - room.minY) > (room.maxY - a.maxY)
            y = clamp(opensAbove ? above : below, room.minY, room.maxY - h)
        }
        let x = clamp(rightToLeft ? a.maxX - w : a.minX, room.minX, room.maxX - w)
        self.init(frame: Rect(x: x.rounded(), y: y.rounded(), width: w, height: h), opensAbove: opensAbove)
    }

    /// A placement with this frame and side (what the initializer computes).
    public init(frame: Rect, opensAbove: Bool) {
        self.frame = frame
        self.opensAbove = opensAbove
    }
}
