import Foundation
import SilkGeometry
import SilkRaster

/// How the standard controls look: colours, fonts, metrics and corner radii, in one value
/// (LVGL's theme, Qt Quick Controls' palette and font, Slint's std-widgets style).
///
/// Two themes are built in, `light` and `dark`; an app derives its own by changing fields of a
/// copy (`Theme.dark.with { $0.colors.accent = Color(rgb: 0xE53E3E) }`). A theme is set on a node
/// (usually the window's root) with `DisplayNode.theme` and inherited by its subtree unless a
/// node sets its own; see `Theming.swift`. A value: build and pass it on any thread.
public struct Theme: Hashable, Sendable {
    /// The palette. Colours are sRGB; controls blend them with alpha where they need a tint.
    public struct Colors: Hashable, Sendable {
        /// The brand colour: a switch that is on, a checked box, the selected segment, a slider's
        /// filled part, a progress bar.
        public var accent: Color
        /// Text and marks drawn on `accent` (a checkmark, a selected segment's title).
        public var onAccent: Color
        /// The window's background, behind everything.
        public var background: Color
        /// Cards, dialogs, popovers, an unselected segment, an empty checkbox.
        public var surface: Color
        /// A switch's and a slider's thumb.
        public var thumb: Color
        /// An empty track: a switch that is off, a slider's unfilled part, a progress bar's rest.
        public var track: Color
        /// Outlines of boxes, radio circles and segmented controls.
        public var border: Color
        /// Body text and labels.
        public var text: Color
        /// Less important text (section headers, hints, a value beside a label).
        public var secondaryText: Color
        /// The tint laid over a control while it is pressed (highlighted).
        public var pressedOverlay: Color
        /// What a disabled control's colours fade towards.
        public var disabled: Color
        /// The keyboard focus ring.
        public var focusRing: Color
        /// Destructive actions (a dialog's "Delete").
        public var danger: Color
        /// Dims what lies behind a dialog or a bottom sheet.
        public var scrim: Color

        /// A palette with every colour given.
        public init(accent: Color, onAccent: Color, background: Color, surface: Color, thumb: Color, track: Color, border: Color,
                    text: Color, secondaryText: Color, pressedOverlay: Color, disabled: Color, focusRing: Color,
                    danger: Color, scrim: Color) {
            self.accent = accent; self.onAccent = onAccent; self.background = background; self.surface = surface
            self.thumb = thumb
            self.track = track; self.border = border; self.text = text; self.secondaryText = secondaryText
            self.pressedOverlay = pressedOverlay; self.disabled = disabled; self.focusRing = focusRing
            self.danger = danger; self.scrim = scrim
        }
    }

    /// The type used by controls.
    public struct Fonts: Hashable, Sendable {
        /// A fontconfig family name (default DejaVu Sans, Silk's built-in fallback).
        public var family: String
        /// Labels, segment titles, list rows (points).
        public var bodySize: Double
        /// Small text: section headers, captions, toasts (points).
        public var captionSize: Double
        /// Dialog titles (points).
        public var titleSize: Double
        /// The weight of titles and of a selected segment.
        public var emphasisWeight: FontWeight

        /// Fonts with every field given.
        public init(family: String = TextAttributes.defaultFontFamily, bodySize: Double = 16, captionSize: Double = 13,
                    titleSize: Double = 19, emphasisWeight: FontWeight = .semibold) {
            self.family = family; self.bodySize = bodySize; self.captionSize = captionSize
            self.titleSize = titleSize; self.emphasisWeight = emphasisWeight
        }
    }

    /// Sizes of the controls' parts, in points. Touch targets stay at least `controlHeight` tall.
    public struct Metrics: Hashable, Sendable {
        /// The height of a one-line control: a segmented control, a stepper, a slider's touch area.
        public var controlHeight: Double
        /// A switch's track.
        public var switchSize: Size
        /// A checkbox's box and a radio button's circle.
        public var markSize: Double
        /// A slider's thumb.
        public var thumbDiameter: Double
        /// A slider's track and a progress bar.
        public var trackThickness: Double
        /// An activity indicator's diameter.
        public var activityIndicatorSize: Double
        /// Between a mark and its label, between radio rows.
        public var spacing: Double
        /// Inside segments and buttons, left and right.
        public var padding: Double
        /// The width of outlines (boxes, radio circles, segment borders).
        public var borderWidth: Double

        /// Metrics with every field given.
        public init(controlHeight: Double = 40, switchSize: Size = Size(width: 52, height: 32), markSize: Double = 22,
                    thumbDiameter: Double = 24, trackThickness: Double = 6, activityIndicatorSize: Double = 32,
                    spacing: Double = 10, padding: Double = 14, borderWidth: Double = 2) {
            self.controlHeight = controlHeight; self.switchSize = switchSize; self.markSize = markSize
            self.thumbDiameter = thumbDiameter; self.trackThickness = trackThickness
            self.activityIndicatorSize = activityIndicatorSize; self.spacing = spacing; self.padding = padding
            self.borderWidth = borderWidth
        }
    }

