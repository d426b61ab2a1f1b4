/// A vertical list of full-width rows (Texture's ASTableNode): a `CollectionNode` with
/// `FlowLayout.list`.
open class TableNode: CollectionNode, @unchecked Sendable {
    /// Creates an empty table: one column as wide as the node, rows as tall as their cells, no
    /// spacing, scrolling vertically. Set its `dataSource` (one item per row). Any thread.
    public init() {
        super.init(layout: FlowLayout.list)
        name = "table"
    }
}
