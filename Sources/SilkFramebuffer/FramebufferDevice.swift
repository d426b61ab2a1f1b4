// The seam between the presenter and the kernel (STYLE point 3): everything the presenter asks of
// a framebuffer goes through this protocol, so it runs on `/dev/fbN` (`LinuxFramebufferDevice`,
// Framebuffer.swift) or on a plain file (`FileFramebufferDevice`) in unit tests.

/// A framebuffer device: its geometry, its memory, panning, vsync and blanking.
///
/// Threading: the presenter calls everything on the render thread, except `waitForVSync`, which
/// it calls on its vsync helper thread (so a driver that never signals cannot hang the app).
public protocol FramebufferDevice: AnyObject, Sendable {
    /// The device path, for messages ("/dev/fb0").
    var path: String { get }
    /// FBIOGET_VSCREENINFO + FBIOGET_FSCREENINFO.
    func screenInfo() throws(FramebufferError) -> ScreenInfo
    /// mmap(2) of the whole `memoryLength` (shared, read-write). Called once; valid until `close`.
    func mapMemory(length: Int) throws(FramebufferError) -> UnsafeMutableRawPointer
    /// FBIOPAN_DISPLAY to (0, `yOffset`).
    func pan(yOffset: Int) throws(FramebufferError)
    /// FBIO_WAITFORVSYNC: blocks until the next vertical blank.
    func waitForVSync() throws(FramebufferError)
    /// FBIOBLANK with FB_BLANK_UNBLANK (false) or FB_BLANK_NORMAL (true).
    func setBlanked(_ blanked: Bool) throws(FramebufferError)
    /// Unmaps and closes (idempotent).
    func close()
}