    /// Corner radii, in points.
    public struct CornerRadii: Hashable, Sendable {
        /// Checkboxes and small marks.
        public var small: Double
        /// Segmented controls, steppers, dropdowns, buttons.
        public var control: Double
        /// Dialogs, sheets, cards.
        public var large: Double

        /// Radii with every field given.
        public init(small: Double = 5, control: Double = 8, large: Double = 16) {
            self.small = small; self.control = control; self.large = large
        }
    }

    /// A name for logs and the gallery ("light", "dark", or an app's own).
    public var name: String
    /// The palette.
    public var colors: Colors
    /// The type.
    public var fonts: Fonts
    /// The sizes.
    public var metrics: Metrics
    /// The corner radii.
    public var cornerRadii: CornerRadii
    /// How much of `colors.disabled` a disabled control's colours are mixed with (0…1).
    public var disabledFade: Double

    /// A theme with every part given.
    public init(name: String, colors: Colors, fonts: Fonts = Fonts(), metrics: Metrics = Metrics(),
                cornerRadii: CornerRadii = CornerRadii(), disabledFade: Double = 0.6) {
        self.name = name; self.colors = colors; self.fonts = fonts; self.metrics = metrics
        self.cornerRadii = cornerRadii; self.disabledFade = disabledFade
    }

    /// A copy changed by `body`: how an app derives its own theme from a built-in one.
    public func with(_ body: (inout Theme) -> Void) -> Theme {
        var copy = self
        body(&copy)
        return copy
    }

    /// Dark text on light grey and white surfaces, a blue accent. The default of every node.
    public static let light = Theme(name: "light", colors: Colors(
        accent: Color(rgb: 0x2563EB), onAccent: .white, background: Color(rgb: 0xF3F4F6), surface: .white,
        thumb: .white, track: Color(rgb: 0xD1D5DB), border: Color(rgb: 0x9CA3AF), text: Color(rgb: 0x111827),
        secondaryText: Color(rgb: 0x6B7280), pressedOverlay: Color(white: 0, alpha: 0.12), disabled: Color(rgb: 0xE5E7EB),
        focusRing: Color(rgb: 0xF59E0B), danger: Color(rgb: 0xDC2626), scrim: Color(white: 0, alpha: 0.4)))

    /// Light text on near-black surfaces, a lighter blue accent.
    public static let dark = Theme(name: "dark", colors: Colors(
        accent: Color(rgb: 0x60A5FA), onAccent: Color(rgb: 0x0B1220), background: Color(rgb: 0x111827),
        surface: Color(rgb: 0x1F2937), thumb: Color(rgb: 0xE5E7EB), track: Color(rgb: 0x4B5563), border: Color(rgb: 0x6B7280),
        text: Color(rgb: 0xF9FAFB), secondaryText: Color(rgb: 0x9CA3AF), pressedOverlay: Color(white: 1, alpha: 0.16),
        disabled: Color(rgb: 0x374151), focusRing: Color(rgb: 0xFBBF24), danger: Color(rgb: 0xF87171),
        scrim: Color(white: 0, alpha: 0.6)))

    /// `color` as a disabled control shows it: mixed towards `colors.disabled` by `disabledFade`.
    public func disabled(_ color: Color) -> Color {
        color.mixed(with: colors.disabled, min(1, max(0, disabledFade.isFinite ? disabledFade : 0.6)))
    }

    /// Body text attributes in `color` (default `colors.text`) and `weight`.
    public func bodyText(color: Color? = nil, weight: FontWeight = .regular) -> TextAttributes {
        TextAttributes(fontFamily: fonts.family, fontSize: Self.size(fonts.bodySize, 16), fontWeight: weight,
                       color: color ?? colors.text)
    }
    /// Caption attributes in `color` (default `colors.secondaryText`).
    public func captionText(color: Color? = nil, weight: FontWeight = .regular) -> TextAttributes {
        TextAttributes(fontFamily: fonts.family, fontSize: Self.size(fonts.captionSize, 13), fontWeight: weight,
                       color: color ?? colors.secondaryText)
    }
    /// Title attributes in `colors.text` and `fonts.emphasisWeight`.
    public func titleText() -> TextAttributes {
        TextAttributes(fontFamily: fonts.family, fontSize: Self.size(fonts.titleSize, 19), fontWeight: fonts.emphasisWeight,
                       color: colors.text)
    }

    /// A font size an app set to something absurd (0, negative, NaN, 10⁶) falls back or is capped.
    static func size(_ s: Double, _ fallback: Double) -> Double { s.isFinite && s > 0 ? min(s, 200) : fallback }
    /// A metric an app set to something absurd falls back to `fallback`, and is capped.
    static func metric(_ m: Double, _ fallback: Double) -> Double { m.isFinite && m > 0 ? min(m, 2000) : fallback }
}
