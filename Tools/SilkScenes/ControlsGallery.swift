import Foundation
import SilkGeometry
import SilkLayout
import SilkNodes
import SilkRaster

/// The controls gallery (`silk snapshot controls`, `silk demo controls`, `silk bench --scene
/// controls`): every standard control in its states, on a panel per theme.
public final class ControlsPanelNode: DisplayNode, ThemeObserver, @unchecked Sendable {
    public let title = TextNode()
    public let themeIcon = ImageNode()
    /// Off, on, on and pressed, disabled off, disabled on.
    public let switches: [SwitchNode]
    public let checkBoxes: [CheckBoxNode]
    public let radioGroup = RadioGroupNode(options: ["Small", "Medium", "Large"], selectedIndex: 1)
    public let segmented = SegmentedControlNode(options: ["Day", "Week", "Month"], selectedIndex: 0)
    public let disabledSegmented = SegmentedControlNode(options: ["On", "Off"], selectedIndex: 1)
    /// Opens its list from `dropdown.presentingController` (the demo sets it).
    public let dropdown = DropdownNode(options: ["Wi-Fi", "Ethernet", "Cellular"], selectedIndex: 1)
    /// Continuous, stepped, disabled.
    public let sliders: [SliderNode]
    public let progress = ProgressBarNode(progress: 0.65)
    public let indeterminate = ProgressBarNode(isIndeterminate: true)
    public let activity = ActivityIndicatorNode()
    /// Mid-range, at its maximum, disabled.
    public let steppers: [StepperNode]
    let captions: [TextNode]
    let icons: [ImageNode]
    /// Two series (``ControlsPanelNode/sampleValue(series:at:)``), in the theme's colours; the
    /// demo and the bench append to it live.
    public let lineChart = LineChartNode()
    /// A week of values, in the theme's accent.
    public let barChart = BarChartNode()
    /// The Lottie spinner (`assets/lottie/spinner.json`), playing while on screen.
    public let lottie = ImageNode()
    /// Settings in groups under sticky headers, with the scroll indicator (SettingsListGallery.swift).
    public let settingsList = SettingsListSection()
    /// How many values the line chart shows (its history; older ones scroll out).
    public static let chartHistory = 90
    /// A confirm dialog's card, shown in place (the demo presents it as a modal).
    public let alert = AlertController(title: "Delete 3 photos?", message: "They are removed from every album.",
                                       actions: [AlertAction("Cancel", style: .cancel), AlertAction("Delete", style: .destructive)])

    static let captionTexts = ["Switches", "Checkboxes", "Radio group · segmented control · dropdown", "Sliders", "Progress · activity · stepper",
                               "Alert dialog", "Charts · animation"]

