/// An sRGB colour with straight (non-premultiplied) alpha, components in 0…1.
/// Rasterization works in premultiplied ARGB32; `premultipliedARGB32` converts.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// The red component, 0…1 in sRGB (gamma-encoded), not premultiplied.
    public var red: Double
    /// The green component, 0…1 in sRGB (gamma-encoded), not premultiplied.
    public var green: Double
    /// The blue component, 0…1 in sRGB (gamma-encoded), not premultiplied.
    public var blue: Double
    /// The opacity, 0 (transparent) … 1 (opaque).
    public var alpha: Double
    /// A colour from sRGB components in 0…1; values outside are kept here and clamped when the
    /// colour is converted to pixels.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    /// A grey: `white` for all three components (0 black, 1 white).
    public init(white: Double, alpha: Double = 1) { self.init(red: white, green: white, blue: white, alpha: alpha) }
    /// A colour from a 0xRRGGBB integer, as in CSS (`Color(rgb: 0x3478F6)`), with `alpha` apart.
    public init(rgb: UInt32, alpha: Double = 1) {
        self.init(red: Double((rgb >> 16) & 0xff) / 255, green: Double((rgb >> 8) & 0xff) / 255,
                  blue: Double(rgb & 0xff) / 255, alpha: alpha)
    }
    /// From a premultiplied 0xAARRGGBB pixel (the inverse of `premultipliedARGB32`).
    public init(premultipliedARGB32 p: UInt32) {
        let a = Double(p >> 24) / 255
        if a == 0 { self.init(red: 0, green: 0, blue: 0, alpha: 0); return }
        func c(_ s: UInt32) -> Double { min(1, Double((p >> s) & 0xff) / 255 / a) }
        self.init(red: c(16), green: c(8), blue: c(0), alpha: a)
    }
    /// Parses "#rgb", "#rrggbb" or "#rrggbbaa"; nil when malformed.
    public init?(hex: String) {
        var s = Substring(hex)
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard let v = UInt32(s, radix: 16) else { return nil }
        switch s.count {
        case 3:
            let r = (v >> 8) & 0xf, g = (v >> 4) & 0xf, b = v & 0xf
            self.init(red: Double(r * 17) / 255, green: Double(g * 17) / 255, blue: Double(b * 17) / 255)
        case 6: self.init(rgb: v)
        case 8: self.init(rgb: v >> 8, alpha: Double(v & 0xff) / 255)
        default: return nil
        }
    }

    /// Fully transparent black: draws nothing (a layer's default background).
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque black.
    public static let black = Color(white: 0)
    /// Opaque white.
    public static let white = Color(white: 1)
    /// Opaque pure sRGB red (#ff0000).
    public static let red = Color(red: 1, green: 0, blue: 0)
    /// Opaque pure sRGB green (#00ff00).
    public static let green = Color(red: 0, green: 1, blue: 0)
    /// Opaque pure sRGB blue (#0000ff).
    public static let blue = Color(red: 0, green: 0, blue: 1)
    /// Opaque middle grey (white 0.5).
    public static let gray = Color(white: 0.5)
    /// Opaque light grey (white 0.8), as used for placeholders.
    public static let lightGray = Color(white: 0.8)
    /// Opaque dark grey (white 0.3).
    public static let darkGray = Color(white: 0.3)

    /// The same colour with its alpha replaced by `a` (not multiplied).
    public func withAlpha(_ a: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: a) }
    /// True when alpha is 1 or more: what covers it need not be drawn (occlusion culling).
    public var isOpaque: Bool { alpha >= 1 }

    /// Premultiplied ARGB32 (a in the top byte), rounding to nearest, components clamped.
    public var premultipliedARGB32: UInt32 {
        let a = clamp01(alpha)
        func byte(_ v: Double) -> UInt32 { UInt32((clamp01(v) * a * 255).rounded()) }
        return UInt32((a * 255).rounded()) << 24 | byte(red) << 16 | byte(green) << 8 | byte(blue)
    }
    /// 16-bit premultiplied components, as pixman_color_t wants them.
    public var premultiplied16: (red: UInt16, green: UInt16, blue: UInt16, alpha: UInt16) {
        let a = clamp01(alpha)
        func c(_ v: Double) -> UInt16 { UInt16((clamp01(v) * a * 65535).rounded()) }
        return (c(red), c(green), c(blue), UInt16((a * 65535).rounded()))
    }
    /// Linear interpolation in straight-alpha sRGB (t in 0…1).
    public func mixed(with o: Color, _ t: Double) -> Color {
        Color(red: red + (o.red - red) * t, green: green + (o.green - green) * t,
              blue: blue + (o.blue - blue) * t, alpha: alpha + (o.alpha - alpha) * t)
    }
    public var description: String {
        let v = premultipliedARGB32
        return "Color(#" + String(v, radix: 16) + ")"
    }
}

@inline(__always) func clamp01(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }
