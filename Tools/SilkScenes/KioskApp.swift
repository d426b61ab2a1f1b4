import Foundation
import SilkGeometry
import SilkLayout
import SilkNodes
import SilkRaster

/// The kiosk as a multi-screen app (`silk demo kiosk`): the dashboard (`KioskNode`, unchanged,
/// so its screen matches `silk snapshot kiosk`) is the root of a navigation stack; Details
/// pushes the selected exhibit's screen with the default slide. That screen has a header
/// (◀ Back, the title, About) over three tabs — Exhibit (photo and description), Map (the
/// exhibits by hall) and Settings — and About presents a dialog over a dimmed backdrop. Back
/// by Escape or the Back key, the ◀ Back button, or a swipe from the left edge; a tap outside
/// the dialog or Escape closes it. Main thread (build the dashboard anywhere).
public final class KioskApp: @unchecked Sendable {
    /// The dashboard, the navigation stack's root screen.
    public let kiosk: KioskNode
    /// The stack: the dashboard, then an exhibit's screen.
    public let navigation: NavigationController
    /// The window's root controller (show it with `Window.setRootController`).
    public let root: RootController
    /// Called on the main thread when the app changes screen ("detail: TITLE", "home", "tab: …",
    /// "about"): logs and end-to-end tests.
    public var onScreenChange: ((String) -> Void)?

    /// The app over `kiosk`. Main thread.
    public init(kiosk: KioskNode) {
        self.kiosk = kiosk
        let home = KioskHomeController(node: kiosk)
        home.title = "home"
        navigation = NavigationController(root: home)
        root = RootController(content: navigation)
        home.app = self
        kiosk.onDetails = { [weak self] index in
            MainThreadBox.run { self?.showDetail(index) }
        }
    }

    /// Pushes exhibit `index`'s screen (main thread).
    public func showDetail(_ index: Int) {
        let entries = RainforestCatalog.entries
        let detail = KioskDetailController(entry: entries[index % entries.count], app: self)
        navigation.push(detail)
        onScreenChange?("detail: \(detail.title ?? "")")
    }

    /// Presents the About dialog (main thread).
    public func showAbout() {
        root.present(KioskAboutController(app: self), style: .dialog)
        onScreenChange?("about")
    }
}

/// Lets a node's `@Sendable` action call main-thread code (actions run on the main thread).
enum MainThreadBox {
    static func run(_ body: () -> Void) { body() }
}

/// The dashboard's controller: tells the app when it is back on screen.
final class KioskHomeController: NodeController, @unchecked Sendable {
    weak var app: KioskApp?
    override func didAppear(animated: Bool) {
        if animated { app?.onScreenChange?("home") }
    }
}

/// An exhibit's screen: a header over the three tabs.
final class KioskDetailController: NodeController, @unchecked Sendable {
    let tabs: TabController
    let back = ButtonNode(), about = ButtonNode()
    let titleNode = TextNode()

    init(entry: RainforestEntry, app: KioskApp) {
        let exhibit = NodeController(node: KioskDetailController.exhibitNode(entry))
        exhibit.title = "Exhibit"
        let map = NodeController(node: KioskDetailController.mapNode(highlighting: entry.title))
        map.title = "Map"
        let settings = NodeController(node: KioskDetailController.settingsNode())
        settings.title = "Settings"
        tabs = TabController(tabs: [exhibit, map, settings])
        tabs.selectedTitleColor = KioskNode.headerColor
        let screen = DisplayNode()
        screen.name = "exhibit screen"
        screen.backgroundColor = KioskNode.backgroundColor
        screen.isOpaque = true
        super.init(node: screen)
        title = entry.title
        addChild(tabs)

        let header = DisplayNode()
        header.backgroundColor = KioskNode.headerColor
        header.isOpaque = true
        header.style.height = .points(72)
        titleNode.attributedText = AttributedText(entry.title, attributes: TextAttributes(fontSize: 30, fontWeight: .bold, color: .white))
        titleNode.maximumNumberOfLines = 1
        titleNode.style.flexGrow = 1
        titleNode.style.flexShrink = 1
        for (b, label) in [(back, "◀ Back"), (about, "About")] {
            b.setTitle(label, attributes: TextAttributes(fontSize: 20, fontWeight: .bold, color: .white))
            b.setBackgroundColor(Color(rgb: 0x2d6a4f), for: .normal)
            b.setBackgroundColor(Color(rgb: 0x081c15), for: .highlighted)
            b.cornerRadius = 10
            b.contentEdgeInsets = EdgeInsets(top: 8, left: 16, bottom: 8, right: 16)
            b.style.width = .points(130)
            b.style.height = .points(52)
        }
        back.addTarget(for: .primaryActionTriggered) { [weak self] _, _ in
            MainThreadBox.run { _ = self?.navigationController?.pop() }
        }
        about.addTarget(for: .primaryActionTriggered) { [weak app] _, _ in
            MainThreadBox.run { app?.showAbout() }
        }
        for n in [back, titleNode, about] as [DisplayNode] { header.addSubnode(n) }
        header.layoutSpecBlock = { node, _ in
            InsetLayoutSpec(insets: EdgeInsets(top: 10, left: 16, bottom: 10, right: 16),
                            child: StackLayoutSpec(direction: .horizontal, spacing: 20, alignItems: .center, children: node.subnodes))
        }
        tabs.node.style.flexGrow = 1
        tabs.node.style.flexShrink = 1
        tabs.node.style.flexBasis = .points(0)
        screen.addSubnode(header)
        screen.addSubnode(tabs.node)
        screen.layoutSpecBlock = { node, _ in
            StackLayoutSpec(direction: .vertical, alignItems: .stretch, children: node.subnodes)
        }
    }

