import CDBus
import Foundation
import Logging
import SilkGeometry
import SilkNodes
import SilkSystem

let logger = Logger(label: "silk.accessibility")

/// Exports the windows' accessibility trees on the AT-SPI2 accessibility bus, so a screen reader
/// (Orca) or any AT-SPI client can read them and act on them. Speaks D-Bus directly through
/// libdbus, as Qt and AccessKit do (not through ATK and at-spi2-atk, which would pull GLib's
/// main loop and GObject into every app and make each node a GObject).
///
/// **Threads.** All D-Bus work runs on the bridge's own thread (`silk.a11y`), which polls the
/// connection and a pipe. Node changes reach it through `AccessibilityNotifications`
/// (queued, never blocking the poster); it rebuilds a snapshot of the trees
/// (`DisplayNode.accessibilitySnapshot()`, read under the node locks), diffs it against the
/// last one and emits the events. Actions a client asks for are carried out on the main thread
/// (`performOnPassThread`); the bridge thread waits for their result for at most a second.
/// The render thread is never involved.
///
/// **Cost.** `start` returns nil after one debug line when no accessibility bus is reachable
/// (or `SILK_ACCESSIBILITY=0`); no observer is registered then, so node changes cost one atomic
/// load each.
public final class AccessibilityBridge: @unchecked Sendable {
    struct WindowEntry {
        let id: UInt64
        let root: DisplayNode
        let title: String
        let size: Size
        let focus: (@Sendable (DisplayNode) -> Bool)?
    }

    /// A reference to an exported object: the path's last component is the element id.
    static let pathPrefix = "/org/a11y/atspi/accessible/"
    static let rootPath = "/org/a11y/atspi/accessible/root"
    static let nullPath = "/org/a11y/atspi/null"

    private let connection: OpaquePointer
    /// Our unique name on the accessibility bus (":1.42").
    let busName: String
    /// The registry's unique name (the parent of our application object).
    private let registryName: String
    private let appName: String
    /// A pipe that wakes the bridge thread's poll: read end, write end.
    private let wakeFD: Int32
    private let wakeWriteFD: Int32
    private let windows = Locked<[WindowEntry]>([])
    private let pending = Locked<(dirty: Bool, stop: Bool)>((false, false))
    private var observerToken: AccessibilityNotifications.Token?
    private var thread: Thread?
    private let stopped = DispatchSemaphore(value: 0)

    // Bridge-thread state.
    private var exported = ExportedTree()
    private var lastRefresh = 0.0
    private var appID: Int32 = 0

    /// The events emitted so far, by kind ("StateChanged:focused", "ChildrenChanged:add" …),
    /// for tests and the debug log. Any thread.
    public var emittedEventCounts: [String: Int] { eventCounts.current }
    private let eventCounts = Locked<[String: Int]>([:])

    /// Connects to the accessibility bus (`AT_SPI_BUS_ADDRESS`, else the address the session bus's
    /// `org.a11y.Bus` gives), registers the application with the AT-SPI registry and starts the
    /// bridge thread. Returns nil — after one debug log line saying why — when there is no bus
    /// or `SILK_ACCESSIBILITY=0`. `appName` names the application to clients. Any thread; start
    /// one bridge per process.
    public static func start(appName: String) -> AccessibilityBridge? {
        let config = SilkConfiguration.current
        if !config.exportsAccessibility {
            logger.debug("accessibility: off (SILK_ACCESSIBILITY=0)")
            return nil
        }
        _ = dbus_threads_init_default()
        guard let address = busAddress(config) else { return nil }
        var error = DBusError()
        dbus_error_init(&error)
        guard let conn = dbus_connection_open_private(address, &error) else {
            logger.debug("accessibility: cannot open the accessibility bus \(address): \(takeErrorMessage(&error))")
            return nil
        }
        dbus_connection_set_exit_on_disconnect(conn, 0)
        guard dbus_bus_register(conn, &error) != 0, let unique = dbus_bus_get_unique_name(conn) else {
            logger.debug("accessibility: cannot register on the accessibility bus: \(takeErrorMessage(&error))")
            dbus_connection_close(conn)
            dbus_connection_unref(conn)
            return nil
        }
        let registry = nameOwner(conn, "org.a11y.atspi.Registry") ?? "org.a11y.atspi.Registry"
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            dbus_connection_close(conn)
            dbus_connection_unref(conn)
            return nil
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        let bridge = AccessibilityBridge(connection: conn, busName: String(cString: unique), registryName: registry,
                                         appName: appName, wakeFDs: (fds[0], fds[1]))
        bridge.begin()
        return bridge
    }

    private init(connection: OpaquePointer, busName: String, registryName: String, appName: String, wakeFDs: (Int32, Int32)) {
        self.connection = connection
        self.busName = busName
        self.registryName = registryName
        self.appName = appName
        self.wakeFD = wakeFDs.0
        self.wakeWriteFD = wakeFDs.1
    }

