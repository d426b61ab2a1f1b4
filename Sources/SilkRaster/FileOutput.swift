import Foundation
import SilkSystem
#if canImport(Glibc)
import Glibc
#endif

/// Writing output files (PNG frames, snapshots, and every file the `silk` command writes: bench
/// reports, layout results, soak CSVs) so that a failure never leaves a damaged file under the
/// final name: a full disk (ENOSPC), a quota (EDQUOT) or an I/O error ends with a
/// `RasterError.io` naming the path and the reason, and nothing but what was there before.
///
/// Regular files are written to a temporary sibling (`.NAME.RANDOM`, mode 0644 before the
/// umask) and renamed over the target only when every byte was written; the temporary file is
/// removed on failure. A character device (/dev/null, /dev/full, a tty) is written in place,
/// since renaming over it would replace the device node (as root, the rename succeeds). A FIFO
/// is written in place only when a reader has it open: opening one for writing otherwise blocks
/// forever, so it is opened non-blocking and refused without a reader. Block devices, sockets
/// and directories are refused: a PNG has no business there.
public enum FileOutput {
    /// Writes `data` to `path` as described above. Missing parent folders are created.
    public static func write(_ data: Data, to path: String) throws(RasterError) {
        guard !path.isEmpty else { throw .io(path: "''", reason: "an empty path is not a file name") }
        let url = URL(fileURLWithPath: path)
        var st = stat()
        if stat(path, &st) == 0, (st.st_mode & S_IFMT) != S_IFREG {
            let fd = try openInPlace(path, mode: st.st_mode)
            defer { close(fd) }
            try writeAll(data, to: fd, path: path)
            return
        }
        let directory = url.deletingLastPathComponent().path
        try makeDirectories(directory, for: path)
        // O_EXCL with a random name, mode 0644: the kernel applies the umask (mkstemp would
        // create 0600, and reading the umask to widen it again is racy across threads).
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<16 where fd < 0 {
            temporary = "\(directory)/.\(url.lastPathComponent).\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd < 0 && errno != EEXIST { break }
        }
        guard fd >= 0 else { throw .io(path: path, reason: reason(errno)) }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do { try writeAll(data, to: fd, path: path) } catch { close(fd); throw error }
        // close(2) can report a delayed write error (NFS, some FUSE file systems).
        guard close(fd) == 0 else { throw .io(path: path, reason: reason(errno)) }
        guard rename(temporary, path) == 0 else { throw .io(path: path, reason: reason(errno)) }
        renamed = true
    }

    /// Checks, before minutes of work, that `write(_:to:)` can later write `path`: that it is
    /// not empty, not a directory, block device or socket, and that the folder it would be
    /// created in (or the nearest existing ancestor, when folders are still to be made) is a
    /// directory where a file can be created. The check creates and removes a temporary file of
    /// its own there; it never opens, creates or changes `path` itself. A FIFO or character
    /// device is accepted here (opening a FIFO to test it would be seen by its reader).
    public static func checkWritable(_ path: String) throws(RasterError) {
        guard !path.isEmpty else { throw .io(path: "''", reason: "an empty path is not a file name") }
        var st = stat()
        if stat(path, &st) == 0 {
            switch st.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFCHR, S_IFIFO: return
            default: throw .io(path: path, reason: kindReason(st.st_mode))
            }
        }
        // The nearest existing ancestor: where the first folder (or the file) will be created.
        var directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        while stat(directory.path, &st) != 0 {
            guard errno == ENOENT, directory.path != "/" else { throw .io(path: path, reason: "\(directory.path): \(reason(errno))") }
            directory = directory.deletingLastPathComponent()
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { throw .io(path: path, reason: "\(directory.path) is not a directory") }
        let probe = "\(directory.path)/.silk-write-check.\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .io(path: path, reason: "cannot create files in \(directory.path): \(reason(errno))") }
        close(fd)
        unlink(probe)
    }

    /// Opens an existing non-regular file for writing in place (see the type's comment).
    private static func openInPlace(_ path: String, mode: mode_t) throws(RasterError) -> Int32 {
        switch mode & S_IFMT {
        case S_IFCHR, S_IFIFO: break
        default: throw .io(path: path, reason: kindReason(mode))
        }
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENXIO, (mode & S_IFMT) == S_IFIFO { throw .io(path: path, reason: "is a FIFO that no process is reading") }
            throw .io(path: path, reason: reason(code))
        }
        // Blocking writes from here on: a reader is there and will drain the pipe.
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return fd
    }

    private static func kindReason(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "is a directory"
        case S_IFBLK: "is a block device; refusing to write over it"
        case S_IFSOCK: "is a socket, not a file"
        default: "is not a regular file"
        }
    }

    /// `mkdir -p` with the reason from errno (Foundation's message is "You don't have
    /// permission" or "error 256" whatever happened).
    private static func makeDirectories(_ directory: String, for path: String) throws(RasterError) {
        var st = stat()
        if stat(directory, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFDIR else { throw .io(path: path, reason: "\(directory) is not a directory") }
            return
        }
        guard errno == ENOENT else { throw .io(path: path, reason: "\(directory): \(reason(errno))") }
        let parent = URL(fileURLWithPath: directory).deletingLastPathComponent().path
        if parent != directory { try makeDirectories(parent, for: path) }
        if mkdir(directory, 0o755) != 0 && errno != EEXIST {
            throw .io(path: path, reason: "cannot create \(directory): \(reason(errno))")
        }
    }

    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file or directory"
        case EACCES: "permission denied"
        default: String(cString: strerror(code))
        }
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
