import Foundation
import Glibc
import SilkGeometry
import SilkRaster
import SilkRender
import Testing
@testable import SilkFramebuffer

/// A scratch path for a file-backed framebuffer.
func scratchPath(_ name: String) -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("silk-fb-tests-\(getpid())")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent(name + "-\(UInt32.random(in: 0...UInt32.max))").path
}

/// A bitmap whose every pixel is different: r = x·step, g = y·step, b = (x+y)·7.
func patternBitmap(width: Int, height: Int) throws -> Bitmap {
    let b = try Bitmap(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            let r = UInt32((x * 37) & 0xff), g = UInt32((y * 53) & 0xff), bl = UInt32(((x + y) * 7 + 11) & 0xff)
            b.data.storeBytes(of: 0xff00_0000 | r << 16 | g << 8 | bl, toByteOffset: y * b.stride + x * 4, as: UInt32.self)
        }
    }
    return b
}

/// Reads device pixel (x, y) of `bytes` as 8-bit (r, g, b), expanding 16-bit channels by
/// truncation-inverse (the quantised value shifted back up).
func devicePixel(_ bytes: [UInt8], info: ScreenInfo, format: FramebufferPixelFormat, x: Int, y: Int, page: Int = 0) -> (UInt32, UInt32, UInt32) {
    let o = page * info.lineLength * info.height + y * info.lineLength + x * format.bytesPerPixel
    var word: UInt32 = 0
    for i in 0..<format.bytesPerPixel { word |= UInt32(bytes[o + i]) << (8 * UInt32(i)) }
    let l = format.layout
    func ch(_ f: Bitfield) -> UInt32 { ((word >> UInt32(f.offset)) & ((1 << UInt32(f.length)) - 1)) << UInt32(8 - f.length) }
    return (ch(l.red), ch(l.green), ch(l.blue))
}

/// The source pixel (x, y) reduced to what the device format keeps.
func expected(_ b: Bitmap, x: Int, y: Int, format: FramebufferPixelFormat) -> (UInt32, UInt32, UInt32) {
    let p = b.argb32(x: x, y: y)
    let l = format.layout
    func q(_ v: UInt32, _ f: Bitfield) -> UInt32 { (v >> UInt32(8 - f.length)) << UInt32(8 - f.length) }
    return (q((p >> 16) & 0xff, l.red), q((p >> 8) & 0xff, l.green), q(p & 0xff, l.blue))
}

func damage(_ rects: Rect...) -> DamageRegion {
    var d = DamageRegion()
    for r in rects { d.add(r) }
    return d
}

@Suite("Framebuffer formats")
struct FormatTests {
    @Test("every supported layout is recognised from its bitfields", arguments: FramebufferPixelFormat.allCases)
    func recognised(_ format: FramebufferPixelFormat) throws {
        let info = ScreenInfo.typical(format, width: 8, height: 4)
        #expect(try info.pixelFormat(device: "/dev/fbX") == format)
    }

    @Test("XRGB with a declared alpha byte is ARGB8888")
    func alphaDeclared() throws {
        var info = ScreenInfo.typical(.xrgb8888, width: 8, height: 4)
        info.transparent = Bitfield(offset: 24, length: 8)
        #expect(try info.pixelFormat(device: "/dev/fb0") == .argb8888)
    }

    @Test("unsupported formats name the device and what was found")
    func unsupported() {
        var info = ScreenInfo.typical(.rgb565, width: 8, height: 4)
        info.bitsPerPixel = 8
        do {
            _ = try info.pixelFormat(device: "/dev/fb3")
            Issue.record("8 bpp was accepted")
        } catch {
            #expect(error.description.hasPrefix("/dev/fb3: unsupported framebuffer: 8 bpp"))
        }
        info = ScreenInfo.typical(.rgb565, width: 8, height: 4)
        info.visual = 3  // FB_VISUAL_PSEUDOCOLOR
        #expect(throws: FramebufferError.self) { try info.pixelFormat(device: "/dev/fb0") }
    }