    deinit {
        close(wakeFD)
        close(wakeWriteFD)
    }

    /// Exports `root`'s tree as a window (an AT-SPI frame) named `title`, of `size` points.
    /// `focus` moves keyboard focus to a node (Component.GrabFocus), on the main thread. Any
    /// thread.
    public func addWindow(root: DisplayNode, title: String, size: Size, focus: (@Sendable (DisplayNode) -> Bool)? = nil) {
        windows.withLock { list in
            list.removeAll { $0.root === root }
            list.append(WindowEntry(id: (1 << 63) | root.accessibilityID, root: root, title: title, size: size, focus: focus))
        }
        wake()
    }

    /// Stops exporting `root`'s tree (its window closed or shows another root). Any thread.
    public func removeWindow(root: DisplayNode) {
        windows.withLock { $0.removeAll { $0.root === root } }
        wake()
    }

    /// Unregisters from the bus and stops the thread; waits for it. Any thread but the bridge's.
    public func stop() {
        guard thread != nil else { return }
        pending.withLock { $0.stop = true; $0.dirty = false }
        wake()
        stopped.wait()
        thread = nil
    }

    /// Marks the tree stale and wakes the bridge thread; one write per burst of changes (the
    /// thread clears `dirty` when it refreshes). Any thread.
    private func wake() {
        let wasDirty = pending.withLock { p -> Bool in defer { p.dirty = true }; return p.dirty }
        if wasDirty { return }
        var one: UInt8 = 1
        _ = write(wakeWriteFD, &one, 1)
    }

    // MARK: Start-up

    private static func busAddress(_ config: SilkConfiguration) -> String? {
        if let a = config.accessibilityBusAddress { return a }
        var error = DBusError()
        dbus_error_init(&error)
        guard let session = dbus_bus_get_private(DBUS_BUS_SESSION, &error) else {
            logger.debug("accessibility: no session bus, so no accessibility bus (\(takeErrorMessage(&error)))")
            return nil
        }
        dbus_connection_set_exit_on_disconnect(session, 0)
        defer { dbus_connection_close(session); dbus_connection_unref(session) }
        guard let call = dbus_message_new_method_call("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress") else { return nil }
        defer { dbus_message_unref(call) }
        guard let reply = dbus_connection_send_with_reply_and_block(session, call, 2000, &error) else {
            logger.debug("accessibility: the session bus has no accessibility bus (\(takeErrorMessage(&error)))")
            return nil
        }
        defer { dbus_message_unref(reply) }
        var r = DBusReader(reply)
        guard let address = r.string(), !address.isEmpty else { return nil }
        return address
    }

    private static func nameOwner(_ conn: OpaquePointer, _ name: String) -> String? {
        guard let call = dbus_message_new_method_call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner")
        else { return nil }
        defer { dbus_message_unref(call) }
        appendArguments(call) { $0.string(name) }
        var error = DBusError()
        dbus_error_init(&error)
        guard let reply = dbus_connection_send_with_reply_and_block(conn, call, 2000, &error) else {
            logger.debug("accessibility: no AT-SPI registry on the bus (\(takeErrorMessage(&error)))")
            return nil
        }
        defer { dbus_message_unref(reply) }
        var r = DBusReader(reply)
        return r.string()
    }

    private func begin() {
        let filter: DBusHandleMessageFunction = { _, message, data in
            guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            let bridge = Unmanaged<AccessibilityBridge>.fromOpaque(data).takeUnretainedValue()
            return bridge.handle(message) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        _ = dbus_connection_add_filter(connection, filter, Unmanaged.passUnretained(self).toOpaque(), nil)
        observerToken = AccessibilityNotifications.addObserver(ChangeForwarder(bridge: self))
        let t = Thread { [self] in run() }
        t.name = "silk.a11y"
        t.stackSize = 8 << 20   // the snapshot recurses once per tree level
        thread = t
        t.start()
    }

    /// Forwards node changes to the bridge thread (weakly: the bridge may be stopped).
    private final class ChangeForwarder: AccessibilityObserver, @unchecked Sendable {
        weak var bridge: AccessibilityBridge?
        init(bridge: AccessibilityBridge) { self.bridge = bridge }
        func accessibilityDidChange(_ change: AccessibilityChange, node: DisplayNode) { bridge?.wake() }
    }

    // MARK: The bridge thread

    private func run() {
        embed()
        var fd: Int32 = -1
        _ = dbus_connection_get_unix_fd(connection, &fd)
        refresh(emitting: false)
        loop: while true {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
            // Changes are coalesced: a burst (a list scrolling) refreshes once per 20 ms.
            let dirty = pending.withLock { $0.dirty }
            let wait = dirty ? max(0, Int32((lastRefresh + 0.02 - now()) * 1000)) : -1
            _ = poll(&fds, 2, wait)
            if fds[1].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                while read(wakeFD, &drain, 64) > 0 {}
            }
            if pending.withLock({ $0.stop }) { break loop }
            if fds[0].revents & Int16(POLLHUP | POLLERR) != 0 || dbus_connection_read_write(connection, 0) == 0 {
                logger.debug("accessibility: the accessibility bus closed")
                break loop
            }
            while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
            if pending.withLock({ $0.dirty }) && now() - lastRefresh >= 0.02 { refresh(emitting: true) }
            dbus_connection_flush(connection)
        }
        if let token = observerToken { AccessibilityNotifications.removeObserver(token) }
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
        stopped.signal()
    }

