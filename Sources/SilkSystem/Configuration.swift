import Glibc

/// Every environment variable Silk reads, read in one place and documented here (as Texture
/// gathers its switches in `ASConfiguration`). The process's values are read once, the first time
/// `SilkConfiguration.current` is used; tests and tools build their own from a dictionary.
///
/// | variable | what it does | default |
/// |---|---|---|
/// | `WAYLAND_DISPLAY` | the compositor's socket; `auto` uses Wayland when it is set | unset |
/// | `XDG_RUNTIME_DIR` | where Wayland sockets live (named in connection errors) | unset |
/// | `XCURSOR_THEME`, `XCURSOR_SIZE` | the Wayland pointer's theme and size | libwayland-cursor's, 24 |
/// | `SILK_FBDEV` | the framebuffer device `auto` and `fbdev` try instead of /dev/fb0…9 | unset |
/// | `SILK_ASSETS` | Silk's `assets/` folder (built-in fonts, demo photos) | found beside the program or in the checkout |
/// | `SILK_OSK` | on-screen keyboard policy: `auto` (when no physical keyboard), `always`, `never` | `auto` |
/// | `SILK_CARET_BLINK` | `0` stops the text caret blinking (screenshots, tests) | blinking |
/// | `SILK_DEBUG_RANGES` | non-empty and not `0`: containers draw their preload/display/visible ranges | off |
/// | `SILK_RENDER_STATS` | set: the render thread prints each frame's compositing figures | off |
/// | `SILK_PRESENT_EVERY_FRAME` | `1`: present every frame even when nothing was damaged (pacing tests) | off |
/// | `SILK_WAYLAND_DEBUG` | set: the Wayland presenter traces configures and input events | off |
/// | `XDG_CACHE_HOME`, `HOME` | where the network image cache lives (`…/silk/images`) | `$HOME/.cache` |
/// | `LC_ALL`, `LC_CTYPE`, `LANG` | the locale whose Compose table types dead keys | en_US.UTF-8 |
/// | `SILK_ACCESSIBILITY` | `0`: never export the accessibility tree on AT-SPI2 | exported when a bus is reachable |
/// | `SILK_TALKBACK` | `1`: spoken feedback with espeak-ng (touch explores, double tap activates) | off |
/// | `SILK_TALKBACK_VOICE`, `SILK_TALKBACK_RATE` | talk-back's espeak-ng voice and words per minute (80…450) | `en`, 175 |
/// | `SILK_TALKBACK_WAV` | talk-back writes its speech to this WAV file instead of the audio device | unset |
/// | `AT_SPI_BUS_ADDRESS` | the accessibility bus, instead of asking the session bus's `org.a11y.Bus` | unset |
/// | `SILK_COMPOSITE_THREADS` | threads that composite a large frame in bands (1…8; 1: the render thread alone) | cores, up to 4 |
/// | `SILK_COMPOSITE_BANDS_PER_THREAD` | bands each of those threads gets (1…8) | 2 |
/// | `SILK_HEAP_TRIM_INTERVAL` | seconds between two `malloc_trim`s after containers release nodes (0 or less: never); wins over the app's `MemoryPolicy` | the policy's (1 s standard) |
///
/// libxkbcommon itself reads `XKB_DEFAULT_RULES`, `…_MODEL`, `…_LAYOUT`, `…_VARIANT` and
/// `…_OPTIONS` for the framebuffer's keyboards (Wayland keyboards use the compositor's keymap).
public struct SilkConfiguration: Sendable {
    /// The variables this configuration was read from (all of them, so components that pass
    /// the environment on, such as backend selection, see the same values).
    public let environment: [String: String]

    /// A configuration read from `environment` (tests and tools; apps use `current`).
    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// The process's configuration, read from its environment on first use. Any thread.
    public static let current = SilkConfiguration(environment: SilkConfiguration.processEnvironment())

