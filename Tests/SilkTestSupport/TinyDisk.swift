import Foundation

/// A real, tiny file system for full-disk tests: a tmpfs of a few KiB mounted on a fresh
/// temporary folder (needs root or CAP_SYS_ADMIN, as in CI and the development VM). Unmounted
/// and removed when released. `TinyDisk.isAvailable` says whether mounting works here.
public final class TinyDisk {
    public let path: String

    public init?(kilobytes: Int) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("silk-tinydisk-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        guard (try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)) != nil else { return nil }
        guard TinyDisk.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0755", "tmpfs", dir]) else {
            try? FileManager.default.removeItem(atPath: dir)
            return nil
        }
        path = dir
    }

    deinit {
        _ = TinyDisk.run("/bin/umount", ["-l", path])
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Bytes free on the disk.
    public var freeBytes: Int {
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: path)
        return (attributes?[.systemFreeSize] as? NSNumber)?.intValue ?? -1
    }

    /// The names in the disk's root folder (dot files included).
    public var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted() ?? [] }

    public static let isAvailable: Bool = TinyDisk(kilobytes: 16) != nil

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }
}
