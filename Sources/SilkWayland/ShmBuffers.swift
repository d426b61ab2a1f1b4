import CWaylandClient
import SilkGeometry
import SilkRaster
import SilkRender

/// One `wl_buffer` over its own sealed memfd, and what the presenter knows about it.
///
/// Lifecycle contract (the rules the presenter follows):
/// - **Busy**: from the commit that attaches it until `wl_buffer.release`. A busy buffer is
///   never written — the compositor may be reading it at any moment — and never destroyed: a
///   retired buffer (after a resize) is destroyed on its release.
/// - **Age**: the frame number whose pixels it holds (`presentedFrame`); 0 = never painted.
///   Presenting frame *n* into a buffer that holds frame *m* copies the union of the damage of
///   frames *m+1 … n* from the compositor's back buffer (`BufferChain.damageHistory`, a
///   `BufferAgeDamage`), or everything when that history is gone.
/// - **Damage**: `wl_surface.damage_buffer` gets only frame *n*'s damage — what changed since
///   the buffer the compositor showed before, whichever buffer that was.
final class ShmBuffer {
    let memory: SharedMemory
    let buffer: OpaquePointer
    /// The buffer's pixels as a bitmap (XRGB32 or ARGB32, premultiplied).
    let bitmap: Bitmap
    let width: Int
    let height: Int
    var isBusy = false
    var presentedFrame = 0
    /// Replaced by a resize: destroy on release instead of reusing.
    var isRetired = false

    /// Creates the memfd, a pool over it (on the render queue, through `shm`'s wrapper), and
    /// one buffer spanning the pool; the pool itself is destroyed at once (the buffer keeps the
    /// memory alive in the compositor).
    init(shm: OpaquePointer, width: Int, height: Int, opaque: Bool) throws(WaylandError) {
        let stride = width * 4
        memory = try SharedMemory(size: stride * height)
        guard let pool = wl_shm_create_pool(shm, memory.fd, Int32(memory.size)) else {
            throw WaylandError(call: "wl_shm.create_pool", "failed")
        }
        let format = opaque ? WL_SHM_FORMAT_XRGB8888 : WL_SHM_FORMAT_ARGB8888
        guard let b = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(stride), format.rawValue) else {
            wl_shm_pool_destroy(pool)
            throw WaylandError(call: "wl_shm_pool.create_buffer", "failed")
        }
        wl_shm_pool_destroy(pool)
        buffer = b
        self.width = width
        self.height = height
        do {
            bitmap = try Bitmap(wrapping: memory.address, width: width, height: height, stride: stride,
                                format: opaque ? .xrgb32 : .argb32, owner: memory)
        } catch {
            wl_buffer_destroy(b)
            throw WaylandError(call: "pixman_image_create_bits", error.description)
        }
        wl_buffer_add_listener(buffer, bufferListener, unretained(self))
    }

    deinit { wl_buffer_destroy(buffer) }

    fileprivate func handleRelease() {
        isBusy = false
        if isRetired { BufferChain.retiredReleased(self) }
    }
}

private nonisolated(unsafe) let bufferListener = stableListener(wl_buffer_listener(
    release: { data, _ in owner(data, as: ShmBuffer.self).handleRelease() }))

/// The presenter's buffers at the current size, with the damage history buffer age needs.
/// Render thread only.
final class BufferChain {
    /// Buffers that a resize replaced while the compositor held them, kept alive until released.
    /// Render thread only (like every other use of this type).
    nonisolated(unsafe) private static var retired: [ObjectIdentifier: ShmBuffer] = [:]

    private let shm: OpaquePointer?
    let maxBuffers: Int
    private(set) var buffers: [ShmBuffer] = []
    private(set) var width = 0
    private(set) var height = 0
    private(set) var opaque = true
    /// Damage of the last 8 frames, for buffers that missed some (buffer age).
    var damageHistory = BufferAgeDamage(historyLimit: 8)

    init(shm: OpaquePointer?, maxBuffers: Int = 4) {
        self.shm = shm
        self.maxBuffers = maxBuffers
    }

    /// Buffers of another size or format are retired (destroyed now if idle, else on release).
    func resize(width: Int, height: Int, opaque: Bool) {
        guard width != self.width || height != self.height || opaque != self.opaque else { return }
        for b in buffers {
            if b.isBusy { b.isRetired = true; BufferChain.retired[ObjectIdentifier(b)] = b }
        }
        buffers = []
        self.width = width; self.height = height; self.opaque = opaque
    }

    fileprivate static func retiredReleased(_ b: ShmBuffer) {
        retired[ObjectIdentifier(b)] = nil
    }

    /// An idle buffer, creating one while fewer than `maxBuffers` exist; nil when all are busy
    /// (wait for a release and ask again).
    func idleBuffer() throws(WaylandError) -> ShmBuffer? {
        // Prefer the most recently presented idle buffer: it needs the least copying.
        if let b = buffers.filter({ !$0.isBusy }).max(by: { $0.presentedFrame < $1.presentedFrame }) { return b }
        guard buffers.count < maxBuffers else { return nil }
        guard let shm else { return nil }
        let b = try ShmBuffer(shm: shm, width: width, height: height, opaque: opaque)
        buffers.append(b)
        return b
    }

    /// Buffers the compositor currently holds (statistics).
    var busyCount: Int { buffers.filter(\.isBusy).count }

    func destroyAll() {
        buffers = []
        BufferChain.retired = [:]
    }
}
