import Testing
@testable import SilkNodes

/// `HeapTrimmer.configure`: the app's interval unless `SILK_HEAP_TRIM_INTERVAL` gives a number;
/// 0, negative and non-finite intervals mean never. (Global state: restored at the end.)
@Suite struct HeapTrimmerTests {
    @Test func environmentWinsAndAbsurdIntervalsMeanNever() {
        let before = HeapTrimmer.minimumInterval
        defer { HeapTrimmer.minimumInterval = before }
        #expect(HeapTrimmer.configure(interval: 1, environment: [:]) == 1)
        #expect(HeapTrimmer.configure(interval: nil, environment: [:]) == nil)
        #expect(HeapTrimmer.configure(interval: 1, environment: ["SILK_HEAP_TRIM_INTERVAL": "2.5"]) == 2.5)
        #expect(HeapTrimmer.configure(interval: 1, environment: ["SILK_HEAP_TRIM_INTERVAL": "0"]) == nil)
        #expect(HeapTrimmer.configure(interval: 1, environment: ["SILK_HEAP_TRIM_INTERVAL": "-3"]) == nil)
        #expect(HeapTrimmer.configure(interval: 1, environment: ["SILK_HEAP_TRIM_INTERVAL": "nan"]) == nil)
        #expect(HeapTrimmer.configure(interval: 1, environment: ["SILK_HEAP_TRIM_INTERVAL": "later"]) == 1,
                "not a number: the app's interval")
        #expect(HeapTrimmer.configure(interval: .infinity, environment: [:]) == nil)
    }
}