    private func now() -> Double { ProcessInfo.processInfo.systemUptime }

    /// Tells the registry about the application (`Socket.Embed`): it becomes a child of the
    /// desktop, so clients find it.
    private func embed() {
        guard let call = dbus_message_new_method_call(registryName, Self.rootPath, "org.a11y.atspi.Socket", "Embed") else { return }
        defer { dbus_message_unref(call) }
        appendArguments(call) { $0.reference(busName, Self.rootPath) }
        // The reply (the desktop's reference) is not needed: the registry's root is known.
        dbus_message_set_no_reply(call, 1)
        _ = dbus_connection_send(connection, call, nil)
        dbus_connection_flush(connection)
        logger.debug("accessibility: registered as \(busName) with the AT-SPI registry \(registryName)")
    }

    /// Rebuilds the exported tree from the nodes, and emits the events for what changed.
    private func refresh(emitting: Bool) {
        pending.withLock { $0.dirty = false }
        lastRefresh = now()
        let list = windows.current
        let new = ExportedTree(windows: list)
        if emitting { emitDifferences(from: exported, to: new) }
        exported = new
    }

    /// Brings the tree up to date before answering a client: pending changes, or layout that
    /// moved frames without a notification (at most 10 times a second).
    private func refreshForQuery() {
        if pending.withLock({ $0.dirty }) || now() - lastRefresh > 0.1 { refresh(emitting: true) }
    }

    // MARK: Events

    private func emitDifferences(from old: ExportedTree, to new: ExportedTree) {
        var selectionParents: Set<UInt64> = []
        for (id, n) in new.nodes {
            guard let o = old.nodes[id] else { continue }
            let a = o.element, b = n.element
            if a.label != b.label {
                emit(id, "PropertyChange", "accessible-name", variant: .string(b.label ?? ""))
            }
            if a.hint != b.hint {
                emit(id, "PropertyChange", "accessible-description", variant: .string(b.hint ?? ""))
            }
            if a.value != b.value {
                emit(id, "PropertyChange", "accessible-value", variant: .string(b.value ?? ""))
            }
            if let before = ATSPI.text(of: a), let after = ATSPI.text(of: b), before != after {
                let oldCount = Int32(clamping: before.unicodeScalars.count), newCount = Int32(clamping: after.unicodeScalars.count)
                if oldCount > 0 { emit(id, "TextChanged", "delete", detail1: 0, detail2: oldCount, variant: .string(before)) }
                if newCount > 0 { emit(id, "TextChanged", "insert", detail1: 0, detail2: newCount, variant: .string(after)) }
            }
            if a.states != b.states {
                for (s, _, name) in ATSPI.stateNames where a.states.contains(s) != b.states.contains(s) {
                    emit(id, "StateChanged", name, detail1: b.states.contains(s) ? 1 : 0)
                }
                if a.states.contains(.disabled) != b.states.contains(.disabled) {
                    let on: Int32 = b.states.contains(.disabled) ? 0 : 1
                    emit(id, "StateChanged", "enabled", detail1: on)
                    emit(id, "StateChanged", "sensitive", detail1: on)
                }
                if !a.states.contains(.focused) && b.states.contains(.focused) {
                    emitFocus(id)
                }
                if a.states.contains(.selected) != b.states.contains(.selected), let p = n.parent { selectionParents.insert(p) }
            }
            if o.children != n.children {
                let added = Set(n.children).subtracting(o.children), removed = Set(o.children).subtracting(n.children)
                for (i, c) in o.children.enumerated() where removed.contains(c) {
                    emit(id, "ChildrenChanged", "remove", detail1: Int32(clamping: i), variant: .reference(busName, path(c)))
                }
                for (i, c) in n.children.enumerated() where added.contains(c) {
                    emit(id, "ChildrenChanged", "add", detail1: Int32(clamping: i), variant: .reference(busName, path(c)))
                }
            }
        }
        // Windows that appeared or went away are children of the application.
        if old.windowIDs != new.windowIDs {
            for (i, w) in old.windowIDs.enumerated() where !new.windowIDs.contains(w) {
                emit(0, "ChildrenChanged", "remove", detail1: Int32(clamping: i), variant: .reference(busName, path(w)))
            }
            for (i, w) in new.windowIDs.enumerated() where !old.windowIDs.contains(w) {
                emit(0, "ChildrenChanged", "add", detail1: Int32(clamping: i), variant: .reference(busName, path(w)))
            }
        }
        for p in selectionParents.sorted() { emit(p, "SelectionChanged", "") }
    }

