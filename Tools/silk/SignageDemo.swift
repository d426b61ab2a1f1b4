import Foundation
import Silk
import SilkDemoServer
import SilkGeometry
import SilkNetworkImage
import SilkNodes
import SilkRender
import SilkVideo

/// `silk demo signage`: a digital-signage screen over a demo HTTP server this process starts — a
/// banner of two animated GIFs (frames decoded a few ahead, timed by the render thread) above a
/// looping video (a `VideoNode`, GStreamer) and a 2 × 2 photo wall of `MultiplexImageNode`s that
/// show a small version at once and swap in a medium and then a large one as the server (which
/// delays each resolution) sends them. Prints "signage: photo wall at full resolution" once every
/// tile shows its best version and that frame was presented (end-to-end tests can wait for it).
@MainActor
func startSignageDemo(window: Window, app: Application) -> (Double) -> Void {
    let server: DemoServer
    do { server = try DemoServer() } catch { fail("demo signage: \(error)") }
    let loader = NetworkImageLoader(cache: ImageCache(directory: nil, log: { _ in }))
    print("signage: serving media at \(server.baseURL)")
    let size = window.size
    let root = DisplayNode()
    root.backgroundColor = Color(red: 0.06, green: 0.07, blue: 0.09)
    let gap = 8.0, bannerHeight = (size.height * 0.22).rounded()
    let bannerWidth = ((size.width - 3 * gap) / 2).rounded(.down)
    for i in 0..<2 {
        let banner = NetworkImageNode(loader: loader)
        banner.frame = Rect(x: gap + Double(i) * (bannerWidth + gap), y: gap, width: bannerWidth, height: bannerHeight)
        banner.contentMode = .scaleToFill
        banner.forceUpscaling = true
        // Half the banner's size, scaled up by the node: a smaller file for the demo server to make.
        banner.url = server.url("/animated/\(i + 1).gif?w=\(Int(bannerWidth / 2))&h=\(Int(bannerHeight / 2))&frames=24&delay=\(4 + 2 * i)")
        root.addSubnode(banner)
    }
    var tiles: [MultiplexImageNode] = []
    let columns = 3, rows = 2
    let top = bannerHeight + 2 * gap
    let tileWidth = ((size.width - Double(columns + 1) * gap) / Double(columns)).rounded(.down)
    let tileHeight = ((size.height - top - Double(rows) * gap) / Double(rows)).rounded(.down)
    // The first column is a looping video (made by GStreamer in the background at the first run
    // and kept in the temporary directory); its poster is a dark tile until the first frame.
    let video = VideoNode()
    video.frame = Rect(x: gap, y: top, width: tileWidth, height: tileHeight * 2 + gap)
    video.contentMode = .aspectFill
    video.shouldAutorepeat = true
    video.isMuted = true
    video.backgroundColor = .black
    root.addSubnode(video)
    let clip = NSTemporaryDirectory() + "silk-signage-480x270-30fps-v1.webm"
    Thread.detachNewThread {
        do {
            try VideoTestClip.make(path: clip, width: 480, height: 270, fps: 30, frames: 150, pattern: "smpte")
            DispatchQueue.main.async { MainActor.assumeIsolated { video.path = clip } }
        } catch {
            print("silk: signage video unavailable: \(error)"); fflush(nil)
        }
    }
    for k in 0..<(columns * rows) where k % columns != 0 {
        let tile = MultiplexImageNode(loader: loader)
        tile.frame = Rect(x: gap + Double(k % columns) * (tileWidth + gap), y: top + Double(k / columns) * (tileHeight + gap),
                          width: tileWidth, height: tileHeight)
        tile.downloadsIntermediateImages = true
        let id = 40 + k
        tile.imageIdentifiers = [server.url("/photo/\(id).jpg?w=1200&h=800&delay=\(900 + 150 * k)").absoluteString,
                                 server.url("/photo/\(id).jpg?w=600&h=400&delay=\(300 + 50 * k)").absoluteString,
                                 server.url("/photo/\(id).jpg?w=150&h=100").absoluteString]
        tiles.append(tile)
        root.addSubnode(tile)
    }
    window.setRootNode(root)
    var announced = false
    app.loop.addTimer(after: .milliseconds(100), repeating: .milliseconds(100)) {
        _ = server  // the server lives as long as the demo
        guard !announced else { return }
        let best = tiles.allSatisfy { $0.loadedImageIdentifier == $0.imageIdentifiers.first }
        if best, window.nodePass?.isDisplayComplete == true, window.renderThread.waitUntilPresented(timeout: 0) {
            announced = true
            print("signage: photo wall at full resolution"); fflush(nil)
        }
    }
    return { _ in }
}
