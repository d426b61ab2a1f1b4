import Foundation
import SilkGeometry

/// Horizontal pages the size of the node that snap (Texture's ASPagerNode): a `CollectionNode`
/// with `PagerLayout` and paging. A drag or fling comes to rest on the nearest page in the
/// direction it went (at most one page per swipe); ←/→ and the wheel turn one page. It shows no
/// scroll indicator (`showsScrollIndicator` is false): a pager shows its place with page dots
/// if at all.
open class PagerNode: CollectionNode, @unchecked Sendable {
    /// Creates an empty pager: a `PagerLayout` collection with paging and elastic edges. Set its
    /// `dataSource` (one item per page). Any thread.
    public init() {
        super.init(layout: PagerLayout())
        name = "pager"
        isPagingEnabled = true
        edgeBehavior = .elastic
        showsScrollIndicator = false
    }

    /// The page nearest the current offset. Any thread.
    public var currentPageIndex: Int {
        let w = bounds.width
        guard w > 0 else { return 0 }
        return max(0, Int((contentOffset.x / w).rounded()))
    }

    /// Pages in the model: the items of every section. Main thread.
    public var numberOfPages: Int { (0..<numberOfSections).reduce(0) { $0 + numberOfItems(inSection: $1) } }

    /// Scrolls to page `index` (clamped). Main thread.
    public func scrollToPage(at index: Int, animated: Bool) {
        let n = numberOfPages
        guard n > 0 else { return }
        let i = min(max(0, index), n - 1)
        setContentOffset(Point(x: Double(i) * bounds.width, y: 0), animated: animated)
    }

    /// ←/→ animate to the neighbouring page.
    open override func keyDown(_ key: KeyInput) -> Bool {
        switch key.key {
        case .left: scrollToPage(at: currentPageIndex - 1, animated: true); return true
        case .right: scrollToPage(at: currentPageIndex + 1, animated: true); return true
        case .home: scrollToPage(at: 0, animated: true); return true
        case .end: scrollToPage(at: numberOfPages - 1, animated: true); return true
        default: return super.keyDown(key)
        }
    }
}
