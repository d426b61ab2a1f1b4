import Foundation
import SilkGeometry
import SilkRaster

// Links in a TextNode: a touch that begins on a link of a text node with `linkTapped` or
// `linkLongPressed` belongs to the link (not to the node's supernodes, nor to recognizers).
// While the finger is on the link it is highlighted (unless `shouldHighlightLink` says no);
// lifting on the same link taps it; resting `longPressDuration` within `tapSlop` long-presses it
// (when `linkLongPressed` is set), after which lifting does nothing. Texture's ASTextNode
// behaves the same way.

/// A touch pressing a link. Main thread.
final class LinkPress {
    let node: TextNode
    let link: TextLink
    let highlights: Bool
    var isHighlighted = false
    var deadline: Double?
    var didLongPress = false

    init(node: TextNode, link: TextLink, highlights: Bool, deadline: Double?) {
        self.node = node; self.link = link; self.highlights = highlights; self.deadline = deadline
    }

    func setHighlighted(_ on: Bool) {
        guard highlights, on != isHighlighted else { return }
        isHighlighted = on
        node.setHighlightedRange(on ? link.range : nil)
    }
}

extension InputDispatcher {
    /// The link under a touch beginning on `hit`, if the touch should belong to it.
    func beginLinkPress(on hit: DisplayNode, touch: Touch) -> LinkPress? {
        guard let text = hit as? TextNode else { return nil }
        let (tapped, longPressed, shouldHighlight) = (text.linkTapped, text.linkLongPressed, text.shouldHighlightLink)
        guard tapped != nil || longPressed != nil,
              let link = text.textLayout.link(at: touch.location(in: text)) else { return nil }
        let press = LinkPress(node: text, link: link, highlights: shouldHighlight?(link.url) ?? true,
                              deadline: longPressed == nil ? nil : touch.startTimestamp + configuration.longPressDuration)
        press.setHighlighted(true)
        return press
    }

    func moveLinkPress(_ a: ActiveTouch, _ press: LinkPress) {
        if a.touch.distanceFromStart > configuration.tapSlop { press.deadline = nil }
        guard !press.didLongPress else { return }
        press.setHighlighted(isOnLink(a.touch, press))
    }

    func endLinkPress(_ a: ActiveTouch, _ press: LinkPress) {
        press.setHighlighted(false)
        press.deadline = nil
        guard !press.didLongPress, isOnLink(a.touch, press) else { return }
        press.node.linkTapped?(press.link.url)
    }

    func cancelLinkPress(_ press: LinkPress) {
        press.setHighlighted(false)
        press.deadline = nil
    }

    func linkDeadlinePassed(_ a: ActiveTouch, _ press: LinkPress) {
        press.deadline = nil
        guard isOnLink(a.touch, press), let longPressed = press.node.linkLongPressed else { return }
        press.didLongPress = true
        press.setHighlighted(false)
        longPressed(press.link.url)
    }

    private func isOnLink(_ touch: Touch, _ press: LinkPress) -> Bool {
        guard press.node.isDescendant(of: rootNode) else { return false }
        return press.node.textLayout.link(at: touch.location(in: press.node))?.range == press.link.range
    }
}
