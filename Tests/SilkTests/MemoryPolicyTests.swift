import Foundation
import Testing
import Silk

/// Whether malloc is glibc's: AddressSanitizer and ThreadSanitizer replace it with allocators whose
/// `mallopt` does nothing and whose chunks have other headers (reading the size word is then an
/// overflow).
private let mallocIsGlibcs = dlsym(nil, "__asan_init") == nil && dlsym(nil, "__tsan_init") == nil

@Suite(.serialized, .enabled(if: mallocIsGlibcs, "a sanitizer's allocator replaces glibc's malloc"))
struct MemoryPolicyTests {
    @Test func appliesBothSettingsUnlessTheEnvironmentGivesThem() {
        #expect(MemoryPolicy.standard.apply(environment: [:]) == ["M_MMAP_THRESHOLD=131072", "M_ARENA_MAX=4"])
        #expect(MemoryPolicy.standard.apply(environment: ["MALLOC_ARENA_MAX": "8"]) == ["M_MMAP_THRESHOLD=131072"])
        #expect(MemoryPolicy.standard.apply(environment: ["GLIBC_TUNABLES": "glibc.malloc.mmap_threshold=65536"])
                == ["M_ARENA_MAX=4"])
        #expect(MemoryPolicy.system.apply(environment: [:]).isEmpty)
        // Numbers glibc cannot take are skipped, not passed on.
        #expect(MemoryPolicy(mmapThreshold: 0, arenaLimit: -1).apply(environment: [:]).isEmpty)
        #expect(MemoryPolicy(mmapThreshold: Int(Int32.max) + 1, arenaLimit: nil).apply(environment: [:]).isEmpty)
    }

    /// The point of the policy: after a large block is freed, a smaller large block still gets
    /// its own mapping (glibc's dynamic threshold would have risen to the freed block's size and
    /// carved it from a heap arena, where its pages stay after `free`). glibc reuses free arena
    /// space before it maps, whatever the threshold, and a test process that has run other
    /// suites holds 100 MiB and more of it; so the check runs in a new process of this test
    /// bundle that runs `mappedAfterALargerBlockWasFreed` alone.
    @Test func aLargeBlockIsMappedAfterALargerOneWasFreed() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: try #require(Self.bundleExecutable()))
        child.arguments = ["--testing-library", "swift-testing", "--filter", "MemoryPolicyTests/mappedAfterALargerBlockWasFreed"]
        child.environment = ProcessInfo.processInfo.environment.merging([Self.probeVariable: "1"]) { $1 }
        let output = Pipe()
        child.standardOutput = output
        child.standardError = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        #expect(child.terminationStatus == 0, "\(text)")
        #expect(text.contains("mappedAfterALargerBlockWasFreed() passed"), "the probe did not run: \(text)")
    }

    static let probeVariable = "SILK_MEMORY_POLICY_PROBE"

    /// The test bundle's executable (`/proc/self/exe`, which qemu-user also answers for the
    /// emulated program).
    static func bundleExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }

    /// Run only by the test above, in its own process. The block asked for is larger than all
    /// the free space the arenas hold (`malloc_info`'s total, top chunks included) with a margin,
    /// and the freed block 1 MiB larger, at most 31 MiB: glibc's dynamic threshold rises to a freed
    /// mapped block's size only up to 32 MiB. glibc marks a mapped chunk with bit 1 (IS_MMAPPED) of the size word
    /// just before the pointer.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[probeVariable] != nil, "run by aLargeBlockIsMappedAfterALargerOneWasFreed"))
    func mappedAfterALargerBlockWasFreed() throws {
        MemoryPolicy.standard.apply(environment: [:])
        let freeInArenas = try #require(freeBytesInArenas())
        let size = max(12 << 20, freeInArenas + (2 << 20))
        try #require(size <= 30 << 20, "the arenas hold \(freeInArenas) free bytes: no block size can show the threshold")
        let large = try #require(malloc(size + (1 << 20)))
        free(large)
        let photo = try #require(malloc(size))
        defer { free(photo) }
        let sizeWord = photo.assumingMemoryBound(to: Int.self).advanced(by: -1).pointee
        #expect(sizeWord & 0x2 != 0, "a block of \(size) bytes came from an arena (\(freeInArenas) bytes free in arenas before)")
    }

    /// The free bytes of every arena, top chunks included: the last `<total type="rest" … size="N"/>`
    /// of glibc's `malloc_info` (looked up at run time, as `MemoryPolicy` looks up `mallopt`).
    private func freeBytesInArenas() -> Int? {
        typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
        guard let symbol = dlsym(nil, "malloc_info") else { return nil }
        var buffer: UnsafeMutablePointer<CChar>?
        var length = 0
        guard let stream = open_memstream(&buffer, &length) else { return nil }
        let status = unsafeBitCast(symbol, to: MallocInfo.self)(0, stream)
        fclose(stream)
        defer { free(buffer) }
        guard status == 0, let buffer else { return nil }
        let xml = String(cString: buffer)
        guard let total = xml.ranges(of: "<total type=\"rest\"").last,
              let sizeAttribute = xml[total.upperBound...].firstRange(of: "size=\"") else { return nil }
        return Int(xml[sizeAttribute.upperBound...].prefix { $0.isNumber })
    }
}
