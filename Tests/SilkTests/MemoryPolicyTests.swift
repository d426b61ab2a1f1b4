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
    /// carved it from a heap arena, where its pages stay after `free`). A block of 12 MiB, so
    /// that no free chunk the test process's arenas hold can serve it (glibc reuses free arena
    /// space before mapping, whatever the threshold). glibc marks a mapped chunk with bit 1
    /// (IS_MMAPPED) of the size word just before the pointer.
    @Test func aLargeBlockIsMappedAfterALargerOneWasFreed() throws {
        MemoryPolicy.standard.apply(environment: [:])
        let large = try #require(malloc(24 << 20))
        free(large)
        let photo = try #require(malloc(12 << 20))
        defer { free(photo) }
        let sizeWord = photo.assumingMemoryBound(to: Int.self).advanced(by: -1).pointee
        #expect(sizeWord & 0x2 != 0)
    }
}