    enum EventData {
        case int(Int32)
        case string(String)
        case reference(String, String)
    }

    private func emit(_ id: UInt64, _ member: String, _ detail: String, detail1: Int32 = 0, detail2: Int32 = 0,
                      variant: EventData = .int(0), interface: String = "org.a11y.atspi.Event.Object") {
        guard let signal = dbus_message_new_signal(path(id), interface, member) else { return }
        defer { dbus_message_unref(signal) }
        appendArguments(signal) { w in
            w.string(detail)
            w.int32(detail1)
            w.int32(detail2)
            switch variant {
            case .int(let v): w.variant("i") { $0.int32(v) }
            case .string(let s): w.variant("s") { $0.string(s) }
            case .reference(let name, let p): w.variant("(so)") { $0.reference(name, p) }
            }
            w.array("{sv}") { _ in }
        }
        _ = dbus_connection_send(connection, signal, nil)
        let key = detail.isEmpty ? member : "\(member):\(detail)"
        eventCounts.withLock { $0[key, default: 0] += 1 }
        logger.trace("accessibility: \(key) on \(id)")
    }

    private func emitFocus(_ id: UInt64) {
        emit(id, "Focus", "", interface: "org.a11y.atspi.Event.Focus")
    }

    // MARK: Paths

    func path(_ id: UInt64) -> String { id == 0 ? Self.rootPath : Self.pathPrefix + String(id) }

    private func id(fromPath p: String) -> UInt64? {
        if p == Self.rootPath { return 0 }
        guard p.hasPrefix(Self.pathPrefix) else { return nil }
        return UInt64(p.dropFirst(Self.pathPrefix.count))
    }

    // MARK: Method calls (bridge thread, from the filter)

    private func handle(_ message: OpaquePointer) -> Bool {
        let h = DBusHeader(message)
        guard h.type == DBUS_MESSAGE_TYPE_METHOD_CALL else { return false }
        if h.path == "/org/a11y/atspi/cache" && h.interface == "org.a11y.atspi.Cache" {
            // No cache is pushed: clients ask each object (an empty answer, the 2.46 signature).
            reply(message) { $0.array("((so)(so)(so)iiassusau)") { _ in } }
            return true
        }
        guard let id = id(fromPath: h.path) else { return false }
        refreshForQuery()
        if id == 0 { return handleApplication(message, h) }
        guard let node = exported.nodes[id] else {
            replyError(message, "org.freedesktop.DBus.Error.UnknownObject", "the element is gone")
            return true
        }
        return handleElement(message, h, id, node)
    }

    private func reply(_ call: OpaquePointer, _ body: (DBusWriter) -> Void) {
        guard dbus_message_get_no_reply(call) == 0, let r = dbus_message_new_method_return(call) else { return }
        defer { dbus_message_unref(r) }
        appendArguments(r, body)
        _ = dbus_connection_send(connection, r, nil)
    }

    private func replyError(_ call: OpaquePointer, _ name: String, _ text: String) {
        guard dbus_message_get_no_reply(call) == 0, let r = dbus_message_new_error(call, name, text) else { return }
        defer { dbus_message_unref(r) }
        _ = dbus_connection_send(connection, r, nil)
    }

    private func unknownMethod(_ call: OpaquePointer, _ h: DBusHeader) -> Bool {
        replyError(call, "org.freedesktop.DBus.Error.UnknownMethod", "\(h.interface).\(h.member) is not supported")
        return true
    }

