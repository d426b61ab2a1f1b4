// /dev/fbN through open(2), ioctl(2) and mmap(2) (linux/fb.h). The request numbers and the
// structs come from CSilkLinux; every call goes through `systemCall`, which retries EINTR.
import CSilkLinux
import Glibc
import SilkRunLoop
import SilkSystem
import Synchronization

/// A real Linux framebuffer device.
///
/// `@unchecked Sendable`: the descriptor and mapping are set in `init`/`mapMemory` on the render
/// thread before anything else runs; `waitForVSync` from the helper thread only reads `fd`.
public final class LinuxFramebufferDevice: FramebufferDevice, @unchecked Sendable {
    public let path: String
    private let fd: Int32
    private var mapping: UnsafeMutableRawPointer?
    private var mappingLength = 0
    private let closed = Atomic<Bool>(false)

    /// Opens `path` read-write (O_CLOEXEC). A missing node or missing permission becomes a
    /// `FramebufferError` naming the device (and the group that owns it).
    public init(path: String) throws(FramebufferError) {
        self.path = path
        // What the path is, before opening it: open(2) of /dev/tty without a controlling
        // terminal fails with ENXIO ("does not exist"), a FIFO would block, and a regular file
        // would fail later with an ioctl message that does not say the real problem.
        var st = stat()
        if stat(path, &st) == 0 {
            let type = st.st_mode & S_IFMT
            if type != S_IFCHR {
                let what = type == S_IFREG ? "a regular file" : type == S_IFDIR ? "a directory" : type == S_IFIFO ? "a FIFO" : type == S_IFBLK ? "a block device" : "not a device"
                throw FramebufferError(device: path, kind: .notAFramebuffer(what))
            }
            let major = Int((st.st_rdev >> 8) & 0xfff) | Int((st.st_rdev >> 32) & ~0xfff)
            if major != LinuxFramebufferDevice.framebufferMajor {
                throw FramebufferError(device: path, kind: .notAFramebuffer("character device \(major):\(Int(st.st_rdev & 0xff)); framebuffers are major \(LinuxFramebufferDevice.framebufferMajor)"))
            }
        }
        do {
            fd = try systemCall("open(\(path))") { open(path, O_RDWR | O_CLOEXEC) }
        } catch {
            throw FramebufferError.opening(path, error, defaultGroup: "video")
        }
    }

    /// FB_MAJOR (include/uapi/linux/major.h): every /dev/fbN.
    static let framebufferMajor = 29

    deinit { close() }

    private func ioctl(_ name: String, _ request: UInt, _ arg: UnsafeMutableRawPointer) throws(FramebufferError) {
        do { _ = try systemCall("ioctl(\(name))") { silk_ioctl_ptr(fd, request, arg) } }
        catch { throw FramebufferError(device: path, kind: .systemCall(error)) }
    }

    public func screenInfo() throws(FramebufferError) -> ScreenInfo {
        var v = fb_var_screeninfo()
        var f = fb_fix_screeninfo()
        try ioctl("FBIOGET_VSCREENINFO", SILK_FBIOGET_VSCREENINFO, &v)
        try ioctl("FBIOGET_FSCREENINFO", SILK_FBIOGET_FSCREENINFO, &f)
        let id = withUnsafeBytes(of: f.id) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        func bits(_ b: fb_bitfield) -> Bitfield { Bitfield(offset: Int(b.offset), length: Int(b.length)) }
        var info = ScreenInfo(id: id, width: Int(v.xres), height: Int(v.yres),
                              virtualWidth: Int(v.xres_virtual), virtualHeight: Int(v.yres_virtual),
                              xOffset: Int(v.xoffset), yOffset: Int(v.yoffset),
                              bitsPerPixel: Int(v.bits_per_pixel), red: bits(v.red), green: bits(v.green),
                              blue: bits(v.blue), transparent: bits(v.transp), lineLength: Int(f.line_length),
                              memoryLength: Int(f.smem_len), yPanStep: Int(f.ypanstep), pixclock: Int(v.pixclock))
        info.leftMargin = Int(v.left_margin); info.rightMargin = Int(v.right_margin)
        info.upperMargin = Int(v.upper_margin); info.lowerMargin = Int(v.lower_margin)
        info.hsyncLength = Int(v.hsync_len); info.vsyncLength = Int(v.vsync_len)
        info.grayscale = Int(v.grayscale); info.nonstandard = Int(v.nonstd); info.visual = Int(f.visual)
        return info
    }

    public func mapMemory(length: Int) throws(FramebufferError) -> UnsafeMutableRawPointer {
        if let mapping { return mapping }
        guard let p = silk_mmap_shared(fd, length) else {
            throw FramebufferError(device: path, kind: .systemCall(SystemCallError(call: "mmap(\(length) bytes)", errno: errno)))
        }
        mapping = p; mappingLength = length
        return p
    }

    public func pan(yOffset: Int) throws(FramebufferError) {
        var v = fb_var_screeninfo()
        try ioctl("FBIOGET_VSCREENINFO", SILK_FBIOGET_VSCREENINFO, &v)
        v.xoffset = 0
        v.yoffset = UInt32(yOffset)
        try ioctl("FBIOPAN_DISPLAY", SILK_FBIOPAN_DISPLAY, &v)
    }

    public func waitForVSync() throws(FramebufferError) {
        var crtc: UInt32 = 0
        try ioctl("FBIO_WAITFORVSYNC", SILK_FBIO_WAITFORVSYNC, &crtc)
    }

    public func setBlanked(_ blanked: Bool) throws(FramebufferError) {
        let mode = UInt(blanked ? 1 : 0)  // FB_BLANK_NORMAL / FB_BLANK_UNBLANK
        do { _ = try systemCall("ioctl(FBIOBLANK)") { silk_ioctl_int(fd, SILK_FBIOBLANK, mode) } }
        catch { throw FramebufferError(device: path, kind: .systemCall(error)) }
    }

    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if let mapping { munmap(mapping, mappingLength) }
        mapping = nil
        _ = Glibc.close(fd)
    }

    /// Candidates for auto mode: `$SILK_FBDEV` alone when set, else /dev/fb0 … /dev/fb9.
    public static func candidatePaths(configuration: SilkConfiguration = .current) -> [String] {
        if let p = configuration.framebufferDevice { return [p] }
        return (0...9).map { "/dev/fb\($0)" }
    }
}
