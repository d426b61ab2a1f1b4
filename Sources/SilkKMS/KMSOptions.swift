import SilkFramebuffer

/// A display mode asked for on the command line: `WxH` or `WxH@Hz` (`--mode 1024x768@60`).
public struct KMSModeRequest: Sendable, Equatable, CustomStringConvertible {
    /// Active width in pixels.
    public var width: Int
    /// Active height in pixels.
    public var height: Int
    /// Vertical refresh in Hz; nil: the connector's preferred (else first) mode of that size.
    public var refresh: Double?

    /// A request for `width`×`height` at `refresh` Hz (nil: any rate).
    public init(width: Int, height: Int, refresh: Double? = nil) {
        self.width = width; self.height = height; self.refresh = refresh
    }

    /// Parses `WxH` or `WxH@Hz`; nil for anything else, for sizes outside 1…16384 and for rates
    /// outside (0, 1000].
    public init?(_ text: String) {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let size = parts[0].lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]),
              (1...16_384).contains(w), (1...16_384).contains(h) else { return nil }
        var rate: Double?
        if parts.count == 2 {
            guard let r = Double(parts[1]), r.isFinite, r > 0, r <= 1000 else { return nil }
            rate = r
        }
        self.init(width: w, height: h, refresh: rate)
    }

    /// `1024x768` or `1024x768@60`.
    public var description: String {
        "\(width)x\(height)" + (refresh.map { "@" + ($0 == $0.rounded() ? "\(Int($0))" : "\($0)") } ?? "")
    }
}

/// How to open and drive a DRM/KMS display.
public struct KMSOptions: Sendable {
    /// The card (`/dev/dri/cardN`); nil: the first card with a connected connector.
    public var devicePath: String?
    /// The connector by name (`HDMI-A-1`, `Virtual-1`); nil: the first connected one.
    public var connector: String?
    /// The mode; nil: the connector's preferred mode (else its first).
    public var mode: KMSModeRequest?
    /// Software rotation, clockwise (as the framebuffer presenter does it).
    public var rotation: Rotation = .none
    /// Dumb buffers to cycle through: 2 (double buffering) or 3 (the next frame is drawn while a
    /// flip is still pending). Values outside 2…3 are clamped.
    public var bufferCount = 2
    /// Device pixels per point.
    public var scale: Double = 1
    /// Atomic or legacy modesetting (`--kms-api`; auto: atomic where the driver offers it).
    public var api: KMSAPI = .auto
    /// Whether to open the card and input devices through a seat (seatd/logind).
    public var seatPolicy: SeatPolicy = .auto
    /// The seat to open the card through (`KMSBackend` opens it from `seatPolicy`); nil: open(2).
    public var seat: (any DeviceSeat)?
    /// Waits for a display to be connected at start-up and after one is unplugged, instead of
    /// failing (`--wait-for-display`).
    public var waitForDisplay = false
    /// Defaults: the first connected card and connector, its preferred mode, two buffers.
    public init() {}
}
