import CWaylandClient
import CWaylandProtocols
import Foundation
import Glibc
import SilkInput
import SilkRunLoop
import SilkSystem

/// The compositor's clipboard through the core `wl_data_device` protocol (main thread).
///
/// - Copy: a `wl_data_source` offering UTF-8 text becomes the selection, quoting the serial of
///   the latest key, button or touch (`WaylandSeat.lastInputSerial`: compositors ignore a
///   selection set without a recent user action). Another client reading it gets the text
///   written into the pipe it sends (`wl_data_source.send`). When another client takes the
///   selection, the source is cancelled and destroyed.
/// - Paste: the current selection's `wl_data_offer` is asked for a text type
///   (`wl_data_offer.receive` with the write end of a pipe); the read end is read on the loop,
///   without blocking, until the other client closes it, or 2 s pass.
/// While our own source holds the selection, paste answers from it directly (reading our own
/// pipe on the thread that must also write it would deadlock a blocking implementation).
final class WaylandClipboard: ClipboardProvider {
    static let textTypes = ["text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "TEXT", "STRING"]

    private let manager: OpaquePointer
    private let version: UInt32
    private unowned let display: WaylandDisplay
    private let loop: EventLoop
    private var devices: [(seat: WaylandSeat, device: OpaquePointer)] = []
    /// Our source while it holds the selection, and its text.
    private var source: OpaquePointer?
    private var sourceText = ""
    /// Offers the compositor introduced, with their MIME types; the selection is one of them.
    private var offers: [OpaquePointer: [String]] = [:]
    private var selection: OpaquePointer?

    init(manager: OpaquePointer, version: UInt32, display: WaylandDisplay, loop: EventLoop) {
        self.manager = manager; self.version = version; self.display = display; self.loop = loop
    }

    func destroy() {
        for o in offers.keys { wl_data_offer_destroy(o) }
        offers.removeAll()
        if let source { wl_data_source_destroy(source) }
        source = nil
        for d in devices { version >= 2 ? wl_data_device_release(d.device) : wl_data_device_destroy(d.device) }
        devices.removeAll()
    }

    /// Listens to a seat's selection (`wl_data_device_manager.get_data_device`).
    func add(_ seat: WaylandSeat) {
        guard !devices.contains(where: { $0.seat === seat }), let device = wl_data_device_manager_get_data_device(manager, seat.proxy) else { return }
        wl_data_device_add_listener(device, dataDeviceListener, unretained(self))
        devices.append((seat, device))
    }

    // MARK: ClipboardProvider

    func setText(_ text: String) {
        guard let (seat, device) = devices.max(by: { $0.seat.lastInputSerial < $1.seat.lastInputSerial }) else { return }
        guard let src = wl_data_device_manager_create_data_source(manager) else { return }
        for type in Self.textTypes { wl_data_source_offer(src, type) }
        wl_data_source_add_listener(src, dataSourceListener, unretained(self))
        if let old = source { wl_data_source_destroy(old) }
        source = src
        sourceText = text
        wl_data_device_set_selection(device, src, seat.lastInputSerial)
        display.flush()
    }

    func requestText(_ completion: @escaping (String?) -> Void) {
        if source != nil { completion(sourceText); return }
        guard let offer = selection, let types = offers[offer],
              let type = Self.textTypes.first(where: types.contains) else { completion(nil); return }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { completion(nil); return }
        let (readEnd, writeEnd) = (fds[0], fds[1])
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        wl_data_offer_receive(offer, type, writeEnd)
        display.flush()
        close(writeEnd)
        PipeRead(fd: readEnd, loop: loop, completion: completion).start()
    }

    // MARK: Events

    fileprivate func handleDataOffer(_ offer: OpaquePointer?) {
        guard let offer else { return }
        offers[offer] = []
        wl_data_offer_add_listener(offer, dataOfferListener, unretained(self))
    }

    fileprivate func handleOfferType(_ offer: OpaquePointer?, _ type: UnsafePointer<CChar>?) {
        guard let offer, let type else { return }
        offers[offer, default: []].append(String(cString: type))
    }

    /// The selection changed (nil: cleared). The previous selection offer is done with.
    fileprivate func handleSelection(_ offer: OpaquePointer?) {
        if let old = selection, old != offer {
            wl_data_offer_destroy(old)
            offers[old] = nil
        }
        selection = offer
    }

    /// A drag-and-drop offer that is not the selection: not supported, dropped.
    fileprivate func handleDragEnter(_ offer: OpaquePointer?) {
        guard let offer, offer != selection else { return }
        wl_data_offer_destroy(offer)
        offers[offer] = nil
    }

    fileprivate func handleSend(_ src: OpaquePointer?, fd: Int32) {
        defer { close(fd) }
        guard src == source else { return }
        // Small text fits the pipe; a reader that reads nothing cannot hold us forever (EPIPE).
        var bytes = Array(sourceText.utf8)
        var offset = 0
        while offset < bytes.count {
            guard let n = try? systemCall("write", { bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) } })
            else { break }
            offset += n
        }
        bytes.removeAll()
    }

    fileprivate func handleCancelled(_ src: OpaquePointer?) {
        guard let src else { return }
        wl_data_source_destroy(src)
        if src == source { source = nil; sourceText = "" }
    }
}

