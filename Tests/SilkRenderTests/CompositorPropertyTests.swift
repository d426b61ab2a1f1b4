import Testing
import SilkGeometry
import SilkRaster
@testable import SilkRender

/// After any sequence of layer mutations, the frame composited from damage alone must equal a
/// full recomposite pixel for pixel.
@Suite struct CompositorPropertyTests {
    static let width = 96, height = 72

    @Test(arguments: [1 as UInt64, 2, 3, 4])
    func damageOnlyFramesEqualFullRecomposite(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height))
        root.backgroundColor = Color(rgb: 0x202020)
        var layers: [Layer] = []
        // A scroll list among the random layers: a clipping viewport with a column of tiles
        // taller than it (whole-pixel scrolls of it take the compositor's blit path).
        let list = Layer()
        list.frame = Rect(x: 12, y: 8, width: 60, height: 48)
        list.clipsToBounds = true
        list.backgroundColor = Color(rgb: 0x334455)
        root.addSublayer(list)
        var tiles: [Layer] = []
        for k in 0..<10 {
            let tile = Layer()
            tile.frame = Rect(x: 2, y: Double(k) * 18, width: 56, height: 16)
            tile.backgroundColor = Color(red: Double(k) / 10, green: 0.6, blue: 1 - Double(k) / 10, alpha: k % 3 == 0 ? 0.7 : 1)
            list.addSublayer(tile)
            tiles.append(tile)
        }
        let palette = try (0..<6).map { k -> Bitmap in
            let b = try Bitmap(width: 8 + k * 3, height: 6 + k * 2)
            b.fill(Color(red: Double(k) / 6, green: 1 - Double(k) / 6, blue: 0.5, alpha: k % 2 == 0 ? 1 : 0.6))
            b.fill(.white, rect: Rect(x: 1, y: 1, width: 2, height: 2))
            return b
        }
        let incremental = try Compositor(pixelWidth: Self.width, pixelHeight: Self.height, clearColor: .black)
        let reference = try Compositor(pixelWidth: Self.width, pixelHeight: Self.height, clearColor: .black)
        reference.occlusionCulling = false  // the naive painter's algorithm is the oracle
        reference.scrollBlits = false
        reference.compositeThreads = 1
        // The incremental side paints in bands whenever it can (frames with groups or shadows
        // in the damage are not banded): banding must not change a pixel either.
        incremental.compositeThreads = 2
        incremental.bandingMinimumPixels = 0
        var time = 0.0
        let steps = 1500
        var blitFrames = 0
        defer { #expect(blitFrames >= 20, "seed \(seed): only \(blitFrames) frames scrolled by blit; the test must exercise it") }
        for step in 0..<steps {
            if step % 3 == 0 {
                // Scroll the list by whole pixels most of the time.
                let d = Double(Int.random(in: -6...6, using: &rng))
                list.bounds.origin = Point(x: 0, y: min(140, max(-10, list.bounds.origin.y + d)))
            }
            if step % 5 == 0, let tile = tiles.randomElement(using: &rng) {
                // Changes inside the scrolling content, sometimes in the same frame as a scroll.
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: tile.backgroundColor = Color(red: Double.random(in: 0...1, using: &rng), green: 0.5, blue: 0.5)
                case 1: tile.opacity = [0.5, 1].randomElement(using: &rng)!
                default: tile.contents = Bool.random(using: &rng) ? palette.randomElement(using: &rng) : nil
                }
            }
            mutate(root: root, layers: &layers, palette: palette, rng: &rng)
            time += 1.0 / 60
            let snap = root.snapshot()
            incremental.composite(snap, at: time)
            if incremental.lastStatistics.scrolledPixels > 0 { blitFrames += 1 }
            reference.compositeFully(snap, at: time)
            let diff = firstDifference(incremental.backBuffer, reference.backBuffer)
            #expect(diff == nil, "seed \(seed) step \(step): pixel \(diff.map { "\($0)" } ?? "") differs")
            if diff != nil { return }
        }
    }

    /// The same check with animations of every property running (random curves, delays,
    /// reversals, retargeting, anchor points): animated values feed the render list, so the
    /// damage of each frame must cover everything they moved.
    @Test(arguments: [21 as UInt64, 22])
    func animatedFramesEqualFullRecomposite(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height))
        root.backgroundColor = Color(rgb: 0x202020)
        var layers: [Layer] = []
        let palette = try (0..<3).map { k -> Bitmap in
            let b = try Bitmap(width: 8 + k * 5, height: 6 + k * 4)
            b.fill(Color(red: Double(k) / 3, green: 0.8, blue: 0.3, alpha: k == 1 ? 0.6 : 1))
            return b
        }
        let incremental = try Compositor(pixelWidth: Self.width, pixelHeight: Self.height, clearColor: .black)
        let reference = try Compositor(pixelWidth: Self.width, pixelHeight: Self.height, clearColor: .black)
        reference.occlusionCulling = false
        reference.scrollBlits = false
        reference.compositeThreads = 1
        incremental.compositeThreads = 3
        incremental.bandingMinimumPixels = 0
        var time = 0.0
        var animatedFrames = 0
        for step in 0..<600 {
            mutate(root: root, layers: &layers, palette: palette, rng: &rng)
            if step % 2 == 0, let l = layers.randomElement(using: &rng) {
                func rand(_ r: ClosedRange<Double>) -> Double { Double.random(in: r, using: &rng) }
                let property: LayerAnimation.Property
                switch Int.random(in: 0..<8, using: &rng) {
                case 0: property = .position(from: Point(x: rand(-10...90), y: rand(-10...70)), to: nil)
                case 1: property = .bounds(from: Rect(x: 0, y: 0, width: rand(2...40), height: rand(2...30)), to: nil)
                case 2: property = .transform(from: AffineTransform(rotationAngle: rand(-3...3)).scaledBy(x: rand(0.3...2), y: rand(0.3...2)), to: nil)
                case 3: property = .opacity(from: rand(0...1), to: Bool.random(using: &rng) ? nil : rand(0...1))
                case 4: property = .backgroundColor(from: Color(red: rand(0...1), green: 0.2, blue: 0.9, alpha: rand(0...1)), to: nil)
                case 5: property = .cornerRadius(from: rand(0...12), to: nil)
                case 6: property = .borderWidth(from: rand(0...4), to: nil)
                default: property = .borderColor(from: nil, to: Color(red: 1, green: 1, blue: rand(0...1)))
                }
                let timings: [LayerAnimation.Timing] = [.linear, .easeInOut, .cubicBezier(x1: 0.7, y1: -0.5, x2: 0.3, y2: 1.5),
                                                        .spring(LayerAnimation.Spring(stiffness: rand(50...400), damping: rand(2...30)))]
                if Int.random(in: 0..<4, using: &rng) == 0 { l.anchorPoint = Point(x: rand(0...1), y: rand(0...1)) }
                l.add(LayerAnimation(property: property, duration: rand(0.05...0.5), timing: timings.randomElement(using: &rng)!,
                                     delay: Bool.random(using: &rng) ? 0 : rand(0...0.1), repeatCount: [1, 2, 1.5].randomElement(using: &rng)!,
                                     autoreverses: Bool.random(using: &rng), beginsFromCurrentState: Bool.random(using: &rng),
                                     isRemovedOnCompletion: Int.random(in: 0..<4, using: &rng) != 0))
            }
            time += 1.0 / 60
            let snap = root.snapshot()
            let f = incremental.composite(snap, at: time)
            if f.hasRunningAnimations { animatedFrames += 1 }
            reference.compositeFully(snap, at: time)
            let diff = firstDifference(incremental.backBuffer, reference.backBuffer)
            #expect(diff == nil, "seed \(seed) step \(step): pixel \(diff.map { "\($0)" } ?? "") differs")
            if diff != nil { return }
        }
        #expect(animatedFrames > 300, "only \(animatedFrames) frames had animations running")
    }

    func mutate(root: Layer, layers: inout [Layer], palette: [Bitmap], rng: inout SplitMix64) {
        func rand(_ r: ClosedRange<Double>) -> Double { Double.random(in: r, using: &rng) }
        func anyLayer() -> Layer? { layers.randomElement(using: &rng) }
        switch Int.random(in: 0..<13, using: &rng) {
        case 12: // effects: shadows, group opacity, rounded subtree clipping (both modes)
            if let l = anyLayer() {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: l.shadow = Bool.random(using: &rng) ? Shadow(color: Color(white: 0, alpha: 0.5), offset: Point(x: rand(-3...3), y: rand(0...4)),
                                                                    blurRadius: [0, 2, 5].randomElement(using: &rng)!, spread: rand(-1...2)) : nil
                case 1: l.rendersAsGroup.toggle()
                default:
                    l.cornerClipping = Bool.random(using: &rng) ? .clip : .precomposited(.white)
                    l.clipsToBounds = true; l.cornerRadius = [0, 5, 12].randomElement(using: &rng)!
                }
            }
        case 0, 1:  // add under root or under another layer
            let l = Layer()
            l.frame = Rect(x: rand(-10...90).rounded(), y: rand(-10...70).rounded(), width: rand(4...40).rounded(), height: rand(4...30).rounded())
            if Bool.random(using: &rng) { l.backgroundColor = Color(red: rand(0...1), green: rand(0...1), blue: rand(0...1), alpha: Bool.random(using: &rng) ? 1 : 0.5) }
            if Bool.random(using: &rng) { l.contents = palette.randomElement(using: &rng) }
            let parent = (Bool.random(using: &rng) ? anyLayer() : nil) ?? root
            parent.insertSublayer(l, at: Int.random(in: 0...parent.sublayers.count, using: &rng))
            layers.append(l)
        case 2:  // remove
            if let l = anyLayer() {
                l.removeFromSuperlayer()
                func drop(_ x: Layer) { layers.removeAll { $0 === x }; x.sublayers.forEach(drop) }
                drop(l)
            }
        case 3:  // reorder among siblings
            if let l = anyLayer(), let p = l.superlayer { p.insertSublayer(l, at: Int.random(in: 0...p.sublayers.count, using: &rng)) }
        case 4:  // move (integral and fractional)
            if let l = anyLayer() { l.position = Point(x: l.position.x + rand(-8...8), y: l.position.y + rand(-8...8).rounded()) }
        case 5:  // scroll: move the bounds origin of a container, mostly by whole pixels
            if let l = (Bool.random(using: &rng) ? layers.max(by: { $0.sublayers.count < $1.sublayers.count }) : anyLayer()) {
                let whole = Int.random(in: 0..<4, using: &rng) != 0
                l.bounds.origin = Point(x: l.bounds.origin.x + (whole ? Double(Int.random(in: -3...3, using: &rng)) : rand(-2...2)),
                                        y: l.bounds.origin.y + (whole ? Double(Int.random(in: -8...8, using: &rng)) : rand(-4...4)))
                if Int.random(in: 0..<5, using: &rng) == 0 { l.clipsToBounds.toggle() }
            }
        case 6:  // opacity
            if let l = anyLayer() { l.opacity = [0, 0.3, 0.7, 1].randomElement(using: &rng)! }
        case 7:  // contents change
            if let l = anyLayer() { l.contents = Bool.random(using: &rng) ? palette.randomElement(using: &rng) : nil; l.contentsGravity = ContentMode.allCases.randomElement(using: &rng)! }
        case 8:  // hide / show
            if let l = anyLayer() { l.isHidden.toggle() }
        case 9:  // corner radius, border
            if let l = anyLayer() { l.cornerRadius = [0, 3, 8].randomElement(using: &rng)!; l.borderWidth = [0, 1, 2.5].randomElement(using: &rng)!; l.borderColor = .white }
        case 10: // transform
            if let l = anyLayer() { l.transform = Bool.random(using: &rng) ? .identity : AffineTransform(rotationAngle: rand(-0.5...0.5)).scaledBy(x: rand(0.5...1.5), y: 1) }
        default: // opaque declarations, only where truthful: an opaque background fills the layer
            if let l = anyLayer() {
                l.isOpaque = (l.backgroundColor?.alpha ?? 0) >= 1 && Bool.random(using: &rng)
            }
        }
    }

    func firstDifference(_ a: Bitmap, _ b: Bitmap) -> (Int, Int, UInt32, UInt32)? {
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.argb32(x: x, y: y), q = b.argb32(x: x, y: y)
                if p != q { return (x, y, p, q) }
            }
        }
        return nil
    }
}

