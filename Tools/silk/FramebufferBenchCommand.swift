import ArgumentParser
import Foundation
import SilkFramebuffer
import SilkGeometry
import SilkRaster
import SilkRender

/// `silk fbdev-bench`: the framebuffer presenter's per-frame copy for a full-screen damage, per
/// device format and rotation — on a file-backed device in /dev/shm (memory bandwidth of this
/// machine), or on a real device with `--device /dev/fb0` (write-combined video memory).
struct FramebufferBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fbdev-bench", abstract: "Time the framebuffer presenter's full-damage copy per format.")

    @Option(help: "Screen size in pixels, WxH (file device only).") var size: SizeArgument = SizeArgument(argument: "1280x720")!
    @Option(help: "Frames per case.") var frames: Int = 200
    @Option(help: "Use this real framebuffer device instead of a file (its own size and format).") var device: String?

    func validate() throws {
        guard (1...100_000).contains(frames) else { throw ValidationError("--frames \(frames): must be between 1 and 100000") }
    }

    func run() throws {
        let w = Int(size.size.width), h = Int(size.size.height)
        var cases: [(String, FramebufferPixelFormat?, Rotation, Bool)] = []
        if device != nil {
            cases = [("as the device is", nil, .none, false), ("rotated 90°", nil, .clockwise90, false)]
        } else {
            cases = [("32 bpp", .xrgb8888, .none, false), ("32 bpp, byte-swapped", .bgrx8888, .none, false),
                     ("16 bpp", .rgb565, .none, false), ("16 bpp, dithered", .rgb565, .none, true),
                     ("24 bpp", .rgb888, .none, false), ("32 bpp, rotated 90°", .xrgb8888, .clockwise90, false),
                     ("16 bpp, rotated 90°", .rgb565, .clockwise90, false)]
        }
        print("fbdev-bench: full-damage copy, median of \(frames) frames\(device.map { " on \($0)" } ?? " of \(w)×\(h) on a file in /dev/shm")")
        for (label, format, rotation, dither) in cases {
            let dev: any FramebufferDevice
            let path = "/dev/shm/silk-fbdev-bench-\(getpid())"
            if let device { dev = try LinuxFramebufferDevice(path: device) }
            else { dev = try FileFramebufferDevice(path: path, info: .typical(format!, width: w, height: h), creation: .newFile) }
            defer { if device == nil { unlink(path) } }
            var options = FramebufferOptions()
            options.rotation = rotation; options.dither = dither; options.vsync = .off; options.doubleBuffering = .off
            let presenter = try FramebufferPresenter(device: dev, options: options)
            let frame = try Bitmap(width: presenter.pixelWidth, height: presenter.pixelHeight)
            frame.fill(Color(red: 0.3, green: 0.6, blue: 0.9))
            var damage = DamageRegion()
            damage.add(frame.bounds)
            var times: [Double] = []
            for i in 0..<max(1, frames) {
                try presenter.present(frame, damage: damage, timing: FrameTiming(index: i, time: 0))
                times.append(Double(presenter.lastCopyNanoseconds) / 1e6)
            }
            times.sort()
            let bytes = Double(presenter.info.width * presenter.info.height * presenter.format.bytesPerPixel)
            let median = times[times.count / 2]
            let name = "\(label) (\(presenter.format))".padding(toLength: 34, withPad: " ", startingAt: 0)
            print("  " + name + String(format: "%6.3f ms (min %.3f, p90 %.3f), %.2f GB/s written",
                                       median, times[0], times[times.count * 9 / 10], bytes / median / 1e6))
            presenter.shutDown()
        }
    }
}