    @Test("a line length shorter than a row is rejected")
    func shortLine() {
        let info = ScreenInfo.typical(.xrgb8888, width: 8, height: 4, lineLength: 16)
        #expect(throws: FramebufferError.self) { try info.validate(device: "/dev/fb0", format: .xrgb8888) }
    }

    @Test("refresh rate from the mode timings; none without a pixel clock")
    func refreshRate() {
        // CEA 1280×720@60: 74.25 MHz, htotal 1650, vtotal 750.
        var info = ScreenInfo.typical(.xrgb8888, width: 1280, height: 720)
        #expect(info.refreshRate == nil)
        info.pixclock = 13468  // ps
        info.leftMargin = 220; info.rightMargin = 110; info.hsyncLength = 40
        info.upperMargin = 20; info.lowerMargin = 5; info.vsyncLength = 5
        #expect(abs(info.refreshRate! - 60) < 0.1)
    }

    @Test("permission errors name the group to join")
    func permissionMessage() {
        let e = FramebufferError(device: "/dev/fb0", kind: .permissionDenied(group: "video"))
        #expect(e.description.contains("'video' group"))
        #expect(e.description.hasPrefix("/dev/fb0: permission denied"))
    }

    @Test("opening a missing device says so, naming it")
    func missingDevice() {
        do {
            _ = try LinuxFramebufferDevice(path: "/nonexistent/fb7")
            Issue.record("opened a missing device")
        } catch {
            #expect(error.kind == .missing)
            #expect(error.description.hasPrefix("/nonexistent/fb7 does not exist"))
        }
    }
}

@Suite("Framebuffer presenter on a file")
struct PresenterTests {
    static let cases: [(FramebufferPixelFormat, Rotation)] = FramebufferPixelFormat.allCases.flatMap { f in Rotation.allCases.map { (f, $0) } }