    // The application object: Accessible (children are the windows) and Application.
    private func handleApplication(_ m: OpaquePointer, _ h: DBusHeader) -> Bool {
        let windowIDs = exported.windowIDs
        switch (h.interface, h.member) {
        case ("org.freedesktop.DBus.Properties", "Get"), ("org.freedesktop.DBus.Properties", "GetAll"):
            var r = DBusReader(m)
            let iface = r.string() ?? ""
            let props = applicationProperties(iface, windowCount: windowIDs.count)
            if h.member == "GetAll" {
                reply(m) { w in w.array("{sv}") { a in for (k, v) in props { a.container(DBusType.dictEntry, nil) { e in e.string(k); v(e) } } } }
            } else if let name = r.string(), let v = props.first(where: { $0.0 == name })?.1 {
                reply(m) { v($0) }
            } else {
                replyError(m, "org.freedesktop.DBus.Error.UnknownProperty", "no such property")
            }
        case ("org.freedesktop.DBus.Properties", "Set"):
            var r = DBusReader(m)
            if r.string() == "org.a11y.atspi.Application", r.string() == "Id", let v = r.variantInt32() { appID = v }
            reply(m) { _ in }
        case ("org.a11y.atspi.Accessible", "GetChildAtIndex"):
            var r = DBusReader(m)
            let i = Int(r.int32() ?? -1)
            reply(m) { $0.reference(busName, i >= 0 && i < windowIDs.count ? path(windowIDs[i]) : Self.nullPath) }
        case ("org.a11y.atspi.Accessible", "GetChildren"):
            reply(m) { w in w.array("(so)") { a in for c in windowIDs { a.reference(busName, path(c)) } } }
        case ("org.a11y.atspi.Accessible", "GetIndexInParent"):
            reply(m) { $0.int32(-1) }
        case ("org.a11y.atspi.Accessible", "GetRelationSet"):
            reply(m) { $0.array("(ua(so))") { _ in } }
        case ("org.a11y.atspi.Accessible", "GetRole"):
            reply(m) { $0.uint32(ATSPI.application) }
        case ("org.a11y.atspi.Accessible", "GetRoleName"), ("org.a11y.atspi.Accessible", "GetLocalizedRoleName"):
            reply(m) { $0.string("application") }
        case ("org.a11y.atspi.Accessible", "GetState"):
            reply(m) { w in w.array("u") { $0.uint32(0); $0.uint32(0) } }
        case ("org.a11y.atspi.Accessible", "GetAttributes"):
            reply(m) { $0.stringDictionary([("toolkit", "Silk")]) }
        case ("org.a11y.atspi.Accessible", "GetApplication"):
            reply(m) { $0.reference(busName, Self.rootPath) }
        case ("org.a11y.atspi.Accessible", "GetInterfaces"):
            reply(m) { w in w.array("s") { $0.string("org.a11y.atspi.Accessible"); $0.string("org.a11y.atspi.Application") } }
        case ("org.a11y.atspi.Application", "GetLocale"):
            reply(m) { $0.string(Locale.current.identifier) }
        case ("org.a11y.atspi.Application", "GetApplicationBusAddress"):
            reply(m) { $0.string("") }
        default:
            return unknownMethod(m, h)
        }
        return true
    }

    private typealias Property = (String, (DBusWriter) -> Void)

    private func applicationProperties(_ iface: String, windowCount: Int) -> [Property] {
        let name = appName, registry = registryName, id = appID
        switch iface {
        case "org.a11y.atspi.Accessible", "":
            return [
                ("Name", { w in w.variant("s") { $0.string(name) } }),
                ("Description", { w in w.variant("s") { $0.string("") } }),
                ("Parent", { w in w.variant("(so)") { $0.reference(registry, Self.rootPath) } }),
                ("ChildCount", { w in w.variant("i") { $0.int32(Int32(clamping: windowCount)) } }),
                ("Locale", { w in w.variant("s") { $0.string(Locale.current.identifier) } }),
                ("AccessibleId", { w in w.variant("s") { $0.string("") } }),
            ]
        case "org.a11y.atspi.Application":
            return [
                ("ToolkitName", { w in w.variant("s") { $0.string("Silk") } }),
                ("Version", { w in w.variant("s") { $0.string("1.0") } }),
                ("AtspiVersion", { w in w.variant("s") { $0.string("2.1") } }),
                ("Id", { w in w.variant("i") { $0.int32(id) } }),
            ]
        default:
            return []
        }
    }

    private func interfaces(of n: ExportedNode) -> [String] {
        var out = ["org.a11y.atspi.Accessible", "org.a11y.atspi.Component"]
        if !n.element.actions.isEmpty { out.append("org.a11y.atspi.Action") }
        if ATSPI.text(of: n.element) != nil { out.append("org.a11y.atspi.Text") }
        if n.element.valueRange != nil { out.append("org.a11y.atspi.Value") }
        if n.selectionContainer { out.append("org.a11y.atspi.Selection") }
        return out
    }

    private func elementProperties(_ iface: String, _ id: UInt64, _ n: ExportedNode) -> [Property] {
        let e = n.element, bus = busName
        let parentPath = path(n.parent ?? 0)
        switch iface {
        case "org.a11y.atspi.Accessible":
            return [
                ("Name", { w in w.variant("s") { $0.string(e.label ?? "") } }),
                ("Description", { w in w.variant("s") { $0.string(e.hint ?? "") } }),
                ("Parent", { w in w.variant("(so)") { $0.reference(bus, parentPath) } }),
                ("ChildCount", { w in w.variant("i") { $0.int32(Int32(clamping: n.children.count)) } }),
                ("Locale", { w in w.variant("s") { $0.string(Locale.current.identifier) } }),
                ("AccessibleId", { w in w.variant("s") { $0.string(String(id)) } }),
            ]
        case "org.a11y.atspi.Action":
            return [("NActions", { w in w.variant("i") { $0.int32(Int32(clamping: e.actions.count)) } })]
        case "org.a11y.atspi.Text":
            let text = ATSPI.text(of: e) ?? ""
            return [
                ("CharacterCount", { w in w.variant("i") { $0.int32(Int32(clamping: text.unicodeScalars.count)) } }),
                ("CaretOffset", { w in w.variant("i") { $0.int32(Int32(clamping: text.unicodeScalars.count)) } }),
            ]
        case "org.a11y.atspi.Value":
            let r = e.valueRange ?? AccessibilityValueRange(current: 0, minimum: 0, maximum: 0)
            return [
                ("MinimumValue", { w in w.variant("d") { $0.double(r.minimum) } }),
                ("MaximumValue", { w in w.variant("d") { $0.double(r.maximum) } }),
                ("MinimumIncrement", { w in w.variant("d") { $0.double(r.step) } }),
                ("CurrentValue", { w in w.variant("d") { $0.double(r.current) } }),
                ("Text", { w in w.variant("s") { $0.string(e.value ?? "") } }),
            ]
        case "org.a11y.atspi.Selection":
            let count = selectedChildren(n).count
            return [("NSelectedChildren", { w in w.variant("i") { $0.int32(Int32(clamping: count)) } })]
        default:
            return []
        }
    }

