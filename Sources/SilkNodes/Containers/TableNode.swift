/// A vertical list of full-width rows (Texture's ASTableNode): a `CollectionNode` with
/// `FlowLayout.list`.
open class TableNode: CollectionNode, @unchecked Sendable {
    public init() {
        super.init(layout: FlowLayout.list)
        name = "table"
    }
}
