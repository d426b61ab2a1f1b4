import Foundation
import Silk
import SilkGeometry
import SilkLayout
import SilkNodes
import SilkRaster
import SilkScenes
import SilkSystem

/// `silk demo controls`: the controls gallery, operable by touch, pointer and keyboard (Tab
/// moves the focus), with a switch that changes the theme at run time and a line chart that
/// takes ten new samples a second once the gallery is displayed. Every change prints a
/// line (`controls: switch 1 on`), for end-to-end tests and for a person trying it on a panel.
final class ControlsDemoNode: DisplayNode, @unchecked Sendable {
    let themeSwitch = SwitchNode()
    let themeLabel = TextNode()
    let panel = ControlsPanelNode(theme: .light)

    override init() {
        super.init()
        name = "controls-demo"
        themeLabel.attributedText = AttributedText("Dark theme", attributes: Theme.light.bodyText())
        panel.style.flexGrow = 1
        // Subnodes added by hand: a container that manages its subnodes would remove the toasts
        // (they are outside its layout spec).
        for n in [themeSwitch, themeLabel, panel] as [DisplayNode] { addSubnode(n) }
        themeSwitch.addTarget(for: .valueChanged) { [weak self] c, _ in
            guard let self, let s = c as? SwitchNode else { return }
            let t: Theme = s.isOn ? .dark : .light
            self.theme = t
            self.panel.theme = t
            self.backgroundColor = t.colors.background
            self.themeLabel.attributedText = AttributedText("Dark theme", attributes: t.bodyText())
            print("controls: theme \(t.name)"); fflush(nil)
        }
        backgroundColor = Theme.light.colors.background
        for (kind, list) in [("switch", panel.switches as [ControlNode]), ("checkbox", panel.checkBoxes), ("slider", panel.sliders),
                             ("stepper", panel.steppers), ("radio", [panel.radioGroup]), ("segmented", [panel.segmented]),
                             ("dropdown", [panel.dropdown])] {
            for (i, c) in list.enumerated() {
                c.addTarget(for: .valueChanged) { [weak self] c, _ in
                    print("controls: \(kind) \(i) \(ControlsDemoNode.describe(c))"); fflush(nil)
                    // Switches and checkboxes confirm with a toast.
                    if let self, kind == "switch" || kind == "checkbox" {
                        ToastNode.show("\(c.accessibilityLabel ?? kind): \(ControlsDemoNode.describe(c))", in: self)
                    }
                }
            }
        }
    }

    static func describe(_ c: ControlNode) -> String {
        switch c {
        case let s as SwitchNode: s.isOn ? "on" : "off"
        case let b as CheckBoxNode: b.isChecked ? "checked" : "unchecked"
        case let s as SliderNode: String(format: "%.2f", s.value)
        case let s as StepperNode: s.formattedValue
        case let r as ChoiceControlNode: r.selectedIndex.map { r.options[$0] } ?? "none"
        default: "changed"
        }
    }

    override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        let bar = InsetLayoutSpec(insets: EdgeInsets(top: 12, left: 24, bottom: 0, right: 24),
                                  child: StackLayoutSpec(direction: .horizontal, spacing: 12, alignItems: .center,
                                                         children: [themeSwitch, themeLabel]))
        return StackLayoutSpec(direction: .vertical, children: [bar, panel])
    }
}

@MainActor
func startControlsDemo(window: Window) -> (Double) -> Void {
    let demo = ControlsDemoNode()
    // A root controller, so the dropdown's list can be presented (a popover under it, or a sheet by touch).
    let screen = NodeController(node: demo)
    demo.panel.dropdown.presentingController = screen
    window.setRootController(RootController(content: screen))
    let live = Locked(false)
    window.whenDisplayed {
        // Where each control is (window points), for touch tests on a panel.
        // Appended group by group: Swift 6.0 gives up type-checking one chain of `+` (trixie).
        func numbered(_ prefix: String, _ nodes: [DisplayNode]) -> [(String, DisplayNode)] {
            nodes.enumerated().map { ("\(prefix)\($0.offset)", $0.element) }
        }
        var named: [(String, DisplayNode)] = [("theme", demo.themeSwitch)]
        named += numbered("switch", demo.panel.switches)
        named += numbered("checkbox", demo.panel.checkBoxes)
        named += [("segmented", demo.panel.segmented), ("radio", demo.panel.radioGroup), ("dropdown", demo.panel.dropdown)]
        named += numbered("slider", demo.panel.sliders)
        named += numbered("stepper", demo.panel.steppers)
        let map = named.map { name, n -> String in
            let b = n.bounds
            let c = n.convert(Point(x: b.midX, y: b.midY), to: nil)
            return "\(name)=\(Int(c.x.rounded())),\(Int(c.y.rounded()))"
        }
        print("controls: displayed; \(map.joined(separator: " "))"); fflush(nil)
        live.withLock { $0 = true }
    }
    // The line chart goes live once the gallery is displayed (a chart redrawn for ever would
    // keep "displayed" from ever holding): ten samples a second, from the frame clock.
    var start: Double?, next = Double(ControlsPanelNode.chartHistory)
    return { t in
        guard live.withLock({ $0 }) else { return }
        let t0 = start ?? t
        start = t0
        let due = Double(ControlsPanelNode.chartHistory) + ((t - t0) * 10).rounded(.down)
        while next <= due { demo.panel.appendChartSample(next); next += 1 }
    }
}