    private func selectedChildren(_ n: ExportedNode) -> [UInt64] {
        n.children.filter { exported.nodes[$0]?.element.states.contains(.selected) == true }
    }

    private func handleElement(_ m: OpaquePointer, _ h: DBusHeader, _ id: UInt64, _ n: ExportedNode) -> Bool {
        let e = n.element
        switch (h.interface, h.member) {
        case ("org.freedesktop.DBus.Properties", "Get"), ("org.freedesktop.DBus.Properties", "GetAll"):
            var r = DBusReader(m)
            let iface = r.string() ?? ""
            let props = elementProperties(iface, id, n)
            if h.member == "GetAll" {
                reply(m) { w in w.array("{sv}") { a in for (k, v) in props { a.container(DBusType.dictEntry, nil) { d in d.string(k); v(d) } } } }
            } else if let name = r.string(), let v = props.first(where: { $0.0 == name })?.1 {
                reply(m) { v($0) }
            } else {
                replyError(m, "org.freedesktop.DBus.Error.UnknownProperty", "no such property")
            }

        // Accessible
        case ("org.a11y.atspi.Accessible", "GetChildAtIndex"):
            var r = DBusReader(m)
            let i = Int(r.int32() ?? -1)
            reply(m) { $0.reference(busName, i >= 0 && i < n.children.count ? path(n.children[i]) : Self.nullPath) }
        case ("org.a11y.atspi.Accessible", "GetChildren"):
            reply(m) { w in w.array("(so)") { a in for c in n.children { a.reference(busName, path(c)) } } }
        case ("org.a11y.atspi.Accessible", "GetIndexInParent"):
            reply(m) { $0.int32(Int32(clamping: n.indexInParent)) }
        case ("org.a11y.atspi.Accessible", "GetRelationSet"):
            reply(m) { $0.array("(ua(so))") { _ in } }
        case ("org.a11y.atspi.Accessible", "GetRole"):
            reply(m) { $0.uint32(ATSPI.role(e.role).code) }
        case ("org.a11y.atspi.Accessible", "GetRoleName"), ("org.a11y.atspi.Accessible", "GetLocalizedRoleName"):
            reply(m) { $0.string(ATSPI.role(e.role).name) }
        case ("org.a11y.atspi.Accessible", "GetState"):
            let (lo, hi) = ATSPI.stateBits(e, onScreen: n.onScreen)
            reply(m) { w in w.array("u") { $0.uint32(lo); $0.uint32(hi) } }
        case ("org.a11y.atspi.Accessible", "GetAttributes"):
            var attrs: [(String, String)] = [("toolkit", "Silk")]
            if let count = e.itemCount { attrs += [("item-count", String(count)), ("setsize", String(count))] }
            reply(m) { $0.stringDictionary(attrs) }
        case ("org.a11y.atspi.Accessible", "GetApplication"):
            reply(m) { $0.reference(busName, Self.rootPath) }
        case ("org.a11y.atspi.Accessible", "GetInterfaces"):
            let list = interfaces(of: n)
            reply(m) { w in w.array("s") { a in for s in list { a.string(s) } } }

        // Component (coordinates: the window's, in points, for every coordinate type: a Wayland
        // client does not know where its window is on screen)
        case ("org.a11y.atspi.Component", "GetExtents"):
            let f = e.frame
            reply(m) { w in w.structure { s in s.int32(clampInt(f.minX)); s.int32(clampInt(f.minY)); s.int32(clampInt(f.width)); s.int32(clampInt(f.height)) } }
        case ("org.a11y.atspi.Component", "GetPosition"):
            reply(m) { $0.int32(clampInt(e.frame.minX)); $0.int32(clampInt(e.frame.minY)) }
        case ("org.a11y.atspi.Component", "GetSize"):
            reply(m) { $0.int32(clampInt(e.frame.width)); $0.int32(clampInt(e.frame.height)) }
        case ("org.a11y.atspi.Component", "Contains"):
            var r = DBusReader(m)
            let x = Double(r.int32() ?? Int32.min), y = Double(r.int32() ?? Int32.min)
            reply(m) { $0.bool(e.frame.contains(Point(x: x, y: y))) }
        case ("org.a11y.atspi.Component", "GetAccessibleAtPoint"):
            var r = DBusReader(m)
            let p = Point(x: Double(r.int32() ?? Int32.min), y: Double(r.int32() ?? Int32.min))
            let hit = exported.deepest(containing: p, under: id)
            reply(m) { $0.reference(busName, hit.map(path) ?? Self.nullPath) }
        case ("org.a11y.atspi.Component", "GetLayer"):
            reply(m) { $0.uint32(e.role == .window ? 7 : 3) }   // ATSPI_LAYER_WINDOW / WIDGET
        case ("org.a11y.atspi.Component", "GetMDIZOrder"):
            reply(m) { $0.int16(0) }
        case ("org.a11y.atspi.Component", "GetAlpha"):
            reply(m) { $0.double(1) }
        case ("org.a11y.atspi.Component", "GrabFocus"):
            let ok = grabFocus(id)
            reply(m) { $0.bool(ok) }

        // Action
        case ("org.a11y.atspi.Action", "GetName"), ("org.a11y.atspi.Action", "GetLocalizedName"):
            var r = DBusReader(m)
            let i = Int(r.int32() ?? -1)
            reply(m) { $0.string(i >= 0 && i < e.actions.count ? e.actions[i].name : "") }
        case ("org.a11y.atspi.Action", "GetDescription"):
            reply(m) { $0.string(e.hint ?? "") }
        case ("org.a11y.atspi.Action", "GetKeyBinding"):
            reply(m) { $0.string("") }
        case ("org.a11y.atspi.Action", "GetActions"):
            reply(m) { w in w.array("(sss)") { a in for act in e.actions { a.structure { s in s.string(act.name); s.string(e.hint ?? ""); s.string("") } } } }
        case ("org.a11y.atspi.Action", "DoAction"):
            var r = DBusReader(m)
            let i = Int(r.int32() ?? -1)
            let ok = i >= 0 && i < e.actions.count && perform(e.actions[i], on: id)
            reply(m) { $0.bool(ok) }

        // Text (read-only; offsets count Unicode scalars, as AT-SPI's characters do)
        case ("org.a11y.atspi.Text", _):
            return handleText(m, h, e)

        // Value (read-only: a client steps it with the increment/decrement actions)
        case ("org.a11y.atspi.Value", _):
            return unknownMethod(m, h)

        // Selection: the children with the selected state; selecting one activates it.
        case ("org.a11y.atspi.Selection", "GetSelectedChild"):
            var r = DBusReader(m)
            let i = Int(r.int32() ?? -1), selected = selectedChildren(n)
            reply(m) { $0.reference(busName, i >= 0 && i < selected.count ? path(selected[i]) : Self.nullPath) }
        case ("org.a11y.atspi.Selection", "IsChildSelected"):
            var r = DBusReader(m)
            let i = Int(r.int32() ?? -1)
            let on = i >= 0 && i < n.children.count && exported.nodes[n.children[i]]?.element.states.contains(.selected) == true
            reply(m) { $0.bool(on) }
        case ("org.a11y.atspi.Selection", "SelectChild"):
            var r = DBusReader(m)
            let i = Int(r.int32() ?? -1)
            let ok = i >= 0 && i < n.children.count && perform(.activate, on: n.children[i])
            reply(m) { $0.bool(ok) }
        case ("org.a11y.atspi.Selection", _):
            reply(m) { $0.bool(false) }
        default:
            return unknownMethod(m, h)
        }
        return true
    }

