// What the kernel says about a framebuffer (FBIOGET_VSCREENINFO + FBIOGET_FSCREENINFO), as a
// plain value so that the presenter can be tested on a file that pretends to be a device.

/// One colour channel's position in a pixel (`struct fb_bitfield`).
public struct Bitfield: Sendable, Equatable {
    public var offset: Int
    public var length: Int
    public init(offset: Int, length: Int) { self.offset = offset; self.length = length }
}

/// The fields of `fb_var_screeninfo` and `fb_fix_screeninfo` Silk uses.
public struct ScreenInfo: Sendable, Equatable {
    /// `fix.id`, e.g. "bochs-drmdrmfb", "VESA VGA", "BCM2708 FB".
    public var id: String
    /// Visible resolution (`xres`, `yres`).
    public var width: Int
    public var height: Int
    /// The memory's resolution (`xres_virtual`, `yres_virtual`): ≥ 2 × height allows panning.
    public var virtualWidth: Int
    public var virtualHeight: Int
    /// The visible window's offset in virtual space (`xoffset`, `yoffset`).
    public var xOffset: Int
    public var yOffset: Int
    public var bitsPerPixel: Int
    public var red: Bitfield
    public var green: Bitfield
    public var blue: Bitfield
    public var transparent: Bitfield
    /// Bytes per row of memory (`fix.line_length`), ≥ width × bytes per pixel (padding allowed).
    public var lineLength: Int
    /// Size of the mappable memory (`fix.smem_len`).
    public var memoryLength: Int
    /// `fix.ypanstep` (0: the driver cannot pan vertically).
    public var yPanStep: Int
    /// Timing (`pixclock` in picoseconds, margins and sync lengths in pixels/lines): the refresh rate.
    public var pixclock: Int
    public var leftMargin = 0, rightMargin = 0, upperMargin = 0, lowerMargin = 0, hsyncLength = 0, vsyncLength = 0
    /// `grayscale`, `nonstd` and `fix.visual`, for rejecting what Silk cannot draw.
    public var grayscale = 0
    public var nonstandard = 0
    /// FB_VISUAL_TRUECOLOR (2) or DIRECTCOLOR (4) are drawable; pseudo-colour and mono are not.
    public var visual = 2

    public init(id: String, width: Int, height: Int, virtualWidth: Int? = nil, virtualHeight: Int? = nil,
                xOffset: Int = 0, yOffset: Int = 0, bitsPerPixel: Int, red: Bitfield, green: Bitfield,
                blue: Bitfield, transparent: Bitfield = Bitfield(offset: 0, length: 0), lineLength: Int,
                memoryLength: Int? = nil, yPanStep: Int = 0, pixclock: Int = 0) {
        self.id = id; self.width = width; self.height = height
        self.virtualWidth = virtualWidth ?? width; self.virtualHeight = virtualHeight ?? height
        self.xOffset = xOffset; self.yOffset = yOffset; self.bitsPerPixel = bitsPerPixel
        self.red = red; self.green = green; self.blue = blue; self.transparent = transparent
        self.lineLength = lineLength
        self.memoryLength = memoryLength ?? lineLength * (virtualHeight ?? height)
        self.yPanStep = yPanStep; self.pixclock = pixclock
    }

    /// A typical screen of `format` (tests, the file-backed device): rows padded to `lineLength`
    /// (default: no padding), `pages` screens of memory.
    public static func typical(_ format: FramebufferPixelFormat, width: Int, height: Int,
                               lineLength: Int? = nil, pages: Int = 1) -> ScreenInfo {
        let l = format.layout
        return ScreenInfo(id: "silk-test", width: width, height: height, virtualHeight: height * pages,
                          bitsPerPixel: format.bitsPerPixel, red: l.red, green: l.green, blue: l.blue,
                          transparent: l.transparent,
                          lineLength: lineLength ?? width * format.bytesPerPixel, yPanStep: pages > 1 ? 1 : 0)
    }

    /// Refresh rate from the mode timings, or nil when the driver reports none (`pixclock` 0,
    /// as bochs-drm and vesafb do).
    public var refreshRate: Double? {
        guard pixclock > 0 else { return nil }
        let htotal = Double(width + leftMargin + rightMargin + hsyncLength)
        let vtotal = Double(height + upperMargin + lowerMargin + vsyncLength)
        let hz = 1e12 / Double(pixclock) / (htotal * vtotal)
        return hz.isFinite && hz >= 20 && hz <= 240 ? hz : nil
    }

