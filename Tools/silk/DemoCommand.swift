import ArgumentParser
import Foundation
import Silk
import SilkGeometry
import SilkLayout
import SilkNodes
import SilkRaster
import SilkRender
import SilkRunLoop
import SilkScenes

/// `silk demo NAME`: runs a demo scene in a window on the best backend until closed,
/// SIGINT/SIGTERM, `--seconds` or `--frames` elapse. On the headless backend the last frame is
/// written as a PNG and the path printed.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Run a demo scene on Wayland, KMS, the framebuffer or headless.")

    enum Name: String, CaseIterable, ExpressibleByArgument {
        /// 200 opaque rows scrolling at 1,200 pt/s: the compositor without any app work.
        case layers
        /// The Texture tutorial's rainforest cards, built from nodes, drawn asynchronously.
        case rainforest
        /// A full-screen dashboard for a touch panel: clock, photo tiles, buttons, a list.
        case kiosk
        /// A button and a text field: input from the window's seat (end-to-end tests).
        case input
        /// A kiosk sign-in form: editable text, focus, the on-screen keyboard (SILK_OSK).
        case form
        /// A photo feed (ASDKgram) from a local HTTP server the demo starts: infinite scroll.
        case feed
        /// Digital signage: animated GIF banners and a multiplex photo wall from a local server.
        case signage
        /// Every standard control in its states; a switch changes the theme (light, dark).
        case controls
    }

    @Argument(help: "Demo: \(Name.allCases.map(\.rawValue).joined(separator: ", ")).") var name: Name = .rainforest
    @Option(help: "auto, wayland, fbdev, kms or headless.") var backend: String = "auto"
    @Option(help: "Window size in points, WxH.") var size: SizeArgument = SizeArgument(argument: "1280x720")!
    @Option(help: "Device pixels per point.") var scale: Double = 1
    @Option(help: "Stop after this many seconds (default: run until closed or signalled).") var seconds: Double?
    @Option(help: "Stop after this many presented frames.") var frames: Int?
    @Flag(help: "Show the first screen without scrolling.") var noScroll = false
    @Flag(help: "Wayland: ask for a fullscreen window (kiosks under cage).") var fullscreen = false
    @Flag(help: "Wayland: ask for a maximized window.") var maximized = false
    @Option(help: "Wayland: the window title.") var title: String = "Silk demo"
    @Option(help: "Headless: where to write the last frame.") var out: String = "out/demo.png"
    @Option(help: "Headless: also write every Nth presented frame into --frames-dir.") var captureEvery: Int = 0
    @Option(help: "Headless: folder for the captured frames.") var framesDir: String = "out/frames"
    @OptionGroup(title: "Framebuffer") var fb: FramebufferArguments
    @Option(help: "Kiosk: show this fixed text in the clock instead of the time (reproducible screens).") var clock: String?
    @Option(help: "Form: fill the fields from code, \"NAME|EMAIL|PIN\" (reference screens).") var formFill: String?
    @Option(help: "Form: the node focused at start: name, email, pin, submit or none.") var formFocus: String = "name"
    @Option(help: "Form: on-screen keyboard layouts from xkb after XKB_DEFAULT_LAYOUT, comma-separated (de,ru,he); the PIN field gets the PIN pad.") var keyboardLayouts: String?
    @Flag(help: "rainforest, kiosk: right to left, as in a Hebrew locale (mirrored; the kiosk's dashboard in Hebrew).") var rtl = false
    @Option(help: "Play timed input from this file once the demo runs: tap X Y, drag X1 Y1 X2 Y2 MS, key NAME, type TEXT, wait MS (docs/navigation.md).") var script: String?

    /// `--keyboard-layouts` split at commas (spaces dropped), nil when not given.
    var layoutNames: [String]? {
        keyboardLayouts.map { $0.split(separator: ",", omittingEmptySubsequences: false).map { String($0.filter { $0 != " " }) } }
    }

    func run() throws {
        guard let backend = Backend(rawValue: backend) else { fail("--backend \(backend): expected auto, wayland, fbdev, kms or headless") }
        guard scale.isFinite, scale >= 0.1, scale <= 8 else { fail("--scale \(scale): must be between 0.1 and 8") }
        if let seconds, !(seconds.isFinite && seconds > 0) { fail("--seconds \(seconds): must be a positive number") }
        if let frames, frames < 1 { fail("--frames \(frames): must be at least 1") }
        guard captureEvery >= 0 else { fail("--capture-every \(captureEvery): must be 0 (off) or more") }
        if let layoutNames {
            if layoutNames.isEmpty || layoutNames.contains(where: \.isEmpty) { fail("--keyboard-layouts \"\(keyboardLayouts ?? "")\": expected names such as de,ru,he") }
            if layoutNames.count > KeyboardNode.maximumLayouts { fail("--keyboard-layouts: \(layoutNames.count) layouts, at most \(KeyboardNode.maximumLayouts)") }
            for name in layoutNames {
                do { _ = try XKBLayoutTable.load(name, composer: nil) } catch { fail("--keyboard-layouts: \(error.description)") }
            }
        }
        if let script {
            do { _ = try InputScript(contentsOf: script) } catch { fail("--script \(script): \(error)") }
        }
        if rtl {
            guard name == .rainforest || name == .kiosk else { fail("--rtl: only rainforest and kiosk have a right-to-left version, not \(name.rawValue)") }
            // The whole app, as if started in a right-to-left locale (screens the kiosk pushes too).
            LayoutDirection.applicationDefault = .rtl
        }
        let status = MainActor.assumeIsolated { runOnMain(backend) }
        Foundation.exit(status)
    }

    @MainActor
    func runOnMain(_ backend: Backend) -> Int32 {
        let app = Application(backend: backend)
        app.framebufferOptions = fb.framebufferOptions
        app.kmsOptions = fb.kmsOptions
        app.inputOptions = fb.inputOptions
        app.takesConsole = !fb.noConsole
        let window: Window
        do {
            var options = WindowOptions()
            options.title = title
            options.appID = "org.silk.demo"
            options.fullscreen = fullscreen
            options.maximized = maximized
            options.minimumSize = Size(width: 200, height: 150)
            // --seconds bounds the whole run, the wait for a silent compositor included.
            if let seconds { options.compositorTimeout = min(options.compositorTimeout, max(seconds, 0.1)) }
            window = try app.makeWindow(size: size.size, scale: scale, options: options) { print("silk demo: backend: \($0)") }
        } catch {
            fail("\(error)")
        }
        if window.presenter is HeadlessPresenter {
            // Where the last frame goes is checked now, not after the whole run.
            do { try checkOutputPath(out, option: "--out") } catch { fail(error.message) }
        }
        let update: (Double) -> Void
        var noScrollUpdate = noScroll
        var appKeptAlive: AnyObject?   // an app object the window's nodes only reference weakly
        switch name {
        case .layers:
            let scene: LayersScrollScene
            do { scene = try LayersScrollScene(root: window.rootLayer, viewport: size.size, scale: scale) }
            catch { fail("demo \(name.rawValue): \(error)") }
            update = { scene.update(time: $0) }
        case .rainforest:
            guard RainforestCatalog.entries[0].photoPath != nil else { fail("demo rainforest: assets/photos not found (set SILK_ASSETS)") }
            // The window's size and scale, which a compositor may have chosen (not the flags).
            let rtl = self.rtl
            let root = DemoRootNode(content: RainforestScene.makeList(viewport: window.size, scale: window.scale, rightToLeft: rtl))
            window.setRootNode(root)
            root.list?.scroll(to: 0)
            // A resize builds the grid again for the new width (columns depend on it).
            window.onResize = { size, scale in
                let list = RainforestScene.makeList(viewport: size, scale: scale, rightToLeft: rtl)
                list.scroll(to: 0)
                root.content = list
            }
            // Down at 1,200 pt/s to the end, then back up: a scripted scroll.
            update = { t in
                guard let list = root.list else { return }
                let range = max(1, list.contentHeight - list.viewport.height)
                let d = (t * 1200).truncatingRemainder(dividingBy: 2 * range)
                list.scroll(to: d < range ? d : 2 * range - d)
            }
        case .kiosk:
            guard RainforestCatalog.entries[0].photoPath != nil else { fail("demo kiosk: assets/photos not found (set SILK_ASSETS)") }
            let viewport = window.size
            let rtl = self.rtl
            let kiosk = NodeSnapshot.buildInBackground { KioskNode(viewport: viewport, rightToLeft: rtl) }
            kiosk.onChange = { print("kiosk: \($0)"); fflush(nil) }
            // The dashboard is the home of a multi-screen app: Details pushes an exhibit's screen
            // (tabs, an About dialog); Escape, ◀ Back or an edge swipe return.
            let kioskApp = KioskApp(kiosk: kiosk)
            kioskApp.onScreenChange = { print("kiosk: screen \($0)"); fflush(nil) }
            window.setRootController(kioskApp.root)
            appKeptAlive = kioskApp
            let fixedClock = clock
            kiosk.setClock(fixedClock ?? KioskNode.clockText())
            if fixedClock == nil {
                app.loop.addTimer(after: .milliseconds(1000 - Int64(Date().timeIntervalSince1970 * 1000) % 1000),
                                  repeating: .seconds(1)) { kiosk.setClock(KioskNode.clockText()) }
            }
            // Say once when everything is on screen (the end-to-end test waits for this line):
            // laid out, every display job (photos decode on display queues) committed, and the
            // result presented with its fade-ins finished.
            window.whenDisplayed {
                print("silk demo: kiosk displayed (\(window.presentedFrames) frames)"); fflush(nil)
            }
            noScrollUpdate = true
            update = { _ in }
        case .form:
            update = startFormDemo(window: window, fill: formFill, focus: formFocus, keyboardLayouts: layoutNames)
        case .feed:
            update = startFeedDemo(window: window, app: app)
        case .signage:
            update = startSignageDemo(window: window, app: app)
        case .controls:
            update = startControlsDemo(window: window)
        case .input:
            let scene = InputDemoNode()
            window.setRootNode(scene)
            window.inputDispatcher?.focus(scene.field, showsRing: false)
            update = { _ in }
        }
        if captureEvery > 0, let headless = window.presenter as? HeadlessPresenter {
            do { try checkOutputPath(framesDir + "/frame.png", option: "--frames-dir") } catch { fail(error.message) }
            headless.captureEveryFrame(into: framesDir, stride: captureEvery)
            print("silk demo: writing every \(captureEvery)th frame to \(framesDir)/")
        }
        print("silk demo: \(name.rawValue) running; Ctrl-C or SIGTERM stops it")
        fflush(nil)
        // Scripted input starts once the first screen is displayed (laid out, so taps hit what
        // the script's author saw), played from the same 60 Hz tick (the file was checked above).
        let player = script.flatMap { try? InputScript(contentsOf: $0) }.map { s in
            InputScriptPlayer(s) { event in MainActor.assumeIsolated { window.handle(event) } }
        }
        var scriptStart: Double?
        let start = app.loop.now
        // Animation tick on the loop at 60 Hz: update the model; the window's observers commit.
        app.loop.addTimer(after: .zero, repeating: .microseconds(16_667)) {
            let elapsed = app.loop.now - start
            let t = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            if let player {
                if scriptStart == nil, window.isDisplayed { scriptStart = t }
                if let s0 = scriptStart { player.advance(to: t - s0) }
            }
            if !noScrollUpdate { update(t) }
            if let seconds, t >= seconds { app.quit() }
            if let frames, window.presentedFrames >= frames { app.quit() }
        }
        let reason = app.run()
        withExtendedLifetime(appKeptAlive) {}
        if ProcessInfo.processInfo.environment["SILK_DEBUG_NODES"] != nil {
            func dump(_ l: Layer, _ d: Int) {
                guard d < 3 else { return }
                print(String(repeating: "  ", count: d) + "\(l) bounds: \(l.bounds) contents: \(l.contents != nil) bg: \(String(describing: l.backgroundColor))")
                l.sublayers.prefix(4).forEach { dump($0, d + 1) }
            }
            dump(window.rootLayer, 0)
            if let pass = window.nodePass { print(pass.statistics); print(pass.committer.statistics) }
        }
        if let headless = window.presenter as? HeadlessPresenter {
            do {
                try headless.capturePNG(to: out)
                print("silk demo: wrote the last frame to \(out)")
            } catch {
                fail("\(error)")
            }
        }
        if let failure = app.failure {
            // Already printed when it happened; say how the run ended.
            print("silk demo: \(window.presentedFrames) frames presented; stopped: \(failure)")
            return 1
        }
        print("silk demo: \(window.presentedFrames) frames presented; stopped (\(reason))")
        if let error = window.renderThread.error {
            FileHandle.standardError.write(Data("silk: \(error)\n".utf8))
            return 1
        }
        return 0
    }
}

/// The demo's root: shows one content node filling the window, and swaps it when the window
/// is resized (the rainforest grid is built for one width). The soak's root adds floating
/// nodes over the content (`SoakRootNode`).
class DemoRootNode: DisplayNode, @unchecked Sendable {
    private var _content: DisplayNode
    init(content: DisplayNode, name: String = "demo-root") {
        _content = content
        super.init()
        self.name = name
        addSubnode(content)
    }
    /// Set on the main thread; read under the node's lock, as layout may run on any thread.
    /// The new content goes below any other subnodes.
    var content: DisplayNode {
        get { lock.withLock { _content } }
        set {
            let old = lock.withLock { () -> DisplayNode in let o = _content; _content = newValue; return o }
            old.removeFromSupernode()
            insertSubnode(newValue, at: 0)
            setNeedsLayout()
        }
    }
    var list: RainforestListNode? { content as? RainforestListNode }
    override func layoutSpecThatFits(_ constrainedSize: SizeRange) -> (any LayoutElement)? {
        InsetLayoutSpec(insets: EdgeInsets(), child: content)
    }
}