    private func handleText(_ m: OpaquePointer, _ h: DBusHeader, _ e: AccessibilityElement) -> Bool {
        let scalars = Array((ATSPI.text(of: e) ?? "").unicodeScalars)
        func slice(_ a: Int, _ b: Int) -> String {
            let lo = max(0, min(a, scalars.count)), hi = b < 0 ? scalars.count : max(lo, min(b, scalars.count))
            var s = String.UnicodeScalarView()
            s.append(contentsOf: scalars[lo..<hi])
            return String(s)
        }
        var r = DBusReader(m)
        switch h.member {
        case "GetText":
            let a = Int(r.int32() ?? 0), b = Int(r.int32() ?? -1)
            reply(m) { $0.string(slice(a, b)) }
        case "GetCharacterAtOffset":
            let i = Int(r.int32() ?? -1)
            reply(m) { $0.int32(i >= 0 && i < scalars.count ? Int32(bitPattern: scalars[i].value) : 0) }
        case "GetTextAtOffset", "GetTextBeforeOffset", "GetTextAfterOffset", "GetStringAtOffset":
            // Without line and word boundaries from the text layout here, the whole text is one
            // unit (what a one-line label or field is).
            if h.member == "GetStringAtOffset" {
                reply(m) { w in w.structure { s in s.string(slice(0, -1)); s.int32(0); s.int32(Int32(clamping: scalars.count)) } }
            } else {
                reply(m) { $0.string(slice(0, -1)); $0.int32(0); $0.int32(Int32(clamping: scalars.count)) }
            }
        case "GetNSelections":
            reply(m) { $0.int32(0) }
        case "GetSelection":
            reply(m) { $0.int32(0); $0.int32(0) }
        case "GetCaretOffset":
            reply(m) { $0.int32(Int32(clamping: scalars.count)) }
        case "GetAttributes", "GetAttributeRun":
            reply(m) { $0.stringDictionary([]); $0.int32(0); $0.int32(Int32(clamping: scalars.count)) }
        case "GetDefaultAttributes", "GetDefaultAttributeSet":
            reply(m) { $0.stringDictionary([]) }
        case "GetCharacterExtents", "GetRangeExtents":
            let f = e.frame
            reply(m) { $0.int32(clampInt(f.minX)); $0.int32(clampInt(f.minY)); $0.int32(clampInt(f.width)); $0.int32(clampInt(f.height)) }
        default:
            return unknownMethod(m, h)
        }
        return true
    }

