import Foundation
import SilkGeometry
import SilkLayout
import SilkNodes
import SilkRaster

/// The gallery's sectioned list: settings in groups, each under a sticky header (a `TableNode`
/// whose data source gives header nodes), with the scroll indicator. Rows and headers take the
/// list's theme; a theme change makes them anew (their identities name the theme).
public final class SettingsListNode: TableNode, CollectionDataSource, ThemeObserver, @unchecked Sendable {
    /// The groups shown: a header title and rows of (setting, value).
    public static let groups: [(title: String, rows: [(String, String)])] = [
        ("Network", [("Wi-Fi", "Home"), ("Ethernet", "Connected"), ("Bluetooth", "On"), ("Airplane mode", "Off")]),
        ("Display", [("Brightness", "70 %"), ("Dark theme", "Auto"), ("Text size", "Medium"), ("Screen timeout", "5 min"),
                     ("Rotation", "Locked")]),
        ("Sound", [("Volume", "40 %"), ("Alerts", "Chime"), ("Touch sounds", "On")]),
        ("Privacy", [("Location", "While in use"), ("Camera", "Ask"), ("Microphone", "Off"), ("Diagnostics", "Off")]),
        ("About", [("Model", "Kiosk 10\""), ("Software", "Silk 1.0"), ("Serial", "SK-2041-0007")]),
    ]
    /// Row and header heights, points.
    static let rowHeight = 44.0, headerHeight = 34.0

    /// Where the list opens: the second group's third row at the top, its header pinned over
    /// the rows (the snapshot's state); nil: at the top.
    private let initialRow: ItemPath?
    private var shownTheme: Theme?

    /// A list opening at `initialRow` (scrolled, the indicator flashed), or at the top.
    public init(initialRow: ItemPath? = ItemPath(item: 2, section: 1)) {
        self.initialRow = initialRow
        super.init()
        name = "settings-list"
        collectionLayout = FlowLayout(columns: 1, itemSpacing: 0, lineSpacing: 0,
                                      sectionInsets: EdgeInsets(top: 0, left: 0, bottom: 10, right: 0))
        cornerRadius = 10
        dataSource = self
        allowsSelection = false
        accessibilityLabel = "Settings"
        reloadData { [weak self] in
            guard let self, let row = self.initialRow else { return }
            self.scrollToItem(at: row, position: .start)
            // Part way into the row: the pinned header overlaps it.
            self.setContentOffset(Point(x: 0, y: self.contentOffset.y + 12))
            self.flashScrollIndicators()
        }
    }

    /// The inherited theme changed: rows and headers are made again in it.
    public func effectiveThemeDidChange() {
        let t = effectiveTheme
        backgroundColor = t.colors.surface
        guard shownTheme != nil, shownTheme != t else { return }
        reloadData()
    }

    public func numberOfSections(in collection: CollectionNode) -> Int { Self.groups.count }

    public func collection(_ collection: CollectionNode, numberOfItemsInSection section: Int) -> Int {
        Self.groups[section].rows.count
    }

    public func collection(_ collection: CollectionNode, identifierForItemAt path: ItemPath) -> AnyHashable? {
        "\(effectiveTheme.hashValue)/\(path.section)/\(path.item)"
    }

    public func collection(_ collection: CollectionNode, nodeBlockForItemAt path: ItemPath) -> CellNodeBlock {
        let theme = currentTheme()
        let (title, value) = Self.groups[path.section].rows[path.item]
        let last = path.item == Self.groups[path.section].rows.count - 1
        return { SettingsRowNode(title: title, value: value, separator: !last, theme: theme) }
    }

    public func collection(_ collection: CollectionNode, nodeBlockForHeaderInSection section: Int) -> CellNodeBlock? {
        let theme = currentTheme()
        let title = Self.groups[section].title
        return { SettingsHeaderNode(title: title, theme: theme) }
    }

    private func currentTheme() -> Theme {
        let t = effectiveTheme
        shownTheme = t
        if backgroundColor != t.colors.surface { backgroundColor = t.colors.surface }
        return t
    }
}

/// A group's title over its rows: caption type on the list's background, opaque so that the
/// rows scrolling under it while it is pinned do not show through.
final class SettingsHeaderNode: CellNode, @unchecked Sendable {
    let label = TextNode()

    init(title: String, theme: Theme) {
        super.init()
        label.attributedText = AttributedText(title.uppercased(), attributes: theme.captionText(weight: .semibold))
        accessibilityLabel = title
        backgroundColor = theme.colors.background
        style.height = .points(SettingsListNode.headerHeight)
        automaticallyManagesSubnodes = true
    }

    override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        InsetLayoutSpec(insets: EdgeInsets(top: 12, left: 14, bottom: 4, right: 14), child: label)
    }
}

/// One setting: its name on the left, its value on the right, a hairline under it.
final class SettingsRowNode: CellNode, @unchecked Sendable {
    let title = TextNode(), value = TextNode()
    let separator: DisplayNode?

    init(title: String, value: String, separator: Bool, theme: Theme) {
        self.separator = separator ? DisplayNode() : nil
        super.init()
        self.title.attributedText = AttributedText(title, attributes: theme.bodyText())
        self.value.attributedText = AttributedText(value, attributes: theme.bodyText(color: theme.colors.secondaryText))
        accessibilityLabel = "\(title): \(value)"
        backgroundColor = theme.colors.surface
        if let s = self.separator {
            s.backgroundColor = theme.colors.border
            s.style.height = .points(1)
        }
        style.height = .points(SettingsListNode.rowHeight)
        automaticallyManagesSubnodes = true
    }

    override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        var grow = Style(); grow.flexGrow = 1
        let line = StackLayoutSpec(direction: .horizontal, spacing: 12, justifyContent: .spaceBetween, alignItems: .center,
                                   style: grow, children: [title, value])
        let body = InsetLayoutSpec(insets: EdgeInsets(top: 0, left: 14, bottom: 0, right: 14), style: grow, child: line)
        guard let separator else { return body }
        let hairline = InsetLayoutSpec(insets: EdgeInsets(top: 0, left: 14, bottom: 0, right: 0), child: separator)
        return StackLayoutSpec(direction: .vertical, children: [body, hairline])
    }
}

/// The gallery panel's "Sectioned list" section: its caption over a `SettingsListNode`, themed
/// by the panel (kept apart from `ControlsPanelNode` so the panel only places it).
public final class SettingsListSection: DisplayNode, ThemeObserver, @unchecked Sendable {
    /// "SECTIONED LIST", in the panel's caption type.
    public let caption = TextNode()
    /// The list, opening scrolled into its second group.
    public let list = SettingsListNode()

    /// A section whose list is `listHeight` points tall.
    public init(listHeight: Double = 230) {
        super.init()
        name = "settings-list-section"
        list.style.height = .points(listHeight)
        automaticallyManagesSubnodes = true
        applyTheme()
    }

    /// Recolours the caption (the list follows the theme itself).
    public func effectiveThemeDidChange() { applyTheme() }
    /// The panel's theme applies once the section is in its tree (the panel set it before).
    public override func didEnterHierarchy() { applyTheme() }

    private func applyTheme() {
        caption.attributedText = AttributedText("SECTIONED LIST", attributes: effectiveTheme.captionText(weight: .semibold))
    }

    public override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        StackLayoutSpec(direction: .vertical, spacing: .points(6), children: [caption, list])
    }
}