@Suite struct CompositorTests {
    @Test func nothingChangedMeansNoDamage() throws {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 50, height: 50)
        root.backgroundColor = .white
        let c = try Compositor(pixelWidth: 50, pixelHeight: 50)
        #expect(!c.composite(root.snapshot(), at: 0).damage.isEmpty)
        #expect(c.composite(root.snapshot(), at: 1.0 / 60).damage.isEmpty)
    }

    @Test func movingALayerDamagesOldAndNewPlaceOnly() throws {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 200, height: 200)
        root.backgroundColor = .white
        let box = Layer()
        box.frame = Rect(x: 10, y: 10, width: 20, height: 20)
        box.backgroundColor = .red
        root.addSublayer(box)
        let c = try Compositor(pixelWidth: 200, pixelHeight: 200)
        c.composite(root.snapshot(), at: 0)
        box.position = Point(x: 120, y: 120)
        let d = c.composite(root.snapshot(), at: 1.0 / 60).damage
        #expect(d.area == 800, "damage \(d)")
        #expect(c.backBuffer.argb32(x: 20, y: 20) == 0xffff_ffff)
        #expect(c.backBuffer.argb32(x: 120, y: 120) == 0xffff_0000)
    }

    @Test func snapshotsAreSharedWhenSubtreesDoNotChange() {
        let root = Layer(), a = Layer(), b = Layer()
        root.addSublayer(a); root.addSublayer(b)
        let s1 = root.snapshot()
        b.opacity = 0.5
        let s2 = root.snapshot()
        #expect(s1 !== s2)
        #expect(s1.sublayers[0] === s2.sublayers[0])
        #expect(s1.sublayers[1] !== s2.sublayers[1])
        #expect(s1.sublayers[1].opacity == 1)  // the old snapshot never changes
    }

    @Test func scale2RendersAtDevicePixels() throws {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        root.backgroundColor = .blue
        let c = try Compositor(pixelWidth: 20, pixelHeight: 20, scale: 2)
        c.composite(root.snapshot(), at: 0)
        #expect(c.backBuffer.argb32(x: 19, y: 19) == 0xff00_00ff)
    }

    @Test func fadeInAnimatesOnTheFrameClock() throws {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        root.backgroundColor = .black
        let card = Layer()
        card.frame = root.bounds
        card.contentsFadeInDuration = 0.3
        root.addSublayer(card)
        let c = try Compositor(pixelWidth: 10, pixelHeight: 10)
        c.composite(root.snapshot(), at: 0)
        let white = try Bitmap(width: 10, height: 10)
        white.fill(.white)
        card.contents = white
        let snap = root.snapshot()
        var values: [UInt32] = []
        var running = true
        var t = 1.0
        while running {
            let f = c.composite(snap, at: t)
            values.append(c.backBuffer.argb32(x: 5, y: 5) & 0xff)
            running = f.hasRunningAnimations
            t += 1.0 / 60
            if values.count > 100 { break }
        }
        #expect(values.first == 0)
        #expect(values.last == 255)
        #expect(values == values.sorted(), "fade must brighten monotonically: \(values)")
        #expect((17...20).contains(values.count), "0.3 s at 60 Hz is ~18 frames, got \(values.count)")
        // After the animation, nothing is damaged any more.
        #expect(c.composite(snap, at: t + 1).damage.isEmpty)
    }
}

@Suite struct ScrolledContainerTests {
    /// A clipping container scrolled far down shows the sublayers under its viewport.
    @Test(arguments: [0.0, 64.0, 1200.0])
    func scrolledChildIsVisible(offset: Double) throws {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        root.backgroundColor = .black
        let container = Layer()
        container.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        container.clipsToBounds = true
        container.bounds.origin = Point(x: 0, y: offset)
        root.addSublayer(container)
        let child = Layer()
        child.frame = Rect(x: 10, y: offset + 20, width: 30, height: 30)
        child.backgroundColor = .red
        container.addSublayer(child)
        let c = try Compositor(pixelWidth: 100, pixelHeight: 100)
        c.composite(root.snapshot(), at: 0)
        #expect(c.backBuffer.argb32(x: 20, y: 30) == 0xffff_0000, "offset \(offset)")
    }
}
