import Foundation
import Glibc
import Testing
@testable import SilkRaster

/// Files that are not Silk's to replace, and inputs that would block (issue 23): output to a
/// device is written in place, a FIFO without a reader is refused at once instead of blocking in
/// open(2), block devices and sockets are refused, and the pre-run check never touches the target.
@Suite("File output and input kinds")
struct FileOutputTests {
    static func temporaryDirectory() -> String {
        let dir = NSTemporaryDirectory() + "silk-fileoutput-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(dir, 0o755)
        return dir
    }

    @Test("writing to /dev/null keeps it a character device (no rename over the node)")
    func devNullStaysADevice() throws {
        try FileOutput.write(Data("report".utf8), to: "/dev/null")
        var st = stat()
        #expect(stat("/dev/null", &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test("a FIFO without a reader is refused at once, not waited on")
    func fifoWithoutReaderIsRefused() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/pipe"
        #expect(mkfifo(fifo, 0o644) == 0)
        let start = Date()
        #expect(throws: RasterError.io(path: fifo, reason: "is a FIFO that no process is reading")) {
            try FileOutput.write(Data("x".utf8), to: fifo)
        }
        #expect(Date().timeIntervalSince(start) < 2)
        var st = stat()
        #expect(stat(fifo, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO, "the FIFO is still there")
    }

    @Test("a FIFO with a reader is written in place")
    func fifoWithReaderIsWritten() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/pipe"
        #expect(mkfifo(fifo, 0o644) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        try FileOutput.write(Data("hello".utf8), to: fifo)
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = read(reader, &buffer, 16)
        #expect(n == 5)
    }

    @Test("an empty path, a directory and a socket are refused with a reason")
    func refusedKinds() throws {
        #expect(throws: RasterError.io(path: "''", reason: "an empty path is not a file name")) {
            try FileOutput.write(Data(), to: "")
        }
        #expect(throws: RasterError.io(path: "''", reason: "an empty path is not a file name")) {
            try FileOutput.checkWritable("")
        }
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: RasterError.io(path: dir, reason: "is a directory")) { try FileOutput.write(Data(), to: dir) }
        #expect(throws: RasterError.io(path: dir, reason: "is a directory")) { try FileOutput.checkWritable(dir) }
        // A Unix socket bound in the folder.
        let socketPath = dir + "/sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in socketPath.utf8.enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        #expect(throws: RasterError.io(path: socketPath, reason: "is a socket, not a file")) {
            try FileOutput.write(Data(), to: socketPath)
        }
    }

    @Test("the pre-run check finds an unusable folder and never creates the target")
    func checkWritable() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A file where a folder would have to be.
        FileManager.default.createFile(atPath: dir + "/file", contents: Data("keep".utf8))
        #expect(throws: RasterError.io(path: dir + "/file/out.png", reason: "\(dir)/file is not a directory")) {
            try FileOutput.checkWritable(dir + "/file/out.png")
        }
        // Missing folders are fine (they are created by the write), and nothing is left behind.
        try FileOutput.checkWritable(dir + "/a/b/out.png")
        try FileOutput.checkWritable(dir + "/file")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["file"])
        #expect(try String(contentsOfFile: dir + "/file", encoding: .utf8) == "keep")
    }

    @Test("image input that is a FIFO or a device is refused without blocking")
    func nonRegularImageInput() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/pipe.png"
        #expect(mkfifo(fifo, 0o644) == 0)
        let start = Date()
        #expect(throws: RasterError.io(path: fifo, reason: "is not a regular file (a FIFO)")) {
            try ImageDecoder.decode(contentsOf: fifo)
        }
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(throws: RasterError.io(path: "/dev/zero", reason: "is not a regular file (a character device)")) {
            try ImageDecoder.decode(contentsOf: "/dev/zero")
        }
    }
}
