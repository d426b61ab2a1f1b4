import FuzzSupport
import Foundation
import SilkDemoServer

// libFuzzer target: the demo server's request parser (`DemoServer.parseRequestHead`, the bytes
// of a request head as received), the target's query (`DemoRequest`, `invalidNumber`) and the
// content routes it reaches (`DemoContent.respond`: the feed, avatars, 404s — numbers from the
// URL used to trap there). Photos are left out: rendering one takes tens of milliseconds.
// Seeds: Fuzz/corpus/request.

private let content = withoutLeakChecks { () -> DemoContent in
    let c = DemoContent(feedLength: 10_000)
    _ = c.respond(to: DemoRequest(target: "/avatar/1.png"))  // fontconfig's one-time set-up
    return c
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    guard case let .get(target) = DemoServer.parseRequestHead(bytes) else { return 0 }
    let request = DemoRequest(target: target)
    if let bad = request.invalidNumber { precondition(bad.count < 200); return 0 }
    guard !request.path.hasPrefix("/photo/") else { return 0 }
    let response = content.respond(to: request)
    precondition([200, 400, 404, 500].contains(response.status))
    return 0
}

@main enum FuzzRequestMain {
    static func main() { runFuzzer { fuzzRequest($0, $1) } }
}
