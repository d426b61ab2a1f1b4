import Testing
import SilkSystem

@Suite struct ConfigurationTests {
    @Test func readsEachVariableWithItsDefault() {
        let empty = SilkConfiguration(environment: [:])
        #expect(empty.waylandDisplay == nil)
        #expect(empty.framebufferDevice == nil)
        #expect(empty.caretBlinks)
        #expect(!empty.debugRanges)
        #expect(empty.cursorSize == 24)
        #expect(empty.imageCacheDirectory == nil)
        #expect(empty.locale == nil)

        let set = SilkConfiguration(environment: [
            "WAYLAND_DISPLAY": "wayland-1", "SILK_FBDEV": "/dev/fb1", "SILK_CARET_BLINK": "0",
            "SILK_DEBUG_RANGES": "1", "XCURSOR_SIZE": "32", "SILK_OSK": "Always", "HOME": "/home/u",
            "LC_CTYPE": "de_DE.UTF-8", "LANG": "C", "SILK_PRESENT_EVERY_FRAME": "1",
        ])
        #expect(set.waylandDisplay == "wayland-1")
        #expect(set.framebufferDevice == "/dev/fb1")
        #expect(!set.caretBlinks)
        #expect(set.debugRanges)
        #expect(set.cursorSize == 32)
        #expect(set.onScreenKeyboardPolicy == "always")
        #expect(set.imageCacheDirectory == "/home/u/.cache/silk/images")
        #expect(set.locale == "de_DE.UTF-8", "LC_CTYPE before LANG")
        #expect(set.presentsEveryFrame)
    }

    @Test func emptyZeroAndAbsurdValuesFallBackToDefaults() {
        let c = SilkConfiguration(environment: ["WAYLAND_DISPLAY": "", "SILK_DEBUG_RANGES": "0", "XCURSOR_SIZE": "99999999",
                                                "XDG_CACHE_HOME": "relative/path", "SILK_FBDEV": ""])
        #expect(c.waylandDisplay == nil)
        #expect(!c.debugRanges)
        #expect(c.cursorSize == 24)
        #expect(c.imageCacheDirectory == nil)
        #expect(c.framebufferDevice == nil)
    }

    /// The compositor's bands and the heap trim: numbers in range are taken, anything else
    /// (empty, zero or too many threads, not a number) leaves the caller's default.
    @Test func compositeThreadsBandsAndHeapTrim() {
        let set = SilkConfiguration(environment: ["SILK_COMPOSITE_THREADS": "3", "SILK_COMPOSITE_BANDS_PER_THREAD": "1",
                                                  "SILK_HEAP_TRIM_INTERVAL": "0.5"])
        #expect(set.compositeThreads == 3)
        #expect(set.compositeBandsPerThread == 1)
        #expect(set.heapTrimInterval == 0.5)
        for bad in ["", "0", "9", "-1", "two", "99999999999999999999"] {
            let c = SilkConfiguration(environment: ["SILK_COMPOSITE_THREADS": bad, "SILK_COMPOSITE_BANDS_PER_THREAD": bad])
            #expect(c.compositeThreads == nil, "\(bad)")
            #expect(c.compositeBandsPerThread == nil, "\(bad)")
        }
        #expect(SilkConfiguration(environment: ["SILK_HEAP_TRIM_INTERVAL": "soon"]).heapTrimInterval == nil)
        #expect(SilkConfiguration(environment: ["SILK_HEAP_TRIM_INTERVAL": ""]).heapTrimInterval == nil)
        #expect(SilkConfiguration(environment: ["SILK_HEAP_TRIM_INTERVAL": "0"]).heapTrimInterval == 0, "0 means never: HeapTrimmer's")
    }

    /// The wide solid blend is on unless `SILK_WIDE_BLEND` is exactly `0`.
    @Test func wideBlendIsOnUnlessTurnedOff() {
        #expect(SilkConfiguration(environment: [:]).wideBlend)
        #expect(SilkConfiguration(environment: ["SILK_WIDE_BLEND": "1"]).wideBlend)
        #expect(!SilkConfiguration(environment: ["SILK_WIDE_BLEND": "0"]).wideBlend)
    }

    @Test func currentIsTheProcessEnvironment() {
        #expect(SilkConfiguration.current.value("PATH") != nil)
    }
}
