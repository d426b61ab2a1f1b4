import FuzzSupport
import Foundation
import SilkScenes

// libFuzzer target: the feed JSON parser (`FeedModel.decodePage`: JSONDecoder into FeedPage,
// the per-page post cap) and every post's age against a fuzzed "now" (`FeedPost.age`, which
// trapped on a hostile `time`). The first 8 bytes pick "now" and the page size; the rest is the
// JSON. Seeds: Fuzz/corpus/feed (a demo page, hostile times, an overfull page).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeed(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    var input = FuzzInput(data, count)
    let now = Int(input.int32()) << 32 | Int(UInt32(bitPattern: input.int32()))
    let pageSize = input.below(120)
    let json = Data(input.remaining)
    do {
        let page = try FeedModel.decodePage(json, pageSize: pageSize) { line in precondition(!line.contains("\n")) }
        precondition(page.posts.count <= max(1, min(FeedModel.maximumPageSize, pageSize)))
        for post in page.posts { _ = post.age(relativeTo: now); _ = post.age(relativeTo: .max); _ = post.age(relativeTo: .min) }
    } catch {
        precondition(!error.description.contains("\n") && error.description.count < 400)
    }
    return 0
}

@main enum FuzzFeedMain {
    static func main() { runFuzzer { fuzzFeed($0, $1) } }
}
