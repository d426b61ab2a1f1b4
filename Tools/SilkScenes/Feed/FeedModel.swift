import Foundation
import SilkNetworkImage
import SilkNodes

/// One photo post of the feed (the JSON of the demo server's `/feed`).
public struct FeedPost: Decodable, Sendable, Equatable {
    public struct Author: Decodable, Sendable, Equatable {
        public let id: Int
        public let name: String
        public let avatarURL: URL
    }
    public let id: Int
    public private(set) var author: Author
    /// Unix seconds.
    public let time: Int
    public let caption: String
    /// The photo's address as the server sent it (checked to parse as a URL when decoded): a
    /// string is ≈ 80 bytes where a parsed `URL` is ≈ 230, and a long feed keeps every post.
    public let photoAddress: String
    public let photoWidth: Int
    public let photoHeight: Int
    public let likes: Int
    public let comments: Int

    /// The photo's URL, parsed from `photoAddress` when asked for (a cell being configured).
    /// Decoding refused addresses that do not parse, and decoding is the only way to make a
    /// post, so the fallback is never taken.
    public var photoURL: URL { URL(string: photoAddress) ?? URL(fileURLWithPath: "/") }

    private enum CodingKeys: String, CodingKey {
        case id, author, time, caption, photoURL, photoWidth, photoHeight, likes, comments
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        author = try c.decode(Author.self, forKey: .author)
        time = try c.decode(Int.self, forKey: .time)
        caption = try c.decode(String.self, forKey: .caption)
        photoAddress = try c.decode(String.self, forKey: .photoURL)
        // Empty is refused explicitly: Swift 6.0's Foundation (Debian trixie) parses "" as a URL,
        // newer ones do not, and a post without a photo address is as bad on both.
        guard !photoAddress.isEmpty, URL(string: photoAddress) != nil else {
            throw DecodingError.dataCorruptedError(forKey: .photoURL, in: c, debugDescription: "Invalid URL string.")
        }
        photoWidth = try c.decode(Int.self, forKey: .photoWidth)
        photoHeight = try c.decode(Int.self, forKey: .photoHeight)
        likes = try c.decode(Int.self, forKey: .likes)
        comments = try c.decode(Int.self, forKey: .comments)
    }

    /// A stand-in for the post at `index` whose page could not be fetched again: no author or
    /// photo (their addresses are not http, so nothing is downloaded), `reason` as the caption.
    public static func unavailable(index: Int, reason: String) -> FeedPost {
        FeedPost(id: -1 - index, author: Author(id: -1, name: "", avatarURL: URL(string: "about:blank")!), time: 0,
                 caption: "This post could not be loaded: \(reason)", photoAddress: "about:blank",
                 photoWidth: 3, photoHeight: 2, likes: 0, comments: 0)
    }

    private init(id: Int, author: Author, time: Int, caption: String, photoAddress: String, photoWidth: Int, photoHeight: Int,
                 likes: Int, comments: Int) {
        self.id = id; self.author = author; self.time = time; self.caption = caption; self.photoAddress = photoAddress
        self.photoWidth = photoWidth; self.photoHeight = photoHeight; self.likes = likes; self.comments = comments
    }

    /// This post with `author` in place of its own (an equal value whose storage is shared).
    func sharing(_ author: Author) -> FeedPost {
        var p = self
        p.author = author
        return p
    }

