import CDBus
import Foundation

/// D-Bus type codes (libdbus defines them as C macros with casts, which Swift does not import).
enum DBusType {
    static let byte = Int32(UInt8(ascii: "y"))
    static let boolean = Int32(UInt8(ascii: "b"))
    static let int16 = Int32(UInt8(ascii: "n"))
    static let int32 = Int32(UInt8(ascii: "i"))
    static let uint32 = Int32(UInt8(ascii: "u"))
    static let int64 = Int32(UInt8(ascii: "x"))
    static let uint64 = Int32(UInt8(ascii: "t"))
    static let double = Int32(UInt8(ascii: "d"))
    static let string = Int32(UInt8(ascii: "s"))
    static let objectPath = Int32(UInt8(ascii: "o"))
    static let variant = Int32(UInt8(ascii: "v"))
    static let array = Int32(UInt8(ascii: "a"))
    static let structure = Int32(UInt8(ascii: "r"))
    static let dictEntry = Int32(UInt8(ascii: "e"))
    static let invalid = Int32(0)
}

/// Appends values to a message being built (libdbus's append iterator). Valid only inside the
/// closure that received it.
struct DBusWriter {
    let iter: UnsafeMutablePointer<DBusMessageIter>

    func string(_ s: String) {
        // D-Bus strings must be valid UTF-8 without NUL: Swift strings are UTF-8; drop NULs.
        let clean = s.contains("\0") ? s.replacingOccurrences(of: "\0", with: "") : s
        clean.withCString { p in
            var ptr: UnsafePointer<CChar>? = p
            _ = dbus_message_iter_append_basic(iter, DBusType.string, &ptr)
        }
    }
    func objectPath(_ s: String) {
        s.withCString { p in
            var ptr: UnsafePointer<CChar>? = p
            _ = dbus_message_iter_append_basic(iter, DBusType.objectPath, &ptr)
        }
    }
    func int32(_ v: Int32) { var v = v; _ = dbus_message_iter_append_basic(iter, DBusType.int32, &v) }
    func uint32(_ v: UInt32) { var v = v; _ = dbus_message_iter_append_basic(iter, DBusType.uint32, &v) }
    func int16(_ v: Int16) { var v = v; _ = dbus_message_iter_append_basic(iter, DBusType.int16, &v) }
    func bool(_ v: Bool) { var b: dbus_bool_t = v ? 1 : 0; _ = dbus_message_iter_append_basic(iter, DBusType.boolean, &b) }
    func double(_ v: Double) { var v = v.isFinite ? v : 0; _ = dbus_message_iter_append_basic(iter, DBusType.double, &v) }

    /// Opens a container (`array` with its element signature, `variant` with its contents'
    /// signature, `structure` or `dictEntry` with nil), fills it with `body`, closes it.
    func container(_ type: Int32, _ signature: String?, _ body: (DBusWriter) -> Void) {
        let sub = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
        defer { sub.deallocate() }
        sub.initialize(to: DBusMessageIter())
        let opened: dbus_bool_t
        if let signature {
            opened = signature.withCString { dbus_message_iter_open_container(iter, type, $0, sub) }
        } else {
            opened = dbus_message_iter_open_container(iter, type, nil, sub)
        }
        guard opened != 0 else { return }
        body(DBusWriter(iter: sub))
        _ = dbus_message_iter_close_container(iter, sub)
    }
    func array(_ elementSignature: String, _ body: (DBusWriter) -> Void) { container(DBusType.array, elementSignature, body) }
    func structure(_ body: (DBusWriter) -> Void) { container(DBusType.structure, nil, body) }
    func variant(_ signature: String, _ body: (DBusWriter) -> Void) { container(DBusType.variant, signature, body) }
    /// An AT-SPI object reference: `(so)`, bus name and object path.
    func reference(_ name: String, _ path: String) { structure { $0.string(name); $0.objectPath(path) } }
    /// A string-to-string dictionary, `a{ss}`.
    func stringDictionary(_ pairs: [(String, String)]) {
        array("{ss}") { a in for (k, v) in pairs { a.container(DBusType.dictEntry, nil) { $0.string(k); $0.string(v) } } }
    }
}

/// Builds `message`'s arguments with `body`.
func appendArguments(_ message: OpaquePointer, _ body: (DBusWriter) -> Void) {
    var it = DBusMessageIter()
    withUnsafeMutablePointer(to: &it) { p in
        dbus_message_iter_init_append(message, p)
        body(DBusWriter(iter: p))
    }
}

/// Reads a message's arguments in order; each getter returns nil when the next argument has
/// another type (a client sent the wrong signature).
struct DBusReader {
    private var it = DBusMessageIter()
    private var valid: Bool

    init(_ message: OpaquePointer) {
        valid = dbus_message_iter_init(message, &it) != 0
    }

    private mutating func basic<T>(_ type: Int32, _ empty: T) -> T? {
        guard valid, dbus_message_iter_get_arg_type(&it) == type else { return nil }
        var v = empty
        dbus_message_iter_get_basic(&it, &v)
        valid = dbus_message_iter_next(&it) != 0
        return v
    }
    mutating func int32() -> Int32? { basic(DBusType.int32, Int32(0)) }
    mutating func uint32() -> UInt32? { basic(DBusType.uint32, UInt32(0)) }
    mutating func string() -> String? {
        guard valid, dbus_message_iter_get_arg_type(&it) == DBusType.string else { return nil }
        var p: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&it, &p)
        valid = dbus_message_iter_next(&it) != 0
        return p.map { String(cString: $0) }
    }
    /// A variant holding an int32 (Application.Id's Set).
    mutating func variantInt32() -> Int32? {
        guard valid, dbus_message_iter_get_arg_type(&it) == DBusType.variant else { return nil }
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&it, &sub)
        guard dbus_message_iter_get_arg_type(&sub) == DBusType.int32 else { return nil }
        var v: Int32 = 0
        dbus_message_iter_get_basic(&sub, &v)
        valid = dbus_message_iter_next(&it) != 0
        return v
    }
}

/// A message's header fields as Swift strings.
struct DBusHeader {
    let type: Int32
    let path: String
    let interface: String
    let member: String
    let sender: String

    init(_ m: OpaquePointer) {
        type = dbus_message_get_type(m)
        path = dbus_message_get_path(m).map { String(cString: $0) } ?? ""
        interface = dbus_message_get_interface(m).map { String(cString: $0) } ?? ""
        member = dbus_message_get_member(m).map { String(cString: $0) } ?? ""
        sender = dbus_message_get_sender(m).map { String(cString: $0) } ?? ""
    }
}

/// The message of a `DBusError`, then frees it.
func takeErrorMessage(_ error: inout DBusError) -> String {
    defer { dbus_error_free(&error) }
    guard dbus_error_is_set(&error) != 0 else { return "unknown error" }
    return error.message.map { String(cString: $0) } ?? "unknown error"
}
