import Foundation
import SilkGeometry

// Box drawings of spec trees, as Texture's `asciiArtString`: each element is a box with its
// name in the top edge; a horizontal stack puts its children's boxes side by side, every
// other element stacks them vertically.

extension LayoutElement {
    /// The element tree as nested ASCII boxes. Nodes are drawn as leaves (their subtree is
    /// their own); trees deeper than `LayoutContext.defaultMaximumDepth` are cut with "…".
    public var asciiArtString: String {
        ASCIIArt.box(for: self, depth: 0).joined(separator: "\n")
    }
}

enum ASCIIArt {
    static func box(for element: any LayoutElement, depth: Int) -> [String] {
        let name = elementName(element)
        if depth >= LayoutContext.defaultMaximumDepth { return ["[…]"] }
        let children = element.sublayoutElements
        if children.isEmpty { return ["[\(name)]"] }
        let boxes = children.map { box(for: $0, depth: depth + 1) }
        var horizontal = false
        if let stack = element.stackLayoutSpec {
            horizontal = stack.direction == .horizontal || stack.direction == .horizontalReverse
        }
        let content = horizontal ? sideBySide(boxes) : stacked(boxes)
        let innerWidth = max(content.map(\.count).max() ?? 0, name.count + 2)
        let dashes = innerWidth + 2 - name.count
        let top = String(repeating: "-", count: dashes / 2) + name + String(repeating: "-", count: dashes - dashes / 2)
        var lines = [top]
        for line in content { lines.append("|" + line.padding(toLength: innerWidth, withPad: " ", startingAt: 0) + "|") }
        lines.append(String(repeating: "-", count: innerWidth + 2))
        return lines
    }

    private static func sideBySide(_ boxes: [[String]]) -> [String] {
        let height = boxes.map(\.count).max() ?? 0
        var lines = Array(repeating: " ", count: height)
        for b in boxes {
            let w = b.map(\.count).max() ?? 0
            for i in 0..<height {
                let part = i < b.count ? b[i] : ""
                lines[i] += part.padding(toLength: w, withPad: " ", startingAt: 0) + " "
            }
        }
        return lines
    }

    private static func stacked(_ boxes: [[String]]) -> [String] {
        boxes.flatMap { $0.map { " " + $0 + " " } }
    }
}