/// Reads a pipe to its end on the loop, with a deadline.
private final class PipeRead {
    let fd: Int32
    let loop: EventLoop
    var completion: ((String?) -> Void)?
    var data: [UInt8] = []
    var token: SourceToken?
    var timer: TimerToken?

    init(fd: Int32, loop: EventLoop, completion: @escaping (String?) -> Void) {
        self.fd = fd; self.loop = loop; self.completion = completion
    }

    func start() {
        do {
            token = try loop.addSource(fd: fd, events: .readable) { [self] _ in readAvailable() }
        } catch {
            finish(nil); return
        }
        timer = loop.addTimer(after: .seconds(2)) { [self] in finish(nil) }
    }

    private func readAvailable() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n: Int
            do throws(SystemCallError) {
                n = try systemCall("read(clipboard pipe)") { buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } }
            } catch {
                if error.errno == EAGAIN { return }
                finish(nil); return
            }
            if n > 0 { data.append(contentsOf: buffer[0..<n]); if data.count > 16 << 20 { finish(nil); return }; continue }
            finish(String(decoding: data, as: UTF8.self)); return
        }
    }

    private func finish(_ text: String?) {
        guard let completion else { return }
        self.completion = nil
        if let token { loop.removeSource(token) }
        if let timer { loop.cancelTimer(timer) }
        close(fd)
        completion(text)
    }
}

private nonisolated(unsafe) let dataDeviceListener = stableListener(wl_data_device_listener(
    data_offer: { data, _, offer in owner(data, as: WaylandClipboard.self).handleDataOffer(offer) },
    enter: { data, _, _, _, _, _, offer in owner(data, as: WaylandClipboard.self).handleDragEnter(offer) },
    leave: { _, _ in },
    motion: { _, _, _, _, _ in },
    drop: { _, _ in },
    selection: { data, _, offer in owner(data, as: WaylandClipboard.self).handleSelection(offer) }))

private nonisolated(unsafe) let dataOfferListener = stableListener(wl_data_offer_listener(
    offer: { data, offer, type in owner(data, as: WaylandClipboard.self).handleOfferType(offer, type) },
    source_actions: { _, _, _ in },
    action: { _, _, _ in }))

private nonisolated(unsafe) let dataSourceListener = stableListener(wl_data_source_listener(
    target: { _, _, _ in },
    send: { data, src, _, fd in owner(data, as: WaylandClipboard.self).handleSend(src, fd: fd) },
    cancelled: { data, src in owner(data, as: WaylandClipboard.self).handleCancelled(src) },
    dnd_drop_performed: { _, _ in },
    dnd_finished: { _, _ in },
    action: { _, _, _ in }))
