import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SilkNodes

/// One photo post of the feed (the JSON of the demo server's `/feed`).
public struct FeedPost: Decodable, Sendable, Equatable {
    public struct Author: Decodable, Sendable, Equatable {
        public let id: Int
        public let name: String
        public let avatarURL: URL
    }
    public let id: Int
    public let author: Author
    /// Unix seconds.
    public let time: Int
    public let caption: String
    public let photoURL: URL
    public let photoWidth: Int
    public let photoHeight: Int
    public let likes: Int
    public let comments: Int

    /// "now", "5m", "3h", "2d", "6w" before `now` (unix seconds).
    public func age(relativeTo now: Int) -> String {
        let s = max(0, now - time)
        switch s {
        case ..<60: return "now"
        case ..<3600: return "\(s / 60)m"
        case ..<86_400: return "\(s / 3600)h"
        case ..<(7 * 86_400): return "\(s / 86_400)d"
        default: return "\(s / (7 * 86_400))w"
        }
    }
}

/// A page of the feed.
public struct FeedPage: Decodable, Sendable {
    public let page: Int
    public let count: Int
    public let total: Int
    public let hasMore: Bool
    public let posts: [FeedPost]
}

public enum FeedError: Error, Sendable, Equatable, CustomStringConvertible {
    case http(Int)
    case connection(String)
    case badJSON(String)
    public var description: String {
        switch self {
        case let .http(code): "feed: HTTP status \(code)"
        case let .connection(s): "feed: \(s)"
        case let .badJSON(s): "feed: the server's JSON does not decode: \(s)"
        }
    }
}

/// Loads the feed page by page from `/feed?page=N&count=M` (the demo server's, or any server
/// speaking the same JSON). One page is fetched at a time; `loadNextPage` while one is in
/// flight is ignored (the batch-fetching contract: the table asks again when it needs more).
/// Thread-safe.
public final class FeedModel: @unchecked Sendable {
    public let baseURL: URL
    public let pageSize: Int
    private let session: URLSession
    private let lock = Lock()
    private var _posts: [FeedPost] = []
    private var _nextPage = 0
    private var _hasMore = true
    private var _loading = false

    public init(baseURL: URL, pageSize: Int = 20, timeout: TimeInterval = 15) {
        self.baseURL = baseURL
        self.pageSize = max(1, min(100, pageSize))
        let c = URLSessionConfiguration.ephemeral
        c.timeoutIntervalForRequest = timeout
        session = URLSession(configuration: c)
    }

    public var posts: [FeedPost] { lock.withLock { _posts } }
    public var hasMore: Bool { lock.withLock { _hasMore } }
    public var isLoading: Bool { lock.withLock { _loading } }

    /// Fetches the next page; `completion` (any thread) gets the new posts, which are also
    /// appended to `posts`. Returns false (and does nothing) when a page is already loading or
    /// the feed has ended.
    @discardableResult
    public func loadNextPage(completion: @escaping @Sendable (Result<[FeedPost], FeedError>) -> Void) -> Bool {
        let page = lock.withLock { () -> Int? in
            guard !_loading, _hasMore else { return nil }
            _loading = true
            return _nextPage
        }
        guard let page else { return false }
        let url = baseURL.appendingPathComponent("feed")
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "page", value: "\(page)"), URLQueryItem(name: "count", value: "\(pageSize)")]
        session.dataTask(with: components.url!) { [self] data, response, error in
            let result: Result<FeedPage, FeedError>
            if let error {
                result = .failure(.connection(error.localizedDescription))
            } else if let status = (response as? HTTPURLResponse)?.statusCode, status != 200 {
                result = .failure(.http(status))
            } else {
                do { result = .success(try JSONDecoder().decode(FeedPage.self, from: data ?? Data())) }
                catch { result = .failure(.badJSON("\(error)")) }
            }
            lock.withLock {
                _loading = false
                if case let .success(p) = result {
                    _posts += p.posts
                    _nextPage = page + 1
                    _hasMore = p.hasMore
                }
            }
            completion(result.map(\.posts))
        }.resume()
        return true
    }

    /// Blocks until the next page has loaded (tools and snapshots; never on the main loop).
    public func loadNextPageAndWait() throws(FeedError) -> [FeedPost] {
        let box = Locked<Result<[FeedPost], FeedError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        guard loadNextPage(completion: { r in box.withLock { $0 = r }; done.signal() }) else { return [] }
        done.wait()
        return try box.current!.get()
    }
}
