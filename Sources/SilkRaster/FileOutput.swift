import Foundation
import SilkSystem
#if canImport(Glibc)
import Glibc
#endif

/// Writing output files (PNG frames, snapshots) so that a failure never leaves a damaged file
/// under the final name: a full disk (ENOSPC), a quota (EDQUOT) or an I/O error ends with a
/// `RasterError.io` naming the path and the reason, and nothing but what was there before.
///
/// Regular files are written to a temporary sibling (`.NAME.RANDOM`, mode 0644 before the
/// umask) and renamed over the target only when every byte was written; the temporary file is
/// removed on failure. Anything else that already exists (a device such as /dev/full, a FIFO)
/// is written in place, since renaming over it would replace the device node.
enum FileOutput {
    static func write(_ data: Data, to path: String) throws(RasterError) {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .io(path: path, reason: describe(error))
        }
        var st = stat()
        if stat(path, &st) == 0, (st.st_mode & S_IFMT) != S_IFREG {
            if (st.st_mode & S_IFMT) == S_IFDIR { throw .io(path: path, reason: "is a directory") }
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
            defer { close(fd) }
            try writeAll(data, to: fd, path: path)
            return
        }
        // O_EXCL with a random name, mode 0644: the kernel applies the umask (mkstemp would
        // create 0600, and reading the umask to widen it again is racy across threads).
        let directory = url.deletingLastPathComponent().path
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<16 where fd < 0 {
            temporary = "\(directory)/.\(url.lastPathComponent).\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd < 0 && errno != EEXIST { break }
        }
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do { try writeAll(data, to: fd, path: path) } catch { close(fd); throw error }
        // close(2) can report a delayed write error (NFS, some FUSE file systems).
        guard close(fd) == 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        guard rename(temporary, path) == 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        renamed = true
    }

    private static func writeAll(_ data: Data, to fd: Int32, path: String) throws(RasterError) {
        var failure: Int32 = 0
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < raw.count {
                let n: Int
                do throws(SystemCallError) {
                    n = try systemCall("write") { Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset) }
                } catch { failure = error.errno; return }
                offset += n
            }
        }
        if failure != 0 { throw .io(path: path, reason: String(cString: strerror(failure))) }
    }
}