    /// "now", "5m", "3h", "2d", "6w" before `now` (unix seconds). `time` comes from the
    /// server, so the difference saturates instead of trapping (a `time` of -9223372036854775807
    /// used to kill the feed demo).
    public func age(relativeTo now: Int) -> String {
        let (difference, overflow) = now.subtractingReportingOverflow(time)
        let s = overflow ? (time < 0 ? Int.max : 0) : max(0, difference)
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

/// Fetches the feed's pages on Silk's libcurl client (`HTTPClient`): collects each page's body
/// under `maxBytes` and ends it at its deadline. The body is looked at as it arrives (a
/// completion-style fetch gathered the whole body before anyone could look: an endless feed
/// grew without bound), and a refusal stops the transfer at libcurl's next chunk.
final class FeedFetcher: @unchecked Sendable {
    private final class Fetch {
        let maxBytes: Int
        let completion: @Sendable (Result<Data, FeedError>) -> Void
        var data = Data()
        init(maxBytes: Int, completion: @escaping @Sendable (Result<Data, FeedError>) -> Void) {
            self.maxBytes = maxBytes; self.completion = completion
        }
    }
    private let client = HTTPClient(maxConnectionsPerHost: 2)
    private let lock = Lock()
    private var fetches: [Int: Fetch] = [:]  // by transfer id

    deinit { client.invalidate() }

    /// GETs `url` (asking for no content encoding; one a server uses anyway is decoded and counted
    /// as decoded), failing when no byte comes for `idleTimeout`, the body passes `maxBytes` or
    /// the whole fetch takes longer than `deadline`. `completion` runs once, on the client's
    /// thread or the deadline's.
    func start(_ url: URL, idleTimeout: TimeInterval, maxBytes: Int, deadline: TimeInterval,
               completion: @escaping @Sendable (Result<Data, FeedError>) -> Void) {
        let request = HTTPClient.Request(url: url.absoluteString, headers: ["Accept: application/json"],
                                         acceptEncoding: "identity", idleTimeout: idleTimeout)
        guard let id = client.makeTransfer(request, handler: { [weak self] id, event in self?.handle(id, event, idleTimeout: idleTimeout) }) else {
            completion(.failure(.connection("libcurl refused the request for \(url.absoluteString)")))
            return
        }
        lock.withLock { fetches[id] = Fetch(maxBytes: maxBytes, completion: completion) }
        // Our own deadline: an idle timeout does not end a trickle.
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + deadline) { [weak self] in
            self?.finish(id, .failure(.timedOut(seconds: deadline)))
        }
        client.resume(id)
    }

    /// Ends the fetch once (later calls and events find nothing) and stops its transfer.
    private func finish(_ id: Int, _ result: Result<Data, FeedError>) {
        guard let fetch = lock.withLock({ fetches.removeValue(forKey: id) }) else { return }
        client.cancel(id)  // nothing if it has completed
        fetch.completion(result)
    }

    private func handle(_ id: Int, _ event: HTTPClient.Event, idleTimeout: TimeInterval) {
        switch event {
        case let .head(status, length):
            let limit = lock.withLock { fetches[id]?.maxBytes } ?? 0
            if status != 200 { finish(id, .failure(.http(status))) }
            else if let length, length > limit { finish(id, .failure(.tooLarge(limit: limit))) }
        case let .data(data):
            let over = lock.withLock { () -> Int? in
                guard let fetch = fetches[id] else { return nil }
                fetch.data.append(data)
                return fetch.data.count > fetch.maxBytes ? fetch.maxBytes : nil
            }
            if let over { finish(id, .failure(.tooLarge(limit: over))) }
        case let .completed(failure):
            switch failure {
            case nil: finish(id, .success(lock.withLock { fetches[id]?.data } ?? Data()))
            case .cancelled?: finish(id, .failure(.connection("the request was cancelled")))
            case .timedOut?: finish(id, .failure(.connection("no data for \(idleTimeout) s (timed out)")))
            case let .transport(_, message)?: finish(id, .failure(.connection(message)))
            }
        }
    }
}

public enum FeedError: Error, Sendable, Equatable, CustomStringConvertible {
    case http(Int)
    case connection(String)
    case badJSON(String)
    /// The page (as received, after any content decoding) is larger than `FeedModel.maxBytes`.
    case tooLarge(limit: Int)
    /// The page did not arrive completely within `FeedModel.deadline` seconds.
    case timedOut(seconds: Double)
    public var description: String {
        switch self {
        case let .http(code): "feed: HTTP status \(code)"
        case let .connection(s): "feed: \(s)"
        case let .badJSON(s): "feed: the server's JSON does not decode: \(s)"
        case let .tooLarge(limit): "feed: the page is larger than the \(limit)-byte limit"
        case let .timedOut(s): "feed: the page did not arrive within \(s) s"
        }
    }
}

/// Loads the feed page by page from `/feed?page=N&count=M` (the demo server's, or any server
/// speaking the same JSON). One page is fetched at a time; `loadNextPage` while one is in
/// flight is ignored (the batch-fetching contract: the table asks again when it needs more).
/// Thread-safe.
///
/// Only a window of pages stays in memory: the `residentPages` (8) pages used most recently
/// (loaded, or read through `post(at:)` / `loadPost(at:)`). A post of a dropped page is fetched
/// again by its page number when asked for (`loadPost(at:)`, `loadPage(containing:)`) — the
/// server serves pages by cursor, so a page asked for twice is the same page. A feed of 10,000
/// posts keeps ≈ 400 of them, not all (feed-10k, docs/benchmark.md).
///
/// The server is not trusted (a kiosk shows feeds its operator does not control):
/// - a page larger than `maxBytes` (4 MiB; counted as received, so after libcurl inflated a
///   compressed answer) is cancelled as the bytes pass the limit: `FeedError.tooLarge`;
/// - a page that has not arrived completely `deadline` seconds (30) after the request is
///   cancelled: `FeedError.timedOut` — a server sending a byte a second cannot hold it;
/// - a page with more posts than asked for keeps the first `pageSize` (at most
///   `maximumPageSize`) and says so in one line through `log`.
public final class FeedModel: @unchecked Sendable {
    public let baseURL: URL
    public let pageSize: Int
    /// The largest page accepted, in bytes as received.
    public let maxBytes: Int
    /// Seconds a whole page may take.
    public let deadline: TimeInterval
    /// Pages of posts kept in memory at most (the most recently used ones).
    public let residentPages: Int
    /// The most posts a page may ask for (and keep).
    public static let maximumPageSize = 100
    public static let defaultMaxBytes = 4 << 20
    /// Seconds without a byte before a page fails.
    public let timeout: TimeInterval
    /// Whether page responses go to an HTTP cache: never (Silk's client has none; a page's posts
    /// are kept, or fetched again by page number). For tests.
    public var cachesResponses: Bool { false }
    private let fetcher = FeedFetcher()
    private let log: @Sendable (String) -> Void
    private let lock = Lock()
    /// The posts of each page in memory, by page number.
    private var _pages: [Int: [FeedPost]] = [:]
    /// Page numbers in memory, least recently used first (at most `residentPages`).
    private var _pageOrder: [Int] = []
    /// The index of each loaded page's first post (a page may hold fewer than `pageSize`).
    private var _pageStarts: [Int] = []
    private var _count = 0
    /// Pages being fetched again, with who waits for them.
    private var _refetching: [Int: [@Sendable (Result<Void, FeedError>) -> Void]] = [:]
    /// One `Author` per author id seen, so posts by the same author share its name and avatar
    /// URL (feed-10k: 40 authors in 10,000 posts; ≈ 2 MiB of parsed avatar URLs otherwise).
    /// Bounded like the resident posts: emptied when it passes `residentPages × pageSize`.
    private var _authors: [Int: FeedPost.Author] = [:]
    private var _nextPage = 0
    private var _hasMore = true
    private var _loading = false