    /// The pixel format these bitfields describe; throws `unsupported` naming what was found.
    public func pixelFormat(device: String) throws(FramebufferError) -> FramebufferPixelFormat {
        if visual != 2 && visual != 4 {
            throw FramebufferError(device: device, kind: .unsupported("visual \(visual) is not true colour (pseudo-colour and monochrome displays are not supported)"))
        }
        if grayscale != 0 || nonstandard != 0 {
            throw FramebufferError(device: device, kind: .unsupported("grayscale=\(grayscale) nonstd=\(nonstandard) (FOURCC or greyscale modes are not supported)"))
        }
        for f in FramebufferPixelFormat.allCases where f.bitsPerPixel == bitsPerPixel {
            let l = f.layout
            if l.red == red && l.green == green && l.blue == blue
                && (transparent.length == 0 || transparent == l.transparent || l.transparent.length == 0 && f.bitsPerPixel == 32) {
                // A 32-bit layout whose alpha is declared is ARGB; otherwise the X variant.
                if f == .xrgb8888, transparent.length == 8, transparent.offset == 24 { return .argb8888 }
                return f
            }
        }
        throw FramebufferError(device: device, kind: .unsupported(
            "\(bitsPerPixel) bpp with red \(red.length)@\(red.offset) green \(green.length)@\(green.offset) blue \(blue.length)@\(blue.offset); Silk draws XRGB8888, BGRX8888, XBGR8888, ARGB8888, RGB565, BGR565, RGB888 and BGR888"))
    }

    /// Checks that rows and pages fit the memory the driver reports.
    public func validate(device: String, format: FramebufferPixelFormat) throws(FramebufferError) {
        guard width > 0, height > 0 else {
            throw FramebufferError(device: device, kind: .unsupported("resolution \(width)×\(height)"))
        }
        guard lineLength >= width * format.bytesPerPixel else {
            throw FramebufferError(device: device, kind: .unsupported("line length \(lineLength) is shorter than \(width) pixels of \(format.bytesPerPixel) bytes"))
        }
        guard memoryLength >= lineLength * height else {
            throw FramebufferError(device: device, kind: .unsupported("\(memoryLength) bytes of memory cannot hold \(height) lines of \(lineLength) bytes"))
        }
    }
}

/// The device pixel formats Silk writes, named as DRM fourccs (the word read little-endian,
/// highest bits first: XRGB8888 has blue in the lowest byte).
public enum FramebufferPixelFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    case xrgb8888 = "XRGB8888"
    case argb8888 = "ARGB8888"
    case bgrx8888 = "BGRX8888"
    case xbgr8888 = "XBGR8888"
    case rgb565 = "RGB565"
    case bgr565 = "BGR565"
    case rgb888 = "RGB888"
    case bgr888 = "BGR888"

    public var bitsPerPixel: Int {
        switch self {
        case .xrgb8888, .argb8888, .bgrx8888, .xbgr8888: 32
        case .rgb565, .bgr565: 16
        case .rgb888, .bgr888: 24
        }
    }
    public var bytesPerPixel: Int { bitsPerPixel / 8 }

    public var layout: (red: Bitfield, green: Bitfield, blue: Bitfield, transparent: Bitfield) {
        let none = Bitfield(offset: 0, length: 0)
        func b(_ o: Int, _ l: Int) -> Bitfield { Bitfield(offset: o, length: l) }
        switch self {
        case .xrgb8888: return (b(16, 8), b(8, 8), b(0, 8), none)
        case .argb8888: return (b(16, 8), b(8, 8), b(0, 8), b(24, 8))
        case .bgrx8888: return (b(8, 8), b(16, 8), b(24, 8), none)
        case .xbgr8888: return (b(0, 8), b(8, 8), b(16, 8), none)
        case .rgb565: return (b(11, 5), b(5, 6), b(0, 5), none)
        case .bgr565: return (b(0, 5), b(5, 6), b(11, 5), none)
        case .rgb888: return (b(16, 8), b(8, 8), b(0, 8), none)
        case .bgr888: return (b(0, 8), b(8, 8), b(16, 8), none)
        }
    }

    public var description: String { rawValue }
}
