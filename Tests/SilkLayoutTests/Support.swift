import SilkGeometry
@testable import SilkLayout

/// A leaf of a fixed intrinsic size (clamped into whatever range it is offered).
func leaf(_ width: Double, _ height: Double, name: String = "leaf", style: Style = Style()) -> LayoutNode {
    LayoutNode(name: name, style: style, intrinsicSize: Size(width: width, height: height))
}

func sized(_ width: Double, _ height: Double) -> Style {
    var s = Style()
    s.preferredSize = Size(width: width, height: height)
    return s
}

func exactly(_ width: Double, _ height: Double) -> SizeRange {
    SizeRange(exactly: Size(width: width, height: height))
}

func upTo(_ width: Double, _ height: Double) -> SizeRange {
    SizeRange(max: Size(width: width, height: height))
}

/// Frames of a layout's direct sublayouts.
func frames(_ layout: Layout) -> [Rect] { layout.sublayouts.map(\.frame) }

func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect { Rect(x: x, y: y, width: w, height: h) }

/// Every frame of a layout tree in depth-first order (to compare whole trees).
func allFrames(_ layout: Layout) -> [Rect] {
    var out = [layout.frame]
    for sub in layout.sublayouts { out += allFrames(sub) }
    return out
}
