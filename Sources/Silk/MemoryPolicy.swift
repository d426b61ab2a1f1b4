import Foundation
import SilkNodes

/// How the process's C heap (glibc's malloc) hands memory back, set once at start.
///
/// Why Silk has one: with glibc's defaults, a Silk app's resident memory grows well past its
/// live heap. glibc serves a block of at least `M_MMAP_THRESHOLD` (128 KiB at start) with its
/// own mapping, returned to the kernel when freed — but each time such a block is freed it
/// *raises* the threshold to that block's size. libjpeg's progressive-decode buffers and
/// TurboJPEG's compress buffers are 1–3 MiB, so after the first photos the threshold sits at a
/// few MiB and every photo-sized buffer (encoded bytes, decode scratch, PNG rows) comes from a
/// heap arena instead; glibc makes up to 8 arenas per core (one per thread that contends:
/// display queues, URLSession, decoders), and each keeps the pages of its busiest moment.
/// Measured in `silk bench --scene feed-10k` (docs/benchmark.md): 65–89 MiB of arena heaps for
/// a live heap of 12–46 MiB. A fixed threshold keeps large blocks in their own mappings (freed
/// at once, as `Bitmap` already does for pixels) and a small arena count bounds how many
/// heaps keep free pages.
///
/// `Application` applies ``standard`` when it is created; a program that does not make an
/// `Application` (a tool, a test host) calls ``apply(environment:)`` itself, first thing in
/// `main`. Use ``system`` to keep glibc's defaults. A setting the user gave glibc in the environment
/// (`MALLOC_MMAP_THRESHOLD_`, `MALLOC_ARENA_MAX`, `GLIBC_TUNABLES`) wins over the policy's.
public struct MemoryPolicy: Sendable, Equatable {
    /// Blocks of at least this many bytes get their own mapping when no free heap chunk fits
    /// them (glibc `M_MMAP_THRESHOLD`, which, once set, no longer rises); nil keeps glibc's
    /// dynamic threshold.
    public var mmapThreshold: Int?
    /// At most this many malloc arenas (glibc `M_ARENA_MAX`); nil keeps glibc's 8 per core.
    public var arenaLimit: Int?
    /// After containers release nodes far from their ranges, free heap pages are handed back
    /// to the kernel (`malloc_trim(0)`) at most once per this many seconds (`HeapTrimmer`);
    /// nil never trims. `SILK_HEAP_TRIM_INTERVAL` in the environment wins (0: never).
    public var trimInterval: Double?

    /// A policy of your own; a value of 0 or less (or above `Int32.max`) is skipped by
    /// ``apply(environment:)``, like nil.
    public init(mmapThreshold: Int?, arenaLimit: Int?, trimInterval: Double? = nil) {
        self.mmapThreshold = mmapThreshold
        self.arenaLimit = arenaLimit
        self.trimInterval = trimInterval
    }

    /// Silk's default: large blocks (≥ 128 KiB, glibc's own starting threshold) always mapped,
    /// at most 4 arenas, and the heap trimmed at most once a second after nodes are released.
    public static let standard = MemoryPolicy(mmapThreshold: 128 * 1024, arenaLimit: 4, trimInterval: 1)
    /// glibc's defaults, untouched.
    public static let system = MemoryPolicy(mmapThreshold: nil, arenaLimit: nil)

    /// Sets the policy in glibc (`mallopt`, looked up at run time: other C libraries have no
    /// such knobs, and then this does nothing) and `HeapTrimmer`'s interval. Returns the
    /// `mallopt` settings that were applied, by glibc name; a setting the environment already
    /// gives is skipped.
    @discardableResult
    public func apply(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        HeapTrimmer.configure(interval: trimInterval, environment: environment)
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return [] }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        let tunables = environment["GLIBC_TUNABLES"] ?? ""
        var applied: [String] = []
        // The parameter numbers are glibc's <malloc.h> (not in Swift's Glibc module).
        if let bytes = mmapThreshold, bytes > 0, bytes <= Int(Int32.max),
           environment["MALLOC_MMAP_THRESHOLD_"] == nil, !tunables.contains("mmap_threshold"),
           mallopt(-3 /* M_MMAP_THRESHOLD */, Int32(bytes)) == 1 {
            applied.append("M_MMAP_THRESHOLD=\(bytes)")
        }
        if let arenas = arenaLimit, arenas > 0, arenas <= Int(Int32.max),
           environment["MALLOC_ARENA_MAX"] == nil, !tunables.contains("arena_max"),
           mallopt(-8 /* M_ARENA_MAX */, Int32(arenas)) == 1 {
            applied.append("M_ARENA_MAX=\(arenas)")
        }
        return applied
    }
}
