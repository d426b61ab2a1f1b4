// A framebuffer that is a plain file: the unit tests' device (and a way to run the presenter
// anywhere). The file holds the "video memory"; screen information is whatever the test says.
import Foundation
import Glibc
import SilkRunLoop
import SilkSystem

/// A file pretending to be `/dev/fbN`: memory is the file mapped shared, so what the presenter
/// writes can be read back from the file (`read()`), which a test may do but the presenter never.
/// Records pans, vsync waits and blanking so tests can check pacing decisions.
public final class FileFramebufferDevice: FramebufferDevice, @unchecked Sendable {
    public let path: String
    private let lock = Lock()
    private var info: ScreenInfo
    private let fd: Int32
    private var mapping: UnsafeMutableRawPointer?
    /// Behaviour knobs for pacing tests.
    public var panSticks: Bool
    public var vsync: VSyncBehaviour
    public enum VSyncBehaviour: Sendable { case unsupported, immediate, sleeps(Double), hangs }
    public private(set) var pans: [Int] = []
    public private(set) var vsyncWaits = 0
    public private(set) var blanked: Bool?
    /// Behaves like an unplugged display (or an unbound driver): every ioctl fails with ENODEV
    /// while the mapping stays writable, which is what fbdev does to a process still using it.
    public var isGone: Bool {
        get { lock.withLock { gone } }
        set { lock.withLock { gone = newValue } }
    }
    private var gone = false

    private func failIfGone(_ call: String) throws(FramebufferError) {
        if lock.withLock({ gone }) {
            throw FramebufferError(device: path, kind: .systemCall(SystemCallError(call: call, errno: ENODEV)))
        }
    }

    /// Creates (truncates) `path` sized to `info.memoryLength`.
    public init(path: String, info: ScreenInfo, panSticks: Bool = true, vsync: VSyncBehaviour = .unsupported) throws(FramebufferError) {
        self.path = path; self.info = info; self.panSticks = panSticks; self.vsync = vsync
        do {
            fd = try systemCall("open(\(path))") { open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
            _ = try systemCall("ftruncate") { ftruncate(fd, off_t(info.memoryLength)) }
        } catch { throw FramebufferError(device: path, kind: .systemCall(error)) }
    }

    /// How a command-line file-backed device treats the path (`silk bench --backend fbdev
    /// --device /tmp/…`): never a file Silk did not make.
    public enum Creation: Sendable {
        /// Create `path`, which must not exist (O_EXCL), and reserve its blocks.
        case newFile
        /// Open the file an earlier `.newFile` device created (same run), without truncating.
        case fileCreatedEarlier
    }

    /// A device on a file Silk creates itself: `.newFile` refuses an existing path (a file
    /// there is someone's data: it would be truncated, overwritten and deleted) and reserves
    /// the memory with posix_fallocate, so a full tmpfs is a clear ENOSPC here instead of
    /// SIGBUS when the mapping is first touched. The caller removes the file when done.
    public init(path: String, info: ScreenInfo, creation: Creation) throws(FramebufferError) {
        self.path = path; self.info = info; self.panSticks = true; self.vsync = .unsupported
        switch creation {
        case .newFile:
            let fd: Int32
            do { fd = try systemCall("open(\(path), O_CREAT | O_EXCL)") { open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) } }
            catch {
                if error.errno == EEXIST {
                    throw FramebufferError(device: path, kind: .notAFramebuffer("an existing file; a file-backed device must be a new file, which Silk creates and removes"))
                }
                throw FramebufferError(device: path, kind: .systemCall(error))
            }
            let reserved = posix_fallocate(fd, 0, off_t(info.memoryLength))
            if reserved != 0 {
                _ = Glibc.close(fd)
                unlink(path)  // created just above, by this call
                throw FramebufferError(device: path, kind: .systemCall(SystemCallError(call: "posix_fallocate(\(info.memoryLength) bytes)", errno: reserved)))
            }
            self.fd = fd
        case .fileCreatedEarlier:
            do { fd = try systemCall("open(\(path))") { open(path, O_RDWR | O_CLOEXEC) } }
            catch { throw FramebufferError(device: path, kind: .systemCall(error)) }
            var st = stat()
            guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) >= info.memoryLength else {
                _ = Glibc.close(fd)
                throw FramebufferError(device: path, kind: .notAFramebuffer("not the file this run created"))
            }
        }
    }

    deinit { close(); _ = Glibc.close(fd) }

    public func screenInfo() throws(FramebufferError) -> ScreenInfo {
        try failIfGone("ioctl(FBIOGET_VSCREENINFO)")
        return lock.withLock { info }
    }

    public func mapMemory(length: Int) throws(FramebufferError) -> UnsafeMutableRawPointer {
        if let mapping { return mapping }
        let p = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let p, p != MAP_FAILED else {
            throw FramebufferError(device: path, kind: .systemCall(SystemCallError(call: "mmap", errno: errno)))
        }
        mapping = p
        return p
    }

    public func pan(yOffset: Int) throws(FramebufferError) {
        try failIfGone("ioctl(FBIOPAN_DISPLAY)")
        lock.withLock {
            pans.append(yOffset)
            if panSticks { info.yOffset = yOffset }
        }
    }

    public func waitForVSync() throws(FramebufferError) {
        try failIfGone("ioctl(FBIO_WAITFORVSYNC)")
        lock.withLock { vsyncWaits += 1 }
        switch vsync {
        case .unsupported:
            throw FramebufferError(device: path, kind: .systemCall(SystemCallError(call: "ioctl(FBIO_WAITFORVSYNC)", errno: ENOTTY)))
        case .immediate: return
        case let .sleeps(s): usleep(useconds_t(s * 1e6))
        case .hangs: while true { sleep(1000) }
        }
    }

    public func setBlanked(_ blanked: Bool) throws(FramebufferError) { lock.withLock { self.blanked = blanked } }

    /// The file's bytes (what a display would show), read with pread — for tests.
    public func read() -> [UInt8] {
        let n = info.memoryLength
        var out = [UInt8](repeating: 0, count: n)
        _ = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress, n, 0) }
        return out
    }

    public func close() {
        if let mapping { munmap(mapping, info.memoryLength); self.mapping = nil }
    }
}