    @Test("a full frame lands converted, rotated, inside padded rows", arguments: cases)
    func fullFrame(_ format: FramebufferPixelFormat, _ rotation: Rotation) throws {
        let dw = 13, dh = 7
        let line = dw * format.bytesPerPixel + 12  // padding the presenter must not touch
        let info = ScreenInfo.typical(format, width: dw, height: dh, lineLength: line)
        let device = try FileFramebufferDevice(path: scratchPath("full"), info: info)
        // Fill with a sentinel before the presenter maps it.
        let mem = try device.mapMemory(length: info.memoryLength)
        memset(mem, 0xab, info.memoryLength)
        var options = FramebufferOptions()
        options.rotation = rotation
        options.vsync = .off
        let presenter = try FramebufferPresenter(device: device, options: options)
        #expect(presenter.format == format)
        #expect(rotation.swapsAxes ? (presenter.pixelWidth, presenter.pixelHeight) == (dh, dw) : (presenter.pixelWidth, presenter.pixelHeight) == (dw, dh))
        let frame = try patternBitmap(width: presenter.pixelWidth, height: presenter.pixelHeight)
        try presenter.present(frame, damage: damage(frame.bounds), timing: FrameTiming(index: 0, time: 0))
        let bytes = device.read()
        for y in 0..<presenter.pixelHeight {
            for x in 0..<presenter.pixelWidth {
                // Where logical pixel (x, y) must be on the device.
                let d = rotation.deviceRect(Rect(x: Double(x), y: Double(y), width: 1, height: 1), deviceWidth: dw, deviceHeight: dh)
                let got = devicePixel(bytes, info: info, format: format, x: Int(d.minX), y: Int(d.minY))
                let want = expected(frame, x: x, y: y, format: format)
                #expect(got == want, "\(format) \(rotation) logical (\(x), \(y)) → device (\(Int(d.minX)), \(Int(d.minY)))")
                if got != want { return }
            }
        }
        for y in 0..<dh {
            for i in (dw * format.bytesPerPixel)..<line { #expect(bytes[y * line + i] == 0xab, "padding of row \(y) was written") }
        }
        presenter.shutDown()
    }

    @Test("only damaged rows are copied", arguments: [Rotation.none, .clockwise90])
    func damageOnly(_ rotation: Rotation) throws {
        let info = ScreenInfo.typical(.rgb565, width: 40, height: 30, lineLength: 96)
        let device = try FileFramebufferDevice(path: scratchPath("damage"), info: info)
        var options = FramebufferOptions()
        options.rotation = rotation; options.vsync = .off
        let presenter = try FramebufferPresenter(device: device, options: options)
        let frame = try Bitmap(width: presenter.pixelWidth, height: presenter.pixelHeight)
        frame.fill(.white)
        try presenter.present(frame, damage: damage(frame.bounds), timing: FrameTiming(index: 0, time: 0))
        #expect(presenter.lastCopiedPixels == 40 * 30)
        // Change two areas but report only one as damaged: the other must not reach the device.
        let changed = Rect(x: 3, y: 4, width: 5, height: 6)
        let unreported = Rect(x: 20, y: 2, width: 4, height: 4)
        frame.fill(Color(red: 1, green: 0, blue: 0), rect: changed)
        frame.fill(Color(red: 0, green: 0, blue: 1), rect: unreported)
        try presenter.present(frame, damage: damage(changed), timing: FrameTiming(index: 1, time: 1 / 60))
        #expect(presenter.lastCopiedPixels == 30)
        let bytes = device.read()
        func at(_ x: Int, _ y: Int) -> (UInt32, UInt32, UInt32) {
            let d = rotation.deviceRect(Rect(x: Double(x), y: Double(y), width: 1, height: 1), deviceWidth: 40, deviceHeight: 30)
            return devicePixel(bytes, info: info, format: .rgb565, x: Int(d.minX), y: Int(d.minY))
        }
        #expect(at(5, 7) == (248, 0, 0))
        #expect(at(21, 3) == (248, 252, 248))  // still white: not damaged, not copied
        #expect(at(0, 0) == (248, 252, 248))
    }

    @Test("ordered dithering spreads a grey between the two nearest 565 levels")
    func dithering() throws {
        let info = ScreenInfo.typical(.rgb565, width: 16, height: 16)
        let device = try FileFramebufferDevice(path: scratchPath("dither"), info: info)
        var options = FramebufferOptions()
        options.dither = true; options.vsync = .off
        let presenter = try FramebufferPresenter(device: device, options: options)
        let frame = try Bitmap(width: 16, height: 16)
        frame.fill(Color(red: 100 / 255, green: 100 / 255, blue: 100 / 255))  // between 96 and 104 in 5 bits
        try presenter.present(frame, damage: damage(frame.bounds), timing: FrameTiming(index: 0, time: 0))
        let bytes = device.read()
        var reds: [UInt32] = []
        for y in 0..<16 { for x in 0..<16 { reds.append(devicePixel(bytes, info: info, format: .rgb565, x: x, y: y).0) } }
        #expect(Set(reds) == [96, 104])
        let mean = Double(reds.reduce(0, +)) / Double(reds.count)
        #expect(abs(mean - 100) < 1.5, "mean \(mean)")
    }

    @Test("double buffering: pages alternate, each gets the damage it missed")
    func doubleBuffering() throws {
        let info = ScreenInfo.typical(.xrgb8888, width: 20, height: 10, pages: 2)
        let device = try FileFramebufferDevice(path: scratchPath("pan"), info: info, panSticks: true)
        var options = FramebufferOptions(); options.vsync = .off
        let presenter = try FramebufferPresenter(device: device, options: options)
        #expect(presenter.pacing.doubleBuffered)
        let frame = try Bitmap(width: 20, height: 10)
        frame.fill(.white)
        try presenter.present(frame, damage: damage(frame.bounds), timing: FrameTiming(index: 0, time: 0))
        try presenter.present(frame, damage: damage(Rect(x: 0, y: 0, width: 1, height: 1)), timing: FrameTiming(index: 1, time: 0))
        #expect(presenter.lastCopiedPixels == 200)  // page 0's first draw: full
        #expect(Array(device.pans.suffix(2)) == [10, 0])
        // Frame 3 (page 1): its own damage plus frame 2's.
        let a = Rect(x: 5, y: 5, width: 2, height: 2)
        frame.fill(Color(red: 0, green: 1, blue: 0), rect: a)
        try presenter.present(frame, damage: damage(a), timing: FrameTiming(index: 2, time: 0))
        #expect(presenter.lastCopiedPixels == 5)
        #expect(device.pans.last == 10)
        let bytes = device.read()
        #expect(devicePixel(bytes, info: info, format: .xrgb8888, x: 5, y: 5, page: 1) == (0, 255, 0))
        #expect(devicePixel(bytes, info: info, format: .xrgb8888, x: 5, y: 5, page: 0) == (255, 255, 255))
        presenter.shutDown()
        #expect(device.pans.last == 0)  // page 0 shown again for the console
    }

    @Test("a pan that does not stick means single buffering, and says why")
    func panDoesNotStick() throws {
        let info = ScreenInfo.typical(.xrgb8888, width: 20, height: 10, pages: 2)
        let device = try FileFramebufferDevice(path: scratchPath("nopan"), info: info, panSticks: false)
        var options = FramebufferOptions(); options.vsync = .off
        let presenter = try FramebufferPresenter(device: device, options: options)
        #expect(!presenter.pacing.doubleBuffered)
        #expect(presenter.pacing.notes.contains { $0.contains("did not stick") })
        let single = try FramebufferPresenter(device: try FileFramebufferDevice(path: scratchPath("onepage"), info: .typical(.xrgb8888, width: 20, height: 10)), options: options)
        #expect(single.pacing.notes.contains { $0.contains("virtual height 10 < 2 × 10") })
    }

    @Test("vsync is used only when it blocks, and never hangs the presenter")
    func vsyncProbe() throws {
        let info = ScreenInfo.typical(.xrgb8888, width: 8, height: 8)
        func pacing(_ b: FileFramebufferDevice.VSyncBehaviour) throws -> PacingReport {
            try FramebufferPresenter(device: try FileFramebufferDevice(path: scratchPath("vs"), info: info, vsync: b)).pacing
        }
        let unsupported = try pacing(.unsupported)
        #expect(!unsupported.vsync && unsupported.notes.contains { $0.contains("FBIO_WAITFORVSYNC") })
        #expect(try !pacing(.immediate).vsync)
        #expect(try pacing(.sleeps(0.004)).vsync)
        let t0 = monotonicSeconds()
        let hangs = try pacing(.hangs)
        #expect(!hangs.vsync && hangs.notes.contains { $0.contains("did not return within 100 ms") })
        #expect(monotonicSeconds() - t0 < 1)
        #expect(unsupported.refreshRate == 60)
    }

    @Test("timer pacing hands out frames at the refresh rate and stops on close")
    func timerPacing() throws {
        let device = try FileFramebufferDevice(path: scratchPath("timer"), info: .typical(.xrgb8888, width: 8, height: 8))
        var options = FramebufferOptions(); options.vsync = .off; options.refreshRate = 100
        let presenter = try FramebufferPresenter(device: device, options: options)
        let t0 = monotonicSeconds()
        for _ in 0..<10 { #expect(presenter.waitForFrame() != nil) }
        let elapsed = monotonicSeconds() - t0
        #expect(elapsed > 0.08 && elapsed < 0.5, "\(elapsed) s for 10 frames at 100 Hz")
        presenter.close()
        #expect(presenter.waitForFrame() == nil)
    }

    @Test("touch points map back through every rotation")
    func rotationRoundTrip() {
        for r in Rotation.allCases {
            let logical = Rect(x: 3, y: 2, width: 1, height: 1)
            let d = r.deviceRect(logical, deviceWidth: 40, deviceHeight: 30)
            let back = r.logicalPoint(fromDevice: Point(x: d.midX, y: d.midY), deviceWidth: 40, deviceHeight: 30)
            #expect(back == Point(x: 3.5, y: 2.5), "\(r)")
        }
    }
}
