import Foundation
import Glibc
import SilkRunLoop
import SilkTestSupport
import SilkSystem
import Testing
@testable import SilkFramebuffer

/// Issue 23: a path given as a file-backed framebuffer was truncated, overwritten and deleted
/// although it was someone's file, and on a full tmpfs the process died of SIGBUS when the
/// mapping was touched. A command-line file device is a new file Silk creates (O_EXCL) with its
/// blocks reserved; a path that is not a framebuffer says what it is.
@Suite("File-backed framebuffer safety")
struct FileDeviceSafetyTests {
    static let info = ScreenInfo.typical(.xrgb8888, width: 64, height: 48)

    @Test("an existing file is refused and left as it was")
    func existingFileIsRefused() throws {
        let path = NSTemporaryDirectory() + "silk-fbfile-\(getpid())"
        FileManager.default.createFile(atPath: path, contents: Data("someone's data".utf8))
        defer { unlink(path) }
        #expect(throws: FramebufferError.self) { try FileFramebufferDevice(path: path, info: Self.info, creation: .newFile) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "someone's data")
    }

    @Test("a new file is created with its memory reserved, and reopened without truncating")
    func newFileThenReopen() throws {
        let path = NSTemporaryDirectory() + "silk-fbfile-new-\(getpid())"
        defer { unlink(path) }
        let device = try FileFramebufferDevice(path: path, info: Self.info, creation: .newFile)
        let memory = try device.mapMemory(length: Self.info.memoryLength)
        memory.storeBytes(of: 0xAB, as: UInt8.self)
        let again = try FileFramebufferDevice(path: path, info: Self.info, creation: .fileCreatedEarlier)
        #expect(again.read().first == 0xAB)
    }

    @Test("a full tmpfs gives ENOSPC at creation, not SIGBUS at the first frame", .enabled(if: TinyDisk.isAvailable, "needs mount(8) of a tmpfs (root)"))
    func fullFilesystemIsAClearError() throws {
        let disk = try #require(TinyDisk(kilobytes: 64))
        let path = disk.path + "/fb"
        let big = ScreenInfo.typical(.xrgb8888, width: 1280, height: 720)
        do {
            _ = try FileFramebufferDevice(path: path, info: big, creation: .newFile)
            Issue.record("a 3.7 MB device fitted on a 64 KiB tmpfs")
        } catch {
            #expect(error.kind == .systemCall(SystemCallError(call: "posix_fallocate(\(big.memoryLength) bytes)", errno: ENOSPC)))
        }
        #expect(disk.contents.isEmpty, "the file it created is removed: \(disk.contents)")
    }

    @Test("a tty, a regular file or a FIFO as the framebuffer says it is not one")
    func notAFramebuffer() throws {
        for path in ["/dev/tty", "/dev/null"] {
            do { _ = try LinuxFramebufferDevice(path: path); Issue.record("\(path) opened as a framebuffer") } catch {
                guard case .notAFramebuffer = error.kind else { Issue.record("\(path): \(error)"); continue }
                #expect(error.description.contains("is not a framebuffer device"))
            }
        }
        let fifo = NSTemporaryDirectory() + "silk-fbfifo-\(getpid())"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        #expect(throws: FramebufferError(device: fifo, kind: .notAFramebuffer("a FIFO"))) { try LinuxFramebufferDevice(path: fifo) }
    }
}
