import ArgumentParser
import SilkFramebuffer
import SilkKMS

/// The framebuffer and evdev options shared by commands that open a window.
struct FramebufferArguments: ParsableArguments {
    @Option(help: "Framebuffer device (default: $SILK_FBDEV, else the first of /dev/fb0…/dev/fb9); with --backend kms a DRM card (default: the first /dev/dri/cardN with a connected display).") var device: String?
    @Option(help: "KMS: the display mode, WxH or WxH@Hz (default: the connector's preferred mode).") var mode: String?
    @Option(help: "KMS: the connector by name, e.g. HDMI-A-1 (default: the first connected one).") var connector: String?
    @Option(help: "KMS: dumb buffers to cycle through, 2 or 3.") var buffers: Int = 2
    @Option(help: "KMS: open the card and input devices through a seat: auto (seatd or logind when running, else directly), libseat (required) or direct.") var seat: SeatPolicy = .auto
    @Option(help: "KMS: modesetting interface: auto (atomic where the driver offers it), atomic or legacy.") var kmsApi: KMSAPI = .auto
    @Flag(help: "KMS: wait for a display to be connected (at start and after it is unplugged) instead of exiting.") var waitForDisplay = false
    @Option(help: "Rotate the picture (and touches) clockwise: 0, 90, 180 or 270.") var rotate: Int = 0
    @Option(help: "Pan double buffering: auto, on or off.") var pan: FeatureChoice = .auto
    @Option(help: "Pace frames by FBIO_WAITFORVSYNC: auto, on or off (off: a timer).") var vsync: FeatureChoice = .auto
    @Option(help: "Timer refresh rate in Hz (default: the mode's, else 60).") var refresh: Double?
    @Flag(help: "Ordered dithering on 16 bpp screens.") var dither = false
    @Flag(help: "Leave the console's mode alone (no KD_GRAPHICS).") var noConsole = false
    @Option(help: "Input devices folder.") var inputDir: String = "/dev/input"
    @Flag(help: "Grab input devices exclusively (EVIOCGRAB).") var grab = false
    @Option(help: "Input stack: evdev (Silk's own reader, no udev needed) or libinput (touchpads, tablets, quirks; needs udev's device tags).") var input: InputDriver = .evdev
    @Option(help: "Touch calibration matrix 'a b c d e f' (libinput's LIBINPUT_CALIBRATION_MATRIX).") var touchCalibration: String?
    @Flag(help: "Swap the touchscreen's X and Y axes.") var touchSwapAxes = false
    @Flag(help: "Mirror the touchscreen's X axis.") var touchInvertX = false
    @Flag(help: "Mirror the touchscreen's Y axis.") var touchInvertY = false

    func validate() throws {
        guard Rotation(degrees: rotate) != nil, rotate % 90 == 0 else { throw ValidationError("--rotate \(rotate): use 0, 90, 180 or 270") }
        if let touchCalibration, TouchCalibration(matrixString: touchCalibration) == nil {
            throw ValidationError("--touch-calibration: six numbers expected, got '\(CLIArguments.excerpt(touchCalibration))'")
        }
        if let refresh, !(refresh > 0 && refresh <= 1000) { throw ValidationError("--refresh \(refresh): must be in (0, 1000]") }
        if let mode, KMSModeRequest(mode) == nil { throw ValidationError("--mode '\(CLIArguments.excerpt(mode))': expected WxH or WxH@Hz (e.g. 1024x768@60)") }
        guard (2...3).contains(buffers) else { throw ValidationError("--buffers \(buffers): use 2 or 3") }
    }

    var kmsOptions: KMSOptions {
        var o = KMSOptions()
        o.devicePath = device
        o.connector = connector
        o.mode = mode.flatMap(KMSModeRequest.init)
        o.rotation = Rotation(degrees: rotate) ?? .none
        o.bufferCount = buffers
        o.seatPolicy = seat
        o.api = kmsApi
        o.waitForDisplay = waitForDisplay
        return o
    }

    var framebufferOptions: FramebufferOptions {
        var o = FramebufferOptions()
        o.devicePath = device
        o.rotation = Rotation(degrees: rotate) ?? .none
        o.doubleBuffering = pan
        o.vsync = vsync
        o.refreshRate = refresh
        o.dither = dither
        return o
    }

    var inputOptions: InputOptions {
        var o = InputOptions()
        o.directory = inputDir
        o.grab = grab
        o.driver = input
        var c = touchCalibration.flatMap { TouchCalibration(matrixString: $0) } ?? TouchCalibration()
        c.swapAxes = touchSwapAxes; c.invertX = touchInvertX; c.invertY = touchInvertY
        o.calibration = c
        return o
    }
}

extension FeatureChoice: ExpressibleByArgument {}
extension SeatPolicy: ExpressibleByArgument {}
extension KMSAPI: ExpressibleByArgument {}
extension InputDriver: ExpressibleByArgument {}
