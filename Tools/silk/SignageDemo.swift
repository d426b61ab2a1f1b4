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
    let root = DisplayNode()
    root.backgroundColor = Color(red: 0.06, green: 0.07, blue: 0.09)
    // The screen is laid out for the window's size now and again at each resize: a compositor
    // picks the size (sway tiles the window to its output after a first 0×0 configure, cage and
    // --fullscreen fill it), and the frames, not the media, depend on it.
    let first = SignageLayout(size: window.size)
    var banners: [NetworkImageNode] = []
    for i in 0..<2 {
        let banner = NetworkImageNode(loader: loader)
        banner.contentMode = .scaleToFill
        banner.forceUpscaling = true
        // Half the banner's first size, scaled up by the node: a smaller file for the demo server
        // to make (a later size scales the same GIF).
        let w = Int(first.banners[i].width / 2), h = Int(first.banners[i].height / 2)
        banner.url = server.url("/animated/\(i + 1).gif?w=\(w)&h=\(h)&frames=24&delay=\(4 + 2 * i)")
        banners.append(banner)
        root.addSubnode(banner)
    }
    // The first column is a looping video (made by GStreamer in the background at the first run
    // and kept in the temporary directory); its poster is a dark tile until the first frame.
    let video = VideoNode()
    video.contentMode = .aspectFill
    video.shouldAutorepeat = true
    video.isMuted = true
    video.backgroundColor = .black
    // A signage screen has nothing better to do than wait for its loop: a slow board (or the
    // fbdev test's emulated CPU on a busy host) may take longer than the default 15 s to the
    // first frame, and a timeout would leave the poster for the rest of the run.
    video.loadTimeout = 90
    let videoLog = SignageVideoLog()
    video.delegate = videoLog
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
    var tiles: [MultiplexImageNode] = []
    for k in 0..<first.tiles.count {
        let tile = MultiplexImageNode(loader: loader)
        tile.downloadsIntermediateImages = true
        let id = 41 + k + k / 2
        tile.imageIdentifiers = [server.url("/photo/\(id).jpg?w=1200&h=800&delay=\(900 + 150 * k)").absoluteString,
                                 server.url("/photo/\(id).jpg?w=600&h=400&delay=\(300 + 50 * k)").absoluteString,
                                 server.url("/photo/\(id).jpg?w=150&h=100").absoluteString]
        tiles.append(tile)
        root.addSubnode(tile)
    }
    func place(_ layout: SignageLayout) {
        for (banner, frame) in zip(banners, layout.banners) { banner.frame = frame }
        video.frame = layout.video
        for (tile, frame) in zip(tiles, layout.tiles) { tile.frame = frame }
        let v = layout.video
        print("signage: layout \(Int(layout.size.width))x\(Int(layout.size.height)), video at \(Int(v.minX)),\(Int(v.minY)) \(Int(v.width))x\(Int(v.height))")
        fflush(nil)
    }
    place(first)
    window.setRootNode(root)
    window.onResize = { size, _ in place(SignageLayout(size: size)) }
    var announced = false
    app.loop.addTimer(after: .milliseconds(100), repeating: .milliseconds(100)) {
        _ = server  // the server lives as long as the demo
        _ = videoLog  // the video node holds its delegate weakly
        guard !announced else { return }
        let best = tiles.allSatisfy { $0.loadedImageIdentifier == $0.imageIdentifiers.first }
        if best, window.nodePass?.isDisplayComplete == true, window.renderThread.waitUntilPresented(timeout: 0) {
            announced = true
            print("signage: photo wall at full resolution"); fflush(nil)
        }
    }
    return { _ in }
}

/// Where the signage screen's nodes go in a window of `size` points: a banner row of two across
/// the top (22 % of the height), then three columns in two rows below it, the first column one
/// video two rows high, the other four cells photo tiles; `gap` points between and around them.
struct SignageLayout {
    let size: Size
    let banners: [Rect]
    let video: Rect
    let tiles: [Rect]

    init(size: Size, gap: Double = 8) {
        self.size = size
        let bannerHeight = (size.height * 0.22).rounded()
        let bannerWidth = ((size.width - 3 * gap) / 2).rounded(.down)
        banners = (0..<2).map { Rect(x: gap + Double($0) * (bannerWidth + gap), y: gap, width: bannerWidth, height: bannerHeight) }
        let columns = 3, rows = 2
        let top = bannerHeight + 2 * gap
        let tileWidth = ((size.width - Double(columns + 1) * gap) / Double(columns)).rounded(.down)
        let tileHeight = ((size.height - top - Double(rows) * gap) / Double(rows)).rounded(.down)
        video = Rect(x: gap, y: top, width: tileWidth, height: tileHeight * 2 + gap)
        tiles = (0..<(columns * rows)).filter { $0 % columns != 0 }.map { k in
            Rect(x: gap + Double(k % columns) * (tileWidth + gap), y: top + Double(k / columns) * (tileHeight + gap),
                 width: tileWidth, height: tileHeight)
        }
    }
}

/// Prints the video's events for the operator and the end-to-end tests (which wait for the
/// first frame before looking at the screen). Called on the player's control queue.
final class SignageVideoLog: VideoNodeDelegate {
    func videoNode(_ node: VideoNode, didLoadVideoOfWidth width: Int, height: Int) {
        print("signage: video playing (\(width)x\(height))"); fflush(nil)
    }
    func videoNode(_ node: VideoNode, didFailWith error: VideoError) {
        print("silk: signage video: \(error)"); fflush(nil)
    }
}
