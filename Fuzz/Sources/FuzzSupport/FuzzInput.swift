// Shared by the libFuzzer targets in Fuzz/Sources: turns the fuzzer's bytes into choices, and
// starts libFuzzer. Only built when SILK_FUZZ=1 (see Package.swift and `make fuzz`).
import CLibFuzzer
import Glibc

/// Reads choices from the front of a fuzz input; past the end every read returns zero, so any
/// input (even an empty one) describes a complete test case.
public struct FuzzInput {
    public private(set) var bytes: [UInt8]
    private var position = 0

    public init(_ data: UnsafePointer<UInt8>?, _ count: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    }

    public var remaining: ArraySlice<UInt8> { bytes[min(position, bytes.count)...] }
    public var isAtEnd: Bool { position >= bytes.count }

    public mutating func byte() -> UInt8 {
        defer { position += 1 }
        return position < bytes.count ? bytes[position] : 0
    }

    /// A number in `0..<n` (n ≥ 1).
    public mutating func below(_ n: Int) -> Int { Int(byte()) % max(1, n) }

    public mutating func bool() -> Bool { byte() & 1 == 1 }

    public mutating func int32() -> Int32 {
        var v: UInt32 = 0
        for _ in 0..<4 { v = v << 8 | UInt32(byte()) }
        return Int32(bitPattern: v)
    }

    /// A double that is sometimes hostile (negative, zero, huge, infinite, NaN).
    public mutating func double(scale: Double = 100) -> Double {
        switch byte() {
        case 0: return 0
        case 1: return -1
        case 2: return .infinity
        case 3: return .nan
        case 4: return 1e12
        case 5: return -.infinity
        case let b: return Double(b) / 255 * scale
        }
    }

    /// The next `n` bytes (fewer at the end).
    public mutating func take(_ n: Int) -> ArraySlice<UInt8> {
        let start = min(position, bytes.count), end = min(bytes.count, start + max(0, n))
        position = end
        return bytes[start..<end]
    }
}

/// Runs libFuzzer with the process's arguments and `testOneInput`, then exits with its status.
///
/// SwiftPM links every executable with `main` bound to the module's own entry point, so an
/// executable target cannot leave `main` to libFuzzer; each fuzzer has a tiny `@main` that calls
/// this, and libFuzzer's `LLVMFuzzerRunDriver` parses the usual flags (`-max_total_time`, corpus
/// directories, `-runs`, a crash file to replay, …).
public func runFuzzer(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    let status = LLVMFuzzerRunDriver(&argc, &argv, testOneInput)
    exit(status)
}

/// Runs one-time set-up whose allocations LeakSanitizer must not count as leaks: a system
/// library that keeps (or loses) a little memory once per process, such as fontconfig's
/// configuration parser (scripts/lsan.supp explains that one).
public func withoutLeakChecks<T>(_ body: () -> T) -> T {
    __lsan_disable()
    defer { __lsan_enable() }
    return body()
}
