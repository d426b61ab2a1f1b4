import ArgumentParser
import Foundation
import SilkDemoServer

/// `silk serve`: runs the demo server (generated feed JSON, photos, avatars, fault options)
/// on 127.0.0.1 until interrupted — to look at what the feed demo and the tests load.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the local demo HTTP server (feed JSON and generated photos) until Ctrl-C.",
        discussion: "Routes: /feed?page=N&count=M, /photo/ID.jpg?w=W&h=H, /avatar/ID.png; fault options: docs/network-images.md.")

    @Option(help: "Posts in the feed.") var feedLength = 10_000

    func run() throws {
        let server = try DemoServer(content: DemoContent(feedLength: feedLength))
        print("silk serve: \(server.baseURL.absoluteString)/feed?page=0&count=20")
        fflush(nil)
        while true { sleep(60) }
    }
}
