// evdev's wire format and vocabulary (linux/input.h, linux/input-event-codes.h): the records a
// read of /dev/input/eventN returns, and the type/code numbers Silk interprets. Plain values, so
// the translation to Silk's input model is tested without devices.

/// One `struct input_event`.
public struct EvdevEvent: Sendable, Equatable {
    /// Seconds (the device's clock; Silk switches devices to CLOCK_MONOTONIC).
    public var time: Double
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(time: Double = 0, type: UInt16, code: UInt16, value: Int32) {
        self.time = time; self.type = type; self.code = code; self.value = value
    }

    /// The size of one record: two `long`s of timeval, then u16 type, u16 code, s32 value
    /// (24 bytes on 64-bit Linux, 16 on 32-bit).
    public static let size = 2 * MemoryLayout<Int>.size + 8

    /// Parses whole records from `bytes` (a trailing partial record is ignored; reads from evdev
    /// always return whole records).
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> [EvdevEvent] {
        let n = bytes.count / size
        var out: [EvdevEvent] = []
        out.reserveCapacity(n)
        let w = MemoryLayout<Int>.size
        for i in 0..<n {
            let o = i * size
            let sec = bytes.loadUnaligned(fromByteOffset: o, as: Int.self)
            let usec = bytes.loadUnaligned(fromByteOffset: o + w, as: Int.self)
            out.append(EvdevEvent(time: Double(sec) + Double(usec) / 1e6,
                                  type: bytes.loadUnaligned(fromByteOffset: o + 2 * w, as: UInt16.self),
                                  code: bytes.loadUnaligned(fromByteOffset: o + 2 * w + 2, as: UInt16.self),
                                  value: bytes.loadUnaligned(fromByteOffset: o + 2 * w + 4, as: Int32.self)))
        }
        return out
    }

    /// The record's bytes (tests write these into files and pipes).
    public var bytes: [UInt8] {
        var out = [UInt8](repeating: 0, count: EvdevEvent.size)
        let w = MemoryLayout<Int>.size
        out.withUnsafeMutableBytes { b in
            let sec = Int(time.rounded(.down))
            b.storeBytes(of: sec, toByteOffset: 0, as: Int.self)
            b.storeBytes(of: Int(((time - Double(sec)) * 1e6).rounded()), toByteOffset: w, as: Int.self)
            b.storeBytes(of: type, toByteOffset: 2 * w, as: UInt16.self)
            b.storeBytes(of: code, toByteOffset: 2 * w + 2, as: UInt16.self)
            b.storeBytes(of: value, toByteOffset: 2 * w + 4, as: Int32.self)
        }
        return out
    }
}

/// The evdev numbers Silk uses.
public enum EV {
    public static let syn: UInt16 = 0x00, key: UInt16 = 0x01, rel: UInt16 = 0x02, abs: UInt16 = 0x03
    // EV_SYN codes
    public static let synReport: UInt16 = 0, synDropped: UInt16 = 3
    // EV_REL
    public static let relX: UInt16 = 0x00, relY: UInt16 = 0x01, relHWheel: UInt16 = 0x06, relWheel: UInt16 = 0x08
    // EV_ABS
    public static let absX: UInt16 = 0x00, absY: UInt16 = 0x01
    public static let absMTSlot: UInt16 = 0x2f, absMTPositionX: UInt16 = 0x35, absMTPositionY: UInt16 = 0x36
    public static let absMTTrackingID: UInt16 = 0x39
    // EV_KEY: buttons
    public static let btnMouse: UInt16 = 0x110, btnLeft: UInt16 = 0x110, btnRight: UInt16 = 0x111
    public static let btnMiddle: UInt16 = 0x112, btnTask: UInt16 = 0x117
    public static let btnToolFinger: UInt16 = 0x145, btnTouch: UInt16 = 0x14a
    // EV_KEY: keys used to recognise keyboards
    public static let keyEsc: UInt16 = 1, keyQ: UInt16 = 16, keyA: UInt16 = 30, keyZ: UInt16 = 44
    public static let keySpace: UInt16 = 57, keyEnter: UInt16 = 28
}
