import Foundation
import Testing
import SilkGeometry
import SilkLayout
import SilkRaster
import SilkRender
@testable import SilkNodes

extension PipelineTests {
    /// Nodes are freed once nothing uses them — after layout, display and removal from a window
    /// (found by `make test-asan`: a node's layout cache kept the node alive).
    @Suite(.serialized) struct NodeLifetimeTests {
        @Test func aRemovedNodeIsFreedAfterLayoutAndDisplay() {
            let root = DisplayNode()
            let h = Harness(root: root, size: Size(width: 60, height: 40))
            weak var weakNode: ColorNode?
            weak var weakInner: ColorNode?
            do {
                let node = ColorNode(.white, size: Size(width: 40, height: 30))
                let inner = ColorNode(Color(rgb: 0xff0000), size: Size(width: 10, height: 10))
                node.addSubnode(inner)
                node.layoutSpecBlock = { _, _ in InsetLayoutSpec(insets: EdgeInsets(all: 5), child: inner) }
                weakNode = node; weakInner = inner
                root.addSubnode(node)
                root.layoutSpecBlock = { _, _ in WrapperLayoutSpec(node) }
                #expect(h.iterate(until: { inner.layer?.contents != nil && node.layer?.contents != nil }))
                root.layoutSpecBlock = nil
                node.removeFromSupernode()
                h.iterate()
            }
            // Display jobs and the committer may hold the node a moment longer.
            let deadline = Date(timeIntervalSinceNow: 5)
            while (weakNode != nil || weakInner != nil) && Date() < deadline { h.iterate(); usleep(1000) }
            #expect(weakNode == nil)
            #expect(weakInner == nil)
        }
    }
}