    override var visibleChildren: [NodeController] { [tabs] }

    static func exhibitNode(_ entry: RainforestEntry) -> DisplayNode {
        let node = DisplayNode()
        let photo = ImageNode()
        photo.imagePath = entry.photoPath
        photo.contentMode = .aspectFill
        photo.clipsToBounds = true
        photo.cornerRadius = 12
        photo.placeholderEnabled = true
        photo.placeholderColor = Color(white: 0.8)
        photo.style.flexGrow = 1
        photo.style.flexBasis = .points(0)
        let text = TextNode()
        text.attributedText = AttributedText(entry.description, attributes: TextAttributes(fontSize: 24, color: Color(rgb: 0x1b4332), lineHeightMultiple: 1.2))
        text.style.flexGrow = 1
        text.style.flexShrink = 1
        text.style.flexBasis = .points(0)
        node.addSubnode(photo)
        node.addSubnode(text)
        node.layoutSpecBlock = { n, _ in
            InsetLayoutSpec(insets: EdgeInsets(top: 24, left: 24, bottom: 24, right: 24),
                            child: StackLayoutSpec(direction: .horizontal, spacing: 32, alignItems: .stretch, children: n.subnodes))
        }
        return node
    }

    static func mapNode(highlighting title: String) -> DisplayNode {
        let entries = RainforestCatalog.entries
        let items = entries.enumerated().map { i, e in
            "Hall \(["A", "B", "C", "D"][i % 4]) · \(e.title)\(e.title == title ? "   ← you are looking at this" : "")"
        }
        return KioskListNode(items: items)
    }

    static func settingsNode() -> DisplayNode {
        let node = DisplayNode()
        let lines = ["Language: English", "Text size: standard", "Screen saver: after 5 minutes", "Sound: off"]
        for line in lines {
            let t = TextNode()
            t.attributedText = AttributedText(line, attributes: TextAttributes(fontSize: 24, color: Color(rgb: 0x1b4332)))
            node.addSubnode(t)
        }
        node.layoutSpecBlock = { n, _ in
            InsetLayoutSpec(insets: EdgeInsets(top: 32, left: 32, bottom: 32, right: 32),
                            child: StackLayoutSpec(direction: .vertical, spacing: 20, children: n.subnodes))
        }
        return node
    }
}

/// The About dialog: a few lines and a Close button.
final class KioskAboutController: NodeController, @unchecked Sendable {
    init(app: KioskApp) {
        let box = DisplayNode()
        box.name = "about"
        box.backgroundColor = .white
        box.cornerRadius = 16
        box.style.width = .points(520)
        let title = TextNode(), body = TextNode()
        title.attributedText = AttributedText("About this kiosk", attributes: TextAttributes(fontSize: 28, fontWeight: .bold, color: KioskNode.headerColor))
        body.attributedText = AttributedText("Silk Botanical Garden guide. Built with Silk: nodes drawn off the main thread, shown on Wayland, the framebuffer or headless.",
                                             attributes: TextAttributes(fontSize: 20, color: Color(rgb: 0x1b4332)))
        let close = ButtonNode()
        close.setTitle("Close", attributes: TextAttributes(fontSize: 20, fontWeight: .bold, color: .white))
        close.setBackgroundColor(Color(rgb: 0x2d6a4f), for: .normal)
        close.setBackgroundColor(Color(rgb: 0x081c15), for: .highlighted)
        close.cornerRadius = 10
        close.contentEdgeInsets = EdgeInsets(top: 10, left: 24, bottom: 10, right: 24)
        for n in [title, body, close] as [DisplayNode] { box.addSubnode(n) }
        box.layoutSpecBlock = { n, _ in
            InsetLayoutSpec(insets: EdgeInsets(top: 28, left: 28, bottom: 28, right: 28),
                            child: StackLayoutSpec(direction: .vertical, spacing: 18, alignItems: .start, children: n.subnodes))
        }
        super.init(node: box)
        self.title = "about"
        close.addTarget(for: .primaryActionTriggered) { [weak self] _, _ in
            MainThreadBox.run { _ = self?.dismiss() }
        }
        _ = app
    }
}
