import Foundation
import SilkRaster

/// Why a network image could not be shown. Every failure ends as one of these (never a crash
/// or an endless wait); `description` is one line that names the URL's problem.
public enum NetworkImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not an http(s) URL.
    case unsupportedURL(String)
    /// The server answered with a status other than 2xx (after retries for 5xx).
    case httpStatus(Int)
    /// No data arrived for the idle timeout (after retries).
    case timedOut(seconds: Double)
    /// The connection failed or was closed before the whole body arrived (after retries).
    case connection(String)
    /// The body is larger than the loader accepts.
    case tooLarge(bytes: Int, limit: Int)
    /// The bytes are not an image Silk decodes, are damaged, or claim more pixels than the
    /// limit (`RasterError.tooManyPixels`, detected from the header before the body arrives).
    case decoding(RasterError)
    /// The downloader was invalidated (shut down) before this load could start.
    case invalidated

    /// One line naming the problem ("HTTP status 404", "connection failed: …").
    public var description: String {
        switch self {
        case let .unsupportedURL(u): "not an http(s) URL: \(u)"
        case let .httpStatus(code): "HTTP status \(code)"
        case let .timedOut(s): "no data for \(s) s (timed out)"
        case let .connection(reason): "connection failed: \(reason)"
        case let .tooLarge(bytes, limit): "image of \(bytes) bytes is larger than the \(limit)-byte limit"
        case let .decoding(e): e.description
        case .invalidated: "the image downloader was shut down (invalidated) before the load started"
        }
    }

    /// Worth another attempt: connection failures, timeouts and server errors (5xx). A 404,
    /// bad bytes or an oversized image will not get better.
    public var isTransient: Bool {
        switch self {
        case let .httpStatus(code): code >= 500 && code <= 599
        case .timedOut, .connection: true
        case .unsupportedURL, .tooLarge, .decoding, .invalidated: false
        }
    }
}