    /// A panel showing `theme` (set on the panel, so the controls inherit it).
    public init(theme: Theme) {
        switches = [SwitchNode(), SwitchNode(isOn: true), SwitchNode(isOn: true), SwitchNode(), SwitchNode(isOn: true)]
        switches[2].isHighlighted = true
        switches[3].isEnabled = false
        switches[4].isEnabled = false
        checkBoxes = [CheckBoxNode(title: "Wi-Fi"), CheckBoxNode(title: "Sound", isChecked: true), CheckBoxNode(title: "All"),
                      CheckBoxNode(title: "Locked", isChecked: true)]
        checkBoxes[2].isMixed = true
        checkBoxes[3].isEnabled = false
        sliders = [SliderNode(value: 0.4), SliderNode(value: 6, minimum: 0, maximum: 10, step: 1), SliderNode(value: 0.7)]
        sliders[2].isEnabled = false
        steppers = [StepperNode(value: 3, minimum: 0, maximum: 10), StepperNode(value: 10, minimum: 0, maximum: 10),
                    StepperNode(value: 5, minimum: 0, maximum: 10)]
        steppers[2].isEnabled = false
        for (s, label) in zip(switches, ["Airplane mode", "Wi-Fi", "Bluetooth", "Location", "Roaming"]) { s.accessibilityLabel = label }
        for (s, label) in zip(sliders, ["Volume", "Alert level", "Signal"]) { s.accessibilityLabel = label }
        for s in steppers { s.accessibilityLabel = "Copies" }
        radioGroup.accessibilityLabel = "Size"
        segmented.accessibilityLabel = "Period"
        disabledSegmented.accessibilityLabel = "Sync"
        dropdown.accessibilityLabel = "Network"
        progress.accessibilityLabel = "Download"
        indeterminate.accessibilityLabel = "Syncing"
        radioGroup.disabledOptions = [2]
        disabledSegmented.isEnabled = false
        captions = Self.captionTexts.map { _ in TextNode() }
        icons = ["wifi", "volume", "bell"].map { name in
            let n = ImageNode()
            n.imagePath = Assets.directory?.appendingPathComponent("icons/\(name).svg").path
            n.contentMode = .aspectFit
            n.style.width = .points(24); n.style.height = .points(24)
            return n
        }
        super.init()
        name = "controls-panel"
        themeIcon.contentMode = .aspectFit
        themeIcon.style.width = .points(28); themeIcon.style.height = .points(28)
        for s in sliders { s.style.flexGrow = 1; s.style.flexShrink = 1 }
        progress.style.flexGrow = 1; progress.style.flexShrink = 1
        indeterminate.style.flexGrow = 1; indeterminate.style.flexShrink = 1
        let samples = (0..<Self.chartHistory).map { Double($0) }
        lineChart.series = ["CPU", "Memory"].enumerated().map { i, name in
            LineChartNode.Series(name: name, color: .black, values: samples.map { Self.sampleValue(series: i, at: $0) },
                                 capacity: Self.chartHistory)
        }
        lineChart.valueRange = 0...100
        lineChart.accessibilityLabel = "Load"
        lineChart.style.height = .points(120); lineChart.style.flexGrow = 1; lineChart.style.flexShrink = 1
        barChart.bars = zip(["M", "T", "W", "T", "F", "S", "S"], [42.0, 55, 38, 70, 64, 25, 18]).map { BarChartNode.Bar(label: $0, value: $1) }
        barChart.accessibilityLabel = "Visitors"
        barChart.style.width = .points(150); barChart.style.height = .points(120)
        lottie.imagePath = Assets.directory?.appendingPathComponent("lottie/spinner.json").path
        lottie.contentMode = .aspectFit
        lottie.style.width = .points(48); lottie.style.height = .points(48)
        automaticallyManagesSubnodes = true
        self.theme = theme
        applyTheme()
    }

    /// Recolours the panel's own texts and background for the new theme.
    public func effectiveThemeDidChange() { applyTheme() }

    private func applyTheme() {
        let t = effectiveTheme
        backgroundColor = t.colors.background
        title.attributedText = AttributedText("\(t.name.prefix(1).uppercased() + t.name.dropFirst()) theme", attributes: t.titleText())
        let dark = t.colors.background.red + t.colors.background.green + t.colors.background.blue < 1.5
        themeIcon.imagePath = Assets.directory?.appendingPathComponent(dark ? "icons/moon.svg" : "icons/sun.svg").path
        for (node, text) in zip(captions, Self.captionTexts) {
            node.attributedText = AttributedText(text.uppercased(), attributes: t.captionText(weight: .semibold))
        }
        // The charts' colours come from the theme (each setter redraws only if a colour changed).
        let chartStyle = ChartStyle(theme: t)
        lineChart.chartStyle = chartStyle
        lineChart.setSeriesColors(ChartStyle.seriesColors(for: t))
        barChart.chartStyle = chartStyle
        barChart.barColor = t.colors.accent
    }

    /// The line chart's sample signal: series 0 a slow wave around 55, series 1 a faster one
    /// around 30, at sample `x` (deterministic, so the snapshot is too).
    public static func sampleValue(series: Int, at x: Double) -> Double {
        series == 0 ? 55 + 25 * sin(x * 0.11) + 8 * sin(x * 0.47) : 30 + 12 * sin(x * 0.23 + 1) + 6 * cos(x * 0.9)
    }

    /// Appends the next sample (`x`, counting on from ``chartHistory``) to both series: what the
    /// demo and the bench do every frame. Any thread.
    public func appendChartSample(_ x: Double) {
        lineChart.append([Self.sampleValue(series: 0, at: x), Self.sampleValue(series: 1, at: x)])
    }

