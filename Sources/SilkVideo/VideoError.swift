/// Why a ``VideoNode`` cannot show its video; the node shows its poster instead. Reported to
/// ``VideoNodeDelegate/videoNode(_:didFailWith:)`` and kept as ``VideoNode/lastVideoError``.
public enum VideoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is neither a file nor http(s), or names no file.
    case invalidSource(String)
    /// GStreamer itself (or one of its base elements) is not available.
    case unavailable(String)
    /// The file or URL cannot be opened or read (missing file, HTTP error, refused connection).
    case unreadable(String)
    /// No installed GStreamer plugin decodes or demuxes the stream; the message names the format.
    case missingPlugin(String)
    /// The stream is damaged (a truncated or garbage file) or a decoder failed.
    case decodeFailed(String)

    /// One line for a person: what failed and, where known, what to install.
    public var description: String {
        switch self {
        case let .invalidSource(m): "invalid video source: \(m)"
        case let .unavailable(m): "video unavailable: \(m)"
        case let .unreadable(m): "cannot read the video: \(m)"
        case let .missingPlugin(m): "missing GStreamer plugin: \(m)"
        case let .decodeFailed(m): "cannot decode the video: \(m)"
        }
    }
}