    /// The value of `name` if set and not empty.
    public func value(_ name: String) -> String? {
        environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether a switch is on: set, not empty and not `0`.
    func isOn(_ name: String) -> Bool { value(name).map { $0 != "0" } ?? false }

    /// `WAYLAND_DISPLAY`.
    public var waylandDisplay: String? { value("WAYLAND_DISPLAY") }
    /// `XDG_RUNTIME_DIR`.
    public var runtimeDirectory: String? { value("XDG_RUNTIME_DIR") }
    /// `XCURSOR_THEME`.
    public var cursorTheme: String? { value("XCURSOR_THEME") }
    /// `XCURSOR_SIZE` in pixels (24 when unset or not a positive number up to 512).
    public var cursorSize: Int32 { value("XCURSOR_SIZE").flatMap(Int32.init).flatMap { (1...512).contains($0) ? $0 : nil } ?? 24 }
    /// `SILK_FBDEV`: the framebuffer device to use instead of probing /dev/fb0…9.
    public var framebufferDevice: String? { value("SILK_FBDEV") }
    /// `SILK_ASSETS`: the folder holding Silk's `fonts/` and `photos/`.
    public var assetsPath: String? { value("SILK_ASSETS") }
    /// `SILK_OSK`, lowercased: `auto`, `always` or `never` (nil when unset).
    public var onScreenKeyboardPolicy: String? { value("SILK_OSK")?.lowercased() }
    /// `SILK_CARET_BLINK=0` turns the caret's blinking off.
    public var caretBlinks: Bool { value("SILK_CARET_BLINK") != "0" }
    /// `SILK_DEBUG_RANGES`: containers draw their ranges.
    public var debugRanges: Bool { isOn("SILK_DEBUG_RANGES") }
    /// `SILK_RENDER_STATS`: the render thread prints per-frame compositing figures.
    public var logsRenderStatistics: Bool { environment["SILK_RENDER_STATS"] != nil }
    /// `SILK_PRESENT_EVERY_FRAME=1`: present undamaged frames too.
    public var presentsEveryFrame: Bool { value("SILK_PRESENT_EVERY_FRAME") == "1" }
    /// `SILK_WAYLAND_DEBUG`: trace Wayland configures and input.
    public var waylandDebug: Bool { environment["SILK_WAYLAND_DEBUG"] != nil }
    /// The network image cache's folder: `$XDG_CACHE_HOME/silk/images`, else
    /// `$HOME/.cache/silk/images`; only absolute paths count. Nil when neither is usable.
    public var imageCacheDirectory: String? {
        if let xdg = value("XDG_CACHE_HOME"), xdg.hasPrefix("/") { return xdg + "/silk/images" }
        if let home = value("HOME"), home.hasPrefix("/") { return home + "/.cache/silk/images" }
        return nil
    }
    /// The character-type locale: `LC_ALL`, then `LC_CTYPE`, then `LANG`.
    public var locale: String? { value("LC_ALL") ?? value("LC_CTYPE") ?? value("LANG") }

    /// Whether the accessibility tree may be exported on AT-SPI2 (`SILK_ACCESSIBILITY` is not `0`).
    public var exportsAccessibility: Bool { value("SILK_ACCESSIBILITY") != "0" }
    /// `AT_SPI_BUS_ADDRESS`: the accessibility bus's address, when set.
    public var accessibilityBusAddress: String? { value("AT_SPI_BUS_ADDRESS") }

    /// Whether talk-back is on (`SILK_TALKBACK` set and not `0`).
    public var talkBack: Bool { isOn("SILK_TALKBACK") }
    /// `SILK_TALKBACK_VOICE`: talk-back's espeak-ng voice.
    public var talkBackVoice: String? { value("SILK_TALKBACK_VOICE") }
    /// `SILK_TALKBACK_RATE`: talk-back's words per minute, when a number from 80 to 450.
    public var talkBackRate: Int? { value("SILK_TALKBACK_RATE").flatMap(Int.init).flatMap { (80...450).contains($0) ? $0 : nil } }
    /// `SILK_TALKBACK_WAV`: the WAV file talk-back writes instead of playing.
    public var talkBackWAVPath: String? { value("SILK_TALKBACK_WAV") }

    /// `SILK_COMPOSITE_THREADS`, when a number from 1 to 8.
    public var compositeThreads: Int? { value("SILK_COMPOSITE_THREADS").flatMap(Int.init).flatMap { (1...8).contains($0) ? $0 : nil } }
    /// `SILK_COMPOSITE_BANDS_PER_THREAD`, when a number from 1 to 8.
    public var compositeBandsPerThread: Int? {
        value("SILK_COMPOSITE_BANDS_PER_THREAD").flatMap(Int.init).flatMap { (1...8).contains($0) ? $0 : nil }
    }
    /// Whether solid fills may blend eight pixels at a time where the CPU allows
    /// (`SILK_WIDE_BLEND` is not `0`; the pixels are the same either way).
    public var wideBlend: Bool { value("SILK_WIDE_BLEND") != "0" }
    /// `SILK_HEAP_TRIM_INTERVAL` in seconds, when a number (0, negative or not finite: never trim).
    public var heapTrimInterval: Double? { value("SILK_HEAP_TRIM_INTERVAL").flatMap(Double.init) }

    /// The process environment (`environ`).
    static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") {
                result[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
            p += 1
        }
        return result
    }
}
