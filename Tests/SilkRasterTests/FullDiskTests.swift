import Foundation
import Glibc
import SilkTestSupport
import Testing
@testable import SilkRaster

/// Output files on a full disk (docs/reliability.md): a clear `RasterError.io` naming the path
/// and "No space left on device", no partial or temporary file left behind, and the next write
/// that fits succeeds.
@Suite("Full disk")
struct FullDiskTests {
    /// A bitmap whose PNG is about `kilobytes` KiB (noise does not compress).
    static func noise(kilobytes: Int) throws -> Bitmap {
        let side = Int((Double(kilobytes * 1024) / 4).squareRoot()) + 1
        let b = try Bitmap(width: side, height: side)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for y in 0..<side {
            for x in 0..<side {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                b.data.storeBytes(of: 0xff00_0000 | UInt32(truncatingIfNeeded: state >> 40), toByteOffset: y * b.stride + x * 4, as: UInt32.self)
            }
        }
        return b
    }

    @Test("a PNG larger than the free space fails cleanly on a tiny tmpfs", .enabled(if: TinyDisk.isAvailable, "needs mount(8) of a tmpfs (root)"))
    func pngOnFullTmpfs() throws {
        let disk = try #require(TinyDisk(kilobytes: 64))
        let target = disk.path + "/frame.png"
        let big = try Self.noise(kilobytes: 200)
        #expect(throws: RasterError.io(path: target, reason: String(cString: strerror(ENOSPC)))) {
            try big.writePNG(to: target)
        }
        #expect(disk.contents.isEmpty, "no partial or temporary file: \(disk.contents)")
        // An existing good file is never replaced by a damaged one.
        let small = try Bitmap(width: 8, height: 8)
        small.fill(.white)
        try small.writePNG(to: target)
        let before = try Data(contentsOf: URL(fileURLWithPath: target))
        #expect(throws: RasterError.self) { try big.writePNG(to: target) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
        #expect(disk.contents == ["frame.png"])
        #expect(try ImageDecoder.decode(contentsOf: target).bitmap.width == 8)
    }

    @Test("writing to /dev/full reports ENOSPC and leaves the device node alone")
    func devFull() throws {
        let b = try Bitmap(width: 4, height: 4)
        #expect(throws: RasterError.io(path: "/dev/full", reason: String(cString: strerror(ENOSPC)))) {
            try b.writePNG(to: "/dev/full")
        }
        var st = stat()
        #expect(stat("/dev/full", &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test("output files are 0644 before the umask")
    func permissions() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("silk-perm-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/out.png"
        let old = umask(0o022)
        defer { umask(old) }
        try Bitmap(width: 2, height: 2).writePNG(to: path)
        var st = stat()
        #expect(stat(path, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o644)
        umask(0o077)
        try Bitmap(width: 2, height: 2).writePNG(to: path)
        #expect(stat(path, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o600, "a stricter umask is respected")
    }
}