    // MARK: Acting on nodes (main thread)

    private func node(for id: UInt64) -> (DisplayNode, WindowEntry)? {
        for w in windows.current {
            if let n = findNode(id, in: w.root) { return (n, w) }
        }
        return nil
    }

    private func findNode(_ id: UInt64, in node: DisplayNode) -> DisplayNode? {
        if node.accessibilityID == id { return node }
        for c in node.subnodes { if let hit = findNode(id, in: c) { return hit } }
        return nil
    }

    /// Runs `body` on the main thread and waits (at most a second) for its answer.
    private func onMain(_ anchor: DisplayNode, _ body: @escaping @Sendable () -> Bool) -> Bool {
        let result = Locked<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        anchor.performOnPassThread {
            let ok = body()
            result.withLock { $0 = ok }
            done.signal()
        }
        guard done.wait(timeout: .now() + 1) == .success else {
            logger.debug("accessibility: the main thread did not answer within a second")
            return false
        }
        return result.current ?? false
    }

    private func perform(_ action: AccessibilityAction, on id: UInt64) -> Bool {
        guard let (target, _) = node(for: id) else { return false }
        let ok = onMain(target) { target.performAccessibilityAction(action) }
        wake()   // what the action changed reaches clients soon, even without a notification
        return ok
    }

    private func grabFocus(_ id: UInt64) -> Bool {
        guard let (target, window) = node(for: id), let focus = window.focus else { return false }
        return onMain(target) { focus(target) }
    }
}

private func clampInt(_ v: Double) -> Int32 {
    guard v.isFinite else { return 0 }
    return Int32(max(Double(Int32.min), min(Double(Int32.max), v.rounded())))
}

/// One exported element and where it sits.
struct ExportedNode {
    var element: AccessibilityElement
    var parent: UInt64?
    var indexInParent: Int
    var children: [UInt64]
    var onScreen: Bool
    var selectionContainer: Bool
}

/// The exported objects by id: the windows (synthetic frames) and their elements. Element
/// values keep no children (`children` holds the ids).
struct ExportedTree {
    var nodes: [UInt64: ExportedNode] = [:]
    var windowIDs: [UInt64] = []

    init() {}

    init(windows: [AccessibilityBridge.WindowEntry]) {
        for (wi, w) in windows.enumerated() {
            let snapshot = w.root.accessibilitySnapshot()
            let top = w.root.isAccessibilityElement ? [snapshot] : snapshot.children
            let bounds = Rect(size: w.size)
            let frame = AccessibilityElement(id: w.id, role: .window, label: w.title, frame: bounds)
            windowIDs.append(w.id)
            add(frame, children: top, parent: 0, index: wi, bounds: bounds)
        }
    }

    private mutating func add(_ e: AccessibilityElement, children: [AccessibilityElement], parent: UInt64, index: Int, bounds: Rect) {
        var bare = e
        bare.children = []
        let selectable = children.contains { $0.states.contains(.selectable) || $0.states.contains(.selected) }
        nodes[e.id] = ExportedNode(element: bare, parent: parent, indexInParent: index, children: children.map(\.id),
                                   onScreen: e.role == .window || bounds.intersects(e.frame),
                                   selectionContainer: selectable || e.role == .list || e.role == .pageTabList || e.role == .radioGroup)
        for (i, c) in children.enumerated() { add(c, children: c.children, parent: e.id, index: i, bounds: bounds) }
    }

    /// The deepest element under `id` whose frame contains `p` (front-most child first).
    func deepest(containing p: Point, under id: UInt64) -> UInt64? {
        guard let n = nodes[id], n.element.frame.contains(p) else { return nil }
        for c in n.children.reversed() { if let hit = deepest(containing: p, under: c) { return hit } }
        return id
    }
}
