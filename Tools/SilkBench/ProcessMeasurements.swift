import Foundation
import SilkRender
import CSilkLinux

/// Process-wide figures the benchmark reads from the kernel: CPU time (`getrusage`), peak
/// resident memory (`VmHWM` in /proc/self/status, reset through /proc/self/clear_refs), and the
/// memory bandwidth of this machine (memcpy), which is the floor under every full repaint.
public enum ProcessMeasurements {
    /// User + system CPU seconds of this process so far (`getrusage(RUSAGE_SELF)`).
    public static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// Monotonic wall time in seconds.
    public static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Resets the kernel's peak-RSS mark (`echo 5 > /proc/self/clear_refs`, Linux ≥ 4.0), so
    /// the next `peakRSSMegabytes()` is the peak since this call. False when the kernel refused
    /// (then the peak is the process's peak so far).
    @discardableResult
    public static func resetPeakRSS() -> Bool {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
    }

    /// Hands the heap's free pages back to the kernel (glibc's `malloc_trim(0)`, looked up at
    /// run time), so resident memory measured next is not what earlier work left free in the
    /// heap. False where the C library has no `malloc_trim`.
    @discardableResult
    public static func trimHeap() -> Bool {
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return false }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
        return true
    }

    /// The C heap as glibc's `mallinfo2` sees it, all arenas together, in MiB: `inUse` bytes
    /// handed out from the arenas (`uordblks`), `mapped` bytes in blocks mapped on their own
    /// (`hblkhd`, ≥ the mmap threshold), and `free` bytes the arenas hold but have not handed
    /// out (`fordblks`: resident only where a trim could not return their pages). Nil where the
    /// C library has no `mallinfo2`.
    public static func heapMegabytes() -> (inUse: Double, mapped: Double, free: Double)? {
        var inUse = 0, mapped = 0, free = 0
        guard silk_heap_info(&inUse, &mapped, &free) == 0 else { return nil }
        let mib = 1.0 / 1_048_576
        return (Double(inUse) * mib, Double(mapped) * mib, Double(free) * mib)
    }

    /// `VmHWM` (peak resident set) in MiB, or nil where /proc is unavailable.
    public static func peakRSSMegabytes() -> Double? { statusField("VmHWM").map { $0 / 1024 } }

    /// `VmRSS` (current resident set) in MiB.
    public static func currentRSSMegabytes() -> Double? { statusField("VmRSS").map { $0 / 1024 } }

    private static func statusField(_ name: String) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.dropFirst(name.count + 1).filter { $0.isNumber }
            return Double(String(digits))
        }
        return nil
    }

    /// Median CPU time of one memcpy of a full ARGB32 frame of `width`×`height` pixels, in
    /// milliseconds: the physical floor for a full repaint on this machine.
    public static func frameCopyMilliseconds(width: Int, height: Int, runs: Int = 31) -> Double {
        median(copyTimes(bytes: max(4, width * height * 4), runs: runs)) / 1e6
    }

    /// memcpy bandwidth in GB/s (10^9 bytes copied per second of thread CPU time), from the
    /// median of several copies of 64 MiB — larger than any cache here, so it measures DRAM.
    public static func memcpyGigabytesPerSecond(runs: Int = 7) -> Double {
        let bytes = 64 << 20
        let ns = median(copyTimes(bytes: bytes, runs: runs))
        return ns > 0 ? Double(bytes) / ns : 0
    }

    /// Thread CPU nanoseconds of each of `runs` copies of `bytes` between two buffers.
    private static func copyTimes(bytes: Int, runs: Int) -> [Double] {
        let a = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        let b = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        defer { a.deallocate(); b.deallocate() }
        memset(a, 1, bytes); memset(b, 2, bytes)
        var times: [Double] = []
        for _ in 0..<max(1, runs) {
            let t0 = threadCPUTimeNanoseconds()
            memcpy(b, a, bytes)
            times.append(Double(threadCPUTimeNanoseconds() - t0))
        }
        return times
    }

    static func median(_ xs: [Double]) -> Double {
        let s = xs.sorted()
        return s.isEmpty ? 0 : s[s.count / 2]
    }
}
