import Foundation

/// Where copied text goes and pasted text comes from. `Clipboard.current` is an in-app clipboard
/// until a presenter installs the system's (the Wayland data device). Main thread.
public protocol ClipboardProvider: AnyObject {
    /// Puts `text` on the clipboard (copy, cut).
    func setText(_ text: String)
    /// Asks for the clipboard's text; `completion` runs on the main thread, now or later (a
    /// Wayland paste reads from another client through a pipe), with nil when there is no text
    /// or it could not be read.
    func requestText(_ completion: @escaping (String?) -> Void)
}

/// The process's clipboard: one ``ClipboardProvider`` that editable nodes copy to and paste from.
/// The Wayland presenter replaces it with the compositor's data device; elsewhere it stays an
/// ``InAppClipboard``. A node given a clipboard of its own (`EditableTextNode.clipboard`) uses
/// that instead.
public enum Clipboard {
    /// The clipboard editable nodes use. Main thread.
    nonisolated(unsafe) public static var current: any ClipboardProvider = InAppClipboard()
}

/// A clipboard inside the process: copy and paste between the app's own fields (the framebuffer,
/// headless runs, or a compositor without a data device).
public final class InAppClipboard: ClipboardProvider {
    /// The text last copied, or nil before the first copy.
    public private(set) var text: String?
    /// An empty clipboard.
    public init() {}
    /// Replaces the clipboard's text (copy, cut).
    public func setText(_ text: String) { self.text = text }
    /// Calls `completion` at once with the clipboard's text (nil when nothing was copied).
    public func requestText(_ completion: @escaping (String?) -> Void) { completion(text) }
}