    /// - Parameters:
    ///   - timeout: seconds without a byte before the page fails (idle timeout).
    ///   - residentPages: pages of posts kept in memory at most (at least 1); the others are
    ///     fetched again when asked for.
    ///   - log: where the one-line notes go (a page with extra posts); stderr by default.
    public init(baseURL: URL, pageSize: Int = 20, timeout: TimeInterval = 15, maxBytes: Int = FeedModel.defaultMaxBytes,
                deadline: TimeInterval = 30, residentPages: Int = 8,
                log: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data("silk: \($0)\n".utf8)) }) {
        self.baseURL = baseURL
        self.pageSize = max(1, min(FeedModel.maximumPageSize, pageSize))
        self.maxBytes = max(1, maxBytes)
        self.deadline = deadline.isFinite && deadline > 0 ? deadline : 30
        self.residentPages = max(1, residentPages)
        self.log = log
        self.timeout = timeout
    }

    /// Posts loaded so far (in memory or not): the feed's length as far as it is known.
    public var count: Int { lock.withLock { _count } }
    public var hasMore: Bool { lock.withLock { _hasMore } }
    public var isLoading: Bool { lock.withLock { _loading } }
    /// Pages whose posts are in memory now (at most `residentPages`).
    public var residentPageCount: Int { lock.withLock { _pages.count } }
    /// The posts in memory now, in feed order (all of them while the feed is within
    /// `residentPages` pages).
    public var residentPosts: [FeedPost] {
        lock.withLock { _pages.keys.sorted().flatMap { _pages[$0]! } }
    }

    /// The post at `index` if its page is in memory (the page then counts as used); nil for a
    /// dropped page (`loadPost(at:)` fetches it) or an index not loaded yet. Any thread.
    public func post(at index: Int) -> FeedPost? {
        lock.withLock {
            guard let (page, offset) = _locked_locate(index), let posts = _pages[page] else { return nil }
            _locked_touch(page)
            return offset < posts.count ? posts[offset] : nil
        }
    }

    /// The post at `index`, fetching its page again if it was dropped: blocks until it arrived
    /// (on a background thread, never the main loop). Concurrent calls for one page share one
    /// fetch.
    public func loadPost(at index: Int) throws(FeedError) -> FeedPost {
        if let post = post(at: index) { return post }
        let box = Locked<Result<Void, FeedError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        loadPage(containing: index) { r in box.withLock { $0 = r }; done.signal() }
        done.wait()
        try box.current!.get()
        guard let post = post(at: index) else { throw .badJSON("post \(index) is not in its page any more") }
        return post
    }

    /// Brings the page holding post `index` back into memory (a no-op when it is there);
    /// `completion` (any thread) follows. Concurrent requests for one page share one fetch.
    public func loadPage(containing index: Int, completion: @escaping @Sendable (Result<Void, FeedError>) -> Void) {
        enum Next { case done, wait, fetch(Int, expected: Int), invalid }
        let next = lock.withLock { () -> Next in
            guard let (page, _) = _locked_locate(index) else { return .invalid }
            if _pages[page] != nil { _locked_touch(page); return .done }
            if _refetching[page] != nil { _refetching[page]!.append(completion); return .wait }
            _refetching[page] = [completion]
            let end = page + 1 < _pageStarts.count ? _pageStarts[page + 1] : _count
            return .fetch(page, expected: end - _pageStarts[page])
        }
        switch next {
        case .done: completion(.success(()))
        case .invalid: completion(.failure(.badJSON("post \(index) is not loaded")))
        case .wait: break
        case let .fetch(page, expected):
            fetchPage(page) { [self] result in
                let waiting = lock.withLock { () -> [@Sendable (Result<Void, FeedError>) -> Void] in
                    if case let .success(p) = result { _locked_keep(page, sharingAuthors(Array(p.posts.prefix(expected)))) }
                    return _refetching.removeValue(forKey: page) ?? []
                }
                let outcome = result.map { _ in () }
                for w in waiting { w(outcome) }
            }
        }
    }

    /// Fetches the next page; `completion` (any thread) gets the new posts, which are also
    /// kept (`post(at:)`). Returns false (and does nothing) when a page is already loading or
    /// the feed has ended.
    @discardableResult
    public func loadNextPage(completion: @escaping @Sendable (Result<[FeedPost], FeedError>) -> Void) -> Bool {
        let page = lock.withLock { () -> Int? in
            guard !_loading, _hasMore else { return nil }
            _loading = true
            return _nextPage
        }
        guard let page else { return false }
        fetchPage(page) { [self] result in
            let kept = lock.withLock { () -> [FeedPost]? in
                _loading = false
                guard case let .success(p) = result else { return nil }
                let shared = sharingAuthors(p.posts)
                _pageStarts.append(_count)
                _count += shared.count
                _locked_keep(page, shared)
                _nextPage = page + 1
                _hasMore = p.hasMore
                return shared
            }
            // The posts as kept (authors shared).
            completion(result.map { kept ?? $0.posts })
        }
        return true
    }

    /// Requests page `page` and decodes it; `completion` on the fetcher's client thread (or its
    /// deadline's).
    private func fetchPage(_ page: Int, completion: @escaping @Sendable (Result<FeedPage, FeedError>) -> Void) {
        // The base's own query (a test server's fault options) is kept; page and count follow.
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        components.path = (components.path.hasSuffix("/") ? components.path : components.path + "/") + "feed"
        components.queryItems = (components.queryItems ?? [])
            + [URLQueryItem(name: "page", value: "\(page)"), URLQueryItem(name: "count", value: "\(pageSize)")]
        let pageSize = self.pageSize, log = self.log
        // Uncompressed (the fetcher asks for identity). A server that compresses anyway is still
        // bounded: `maxBytes` counts the decoded bytes.
        fetcher.start(components.url!, idleTimeout: timeout, maxBytes: maxBytes, deadline: deadline) { fetched in
            completion(fetched.flatMap { data in
                Result { () throws(FeedError) -> FeedPage in try FeedModel.decodePage(data, pageSize: pageSize, log: log) }
            })
        }
    }

    /// The page holding post `index` and the post's offset in it. Under `lock`.
    private func _locked_locate(_ index: Int) -> (page: Int, offset: Int)? {
        guard index >= 0, index < _count else { return nil }
        // The last page starting at or before `index`.
        var a = 0, b = _pageStarts.count
        while a < b { let m = (a + b) / 2; if _pageStarts[m] <= index { a = m + 1 } else { b = m } }
        let page = a - 1
        return (page, index - _pageStarts[page])
    }

    /// Marks `page` the most recently used. Under `lock`.
    private func _locked_touch(_ page: Int) {
        guard _pageOrder.last != page else { return }
        if let i = _pageOrder.lastIndex(of: page) { _pageOrder.remove(at: i) }
        _pageOrder.append(page)
    }

    /// Keeps `posts` as page `page`, dropping the least recently used pages beyond
    /// `residentPages`. Under `lock`.
    private func _locked_keep(_ page: Int, _ posts: [FeedPost]) {
        _pages[page] = posts
        _locked_touch(page)
        while _pageOrder.count > residentPages { _pages[_pageOrder.removeFirst()] = nil }
    }

    /// `posts` with each author replaced by the first equal one seen. Under `lock`.
    private func sharingAuthors(_ posts: [FeedPost]) -> [FeedPost] {
        // Bounded like the posts (a server may give every post its own author).
        if _authors.count > residentPages * pageSize { _authors.removeAll() }
        return posts.map { post in
            if let known = _authors[post.author.id] {
                return known == post.author ? post.sharing(known) : post
            }
            _authors[post.author.id] = post.author
            return post
        }
    }

    /// Decodes one page's JSON, keeping at most `pageSize` posts (clamped to
    /// `maximumPageSize`); a page with more says so through `log`, once, in one line. Errors
    /// are one line too: a decoding error's text is cut to 200 characters, since it may quote
    /// the server's data.
    public static func decodePage(_ data: Data, pageSize: Int,
                                  log: (String) -> Void = { _ in }) throws(FeedError) -> FeedPage {
        let page: FeedPage
        do { page = try JSONDecoder().decode(FeedPage.self, from: data) } catch {
            let text = "\(error)".replacingOccurrences(of: "\n", with: " ")
            throw .badJSON(text.count > 200 ? String(text.prefix(200)) + "…" : text)
        }
        let keep = max(1, min(maximumPageSize, pageSize))
        guard page.posts.count > keep else { return page }
        log("feed page \(page.page) has \(page.posts.count) posts where \(keep) were asked for; keeping the first \(keep)")
        return FeedPage(page: page.page, count: keep, total: page.total, hasMore: page.hasMore, posts: Array(page.posts.prefix(keep)))
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