    public override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        func row(_ children: [any LayoutElement], spacing: Double = 16) -> any LayoutElement {
            StackLayoutSpec(direction: .horizontal, spacing: .points(spacing), alignItems: .center, children: children)
        }
        func section(_ i: Int, _ content: any LayoutElement) -> any LayoutElement {
            StackLayoutSpec(direction: .vertical, spacing: .points(6), children: [captions[i], content])
        }
        let header = row([themeIcon, title], spacing: 10)
        let choices = row([radioGroup, StackLayoutSpec(direction: .vertical, spacing: .points(12), alignItems: .start,
                                                        children: [segmented, row([disabledSegmented, dropdown], spacing: 12)])], spacing: 28)
        let sliderColumn = StackLayoutSpec(direction: .vertical, spacing: .points(4), children: [
            row([icons[1], sliders[0]], spacing: 10), row([icons[2], sliders[1]], spacing: 10),
            row([icons[0], sliders[2]], spacing: 10)])
        let progressColumn = StackLayoutSpec(direction: .vertical, spacing: .points(14), children: [
            row([progress, activity]), indeterminate, row(steppers.map { $0 as any LayoutElement }, spacing: 10)])
        var sections: [any LayoutElement] = [
            header,
            section(0, row(switches.map { $0 as any LayoutElement })),
            section(1, row(checkBoxes.map { $0 as any LayoutElement }, spacing: 18)),
            section(2, choices),
            section(3, sliderColumn),
            section(4, progressColumn),
            section(5, row([alert.alertNode])),
        ]
        // Narrow (the two-panel gallery): the charts in a row at the foot. Wide (the demo's one
        // panel): in a column on the right, so they are on screen in a 1024×768 window.
        let wide = constrainedSize.max.width.isFinite && constrainedSize.max.width >= 900
        if !wide {
            sections.append(section(6, row([lineChart, barChart, lottie], spacing: 12)))
            sections.append(settingsList)
            return InsetLayoutSpec(insets: EdgeInsets(top: 20, left: 24, bottom: 20, right: 24),
                                   child: StackLayoutSpec(direction: .vertical, spacing: .points(14), children: sections))
        }
        var grow = Style(); grow.flexGrow = 1; grow.flexShrink = 1
        let left = StackLayoutSpec(direction: .vertical, spacing: .points(14), style: grow, children: sections)
        let right = section(6, StackLayoutSpec(direction: .vertical, spacing: .points(12), alignItems: .stretch,
                                               children: [lineChart, row([barChart, lottie], spacing: 12), settingsList]))
        var fixed = Style(); fixed.width = .points(380)
        let rightColumn = InsetLayoutSpec(insets: EdgeInsets(top: 40, left: 0, bottom: 0, right: 0), style: fixed, child: right)
        return InsetLayoutSpec(insets: EdgeInsets(top: 20, left: 24, bottom: 20, right: 24),
                               child: StackLayoutSpec(direction: .horizontal, spacing: .points(32), alignItems: .start,
                                                      children: [left, rightColumn]))
    }

    /// Every control of the panel that takes focus, in the gallery's order.
    public var focusableControls: [ControlNode] {
        switches + checkBoxes + [radioGroup, segmented, dropdown] + sliders + steppers
    }
}

/// The gallery: one panel per theme, side by side.
public final class ControlsGalleryNode: DisplayNode, @unchecked Sendable {
    public let panels: [ControlsPanelNode]

    public init(themes: [Theme] = [.light, .dark]) {
        panels = themes.map { ControlsPanelNode(theme: $0) }
        super.init()
        name = "controls-gallery"
        for p in panels { p.style.flexGrow = 1; p.style.flexBasis = .points(0) }
        automaticallyManagesSubnodes = true
    }

    public override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        StackLayoutSpec(direction: .horizontal, alignItems: .stretch, children: panels.map { $0 as any LayoutElement })
    }
}

/// `silk snapshot controls`: the gallery in both themes, the segmented control of each panel
/// focused (its ring in the theme's colour), and the first panel's dropdown open — its list a
/// popover anchored under it, presented by a `RootController` around the gallery as the demo's
/// pointer or keyboard would open it.
public enum ControlsScene {
    public static let defaultSize = Size(width: 960, height: 1300)

    public static func render(size: Size, scale: Double, themes: [Theme] = [.light, .dark]) throws -> Bitmap {
        let gallery = ControlsGalleryNode(themes: themes)
        let dispatchers = gallery.panels.map { InputDispatcher(rootNode: $0) }
        let content = NodeController(node: gallery)
        let root = RootController(content: content)
        root.defaultTransition = NoTransition()   // no main loop here to end a fade
        root.beginAppearanceTransition(true, animated: false)
        root.endAppearanceTransition(animated: false)
        return try NodeSnapshot.render(root.node, size: size, scale: scale, afterSetUp: {
            for (d, p) in zip(dispatchers, gallery.panels) { d.focus(p.segmented) }
        }, afterLayout: {
            guard let dropdown = gallery.panels.first?.dropdown else { return }
            dropdown.presentingController = content
            dropdown.performPrimaryAction()
        })
    }
}
