import Silk

// Reads --backend, --screenshot FILE.png and --seconds N from the command line.
let app = Application()
let window: Window
do { window = try app.makeWindow(size: Size(width: 480, height: 320), background: Color(rgb: 0x1e293b)) }
catch { app.exit(failing: "\(error)") }  // one line and exit 2, not a crash

let greeting = TextNode()
greeting.attributedText = AttributedText("Hello, kiosk", attributes: TextAttributes(fontSize: 36, fontWeight: .bold, color: .white))

let button = ButtonNode()
button.setTitle("Tap me", attributes: TextAttributes(fontSize: 22, color: .white))
button.setBackgroundColor(Color(rgb: 0x2563eb))
button.cornerRadius = 8
button.contentEdgeInsets = EdgeInsets(top: 12, left: 24, bottom: 12, right: 24)

// Actions run on the main loop; nodes may be changed from any thread.
button.addTarget(for: .primaryActionTriggered) { _, _ in
    greeting.attributedText = AttributedText("Hello again!", attributes: TextAttributes(fontSize: 36, fontWeight: .bold, color: .white))
}

// The root lays its two children out in a centred column; it adds them as subnodes itself.
let root = DisplayNode()
root.automaticallyManagesSubnodes = true
root.layoutSpecBlock = { _, _ in
    CenterLayoutSpec(child: StackLayoutSpec(direction: .vertical, spacing: 24, alignItems: .center,
                                            children: [greeting, button]))
}
window.setRootNode(root)
app.run()
