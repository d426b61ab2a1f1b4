import Foundation
import SilkRaster
import SilkRender
import SilkSystem

/// Plays an animated GIF, WebP or Lottie animation as a layer's ``LayerContentsSource``: the render thread picks the
/// frame for each frame time; a display queue decodes a few frames ahead into a small ring.
///
/// - **Ring.** At most `capacity` decoded frames wait (each already drawn at the node's pixel size
///   with its content mode, crop and modification), plus the one on screen. Decoding is
///   sequential (`AnimatedImageDecoder`): memory is the ring and the decoder's canvas whatever the
///   frame count, so a 500-frame GIF costs what a 5-frame one of its size does.
/// - **Timing.** Frame *n* shows from the first frame time at or after the end of frame *n − 1*
///   (each frame's own delay, ≤ 10 ms clamped to 100 ms as browsers do). A late decode does not
///   fast-forward: when the next frame is not ready the current one stays, and more than 250 ms
///   behind the clock re-anchors to the frame that finally shows.
/// - **Loops** as the file says (`AnimatedImageDecoder.playCount`); after the last play the last
///   frame stays and the source stops asking for frames.
/// - **Visibility.** `pause()` (the node left the visible range) drops the ring and the decoder
///   and stops decoding; the frame on screen stays. `resume()` decodes again from the file,
///   skipping (compositing but not drawing) to the frame after the one shown, and times on from
///   the next frame time.
/// - **Errors.** A frame that fails to decode (truncated LZW, a damaged chunk) ends the pass: the
///   frames before it keep looping, as browsers show what they could decode.
///
/// Thread safety: state behind `lock`; the decoder is used only on the player's one serial
/// display queue. `contents(at:)` is the render thread's; `pause`/`resume`/`stop` any thread.
final class AnimatedImagePlayer: LayerContentsSource, @unchecked Sendable {
    /// Draws a decoded canvas as the node shows it (display queue).
    typealias Renderer = @Sendable (Bitmap) throws -> Bitmap

    struct Frame {
        let bitmap: Bitmap
        let delay: Double
        let index: Int
    }

    /// What tests and the benchmark read.
    struct Statistics: Sendable, Equatable {
        var decodedFrames = 0
        var shownFrames = 0
        var bufferedFrames = 0
        var retainedBytes = 0
        var completedPlays = 0
        var lateFrames = 0
        var isPaused = true
        var isFinished = false
        var currentIndex = 0
    }

    let capacity: Int
    /// Makes a fresh decoder at the first frame (after a pause released the last one).
    private let makeDecoder: @Sendable () throws(RasterError) -> AnimatedImageDecoder
    private let renderer: Renderer
    private let queue: DispatchQueue
    private let maxPixels: Int
    private let lock = Lock()
    // Guarded by lock:
    private var decoder: AnimatedImageDecoder?
    private var ring: [Frame] = []
    private var current: Frame?
    /// The index and delay of what shows, even before `current` holds a bitmap (frame 0 is the
    /// node's own contents until the ring's first frame replaces it).
    private var currentIndex = 0
    private var currentDelay: Double
    private var due: Double?
    private var paused = true
    private var generation = 0
    private var decodeInFlight = false
    private var endOfStream = false
    private var finished = false
    /// The file index the decoder must reach before drawing again (after a resume).
    private var skipUntil = 0
    private var stats = Statistics()
    private var decoderBytes = 0
    private var playCount: Int?
    /// The file index of the last frame the decoder produced (frame 0 came from the display job).
    private var lastDecodedIndex = 0

    /// A player whose `decoder` has just produced frame 0 (`firstDelay`), which the node already
    /// shows as its contents. Starts paused.
    convenience init(data: Data, decoder: AnimatedImageDecoder, firstDelay: Double, maxPixels: Int, capacity: Int = 3,
                     renderer: @escaping Renderer) {
        self.init(decoder: decoder, firstDelay: firstDelay, maxPixels: maxPixels, capacity: capacity,
                  makeDecoder: { () throws(RasterError) in try AnimatedImageDecoder(data: data, maxPixels: maxPixels) },
                  renderer: renderer)
    }

    /// A player whose `decoder` has just produced frame 0; `makeDecoder` makes another after a
    /// pause (a Lottie animation's, at the node's pixel size). Starts paused.
    init(decoder: AnimatedImageDecoder, firstDelay: Double, maxPixels: Int, capacity: Int = 3,
         makeDecoder: @escaping @Sendable () throws(RasterError) -> AnimatedImageDecoder,
         renderer: @escaping Renderer) {
        self.makeDecoder = makeDecoder
        self.decoder = decoder
        self.renderer = renderer
        self.maxPixels = maxPixels
        self.capacity = max(1, capacity)
        currentDelay = firstDelay
        playCount = decoder.playCount
        decoderBytes = decoder.retainedBytes
        queue = DisplayQueuePool.shared.next()
    }

    var statistics: Statistics {
        lock.withLock {
            var s = stats
            s.bufferedFrames = ring.count
            s.retainedBytes = ring.reduce(0) { $0 + $1.bitmap.byteCount } + (current?.bitmap.byteCount ?? 0)
                + (decoder == nil ? 0 : decoderBytes)
            s.isPaused = paused
            s.isFinished = finished
            s.currentIndex = currentIndex
            return s
        }
    }

    // MARK: Render thread

    func contents(at time: Double) -> LayerContentsSample {
        lock.withLock {
            guard !paused, !finished else { return LayerContentsSample(bitmap: current?.bitmap, isAnimating: false) }
            guard let d = due else {
                due = time + currentDelay
                _lockedScheduleDecode()
                return LayerContentsSample(bitmap: current?.bitmap, isAnimating: true, ends: playCount != nil)
            }
            if time >= d {
                if let next = ring.first {
                    ring.removeFirst()
                    current = next
                    currentIndex = next.index
                    currentDelay = next.delay
                    stats.shownFrames += 1
                    // On time: the next frame is due a delay after this one was. Far behind (a
                    // stalled decode): start timing again from now.
                    if time - d > 0.25 { stats.lateFrames += 1; due = time + next.delay } else { due = d + next.delay }
                    _lockedScheduleDecode()
                } else if endOfStream && !decodeInFlight {
                    finished = true
                    return LayerContentsSample(bitmap: current?.bitmap, isAnimating: false)
                }
            }
            return LayerContentsSample(bitmap: current?.bitmap, isAnimating: true, ends: playCount != nil)
        }
    }

    // MARK: Visibility (any thread)

    /// Starts or continues playing: decoding resumes (from the file when it was released).
    func resume() {
        lock.withLock {
            guard paused else { return }
            paused = false
            due = nil
            _lockedScheduleDecode()
        }
    }

    /// Stops decoding and releases the ring and the decoder; the frame on screen stays.
    func pause() {
        lock.withLock {
            guard !paused else { return }
            paused = true
            generation += 1
            decodeInFlight = false
            ring.removeAll()
            decoder = nil
            endOfStream = false
            skipUntil = currentIndex + 1
        }
    }

    // MARK: Decoding (the player's display queue)

    private func _lockedScheduleDecode() {
        guard !paused, !finished, !decodeInFlight, !endOfStream, ring.count < capacity else { return }
        decodeInFlight = true
        let g = generation
        queue.async { [self] in decodeAhead(generation: g) }
    }

    private func decodeAhead(generation g: Int) {
        while true {
            let state = lock.withLock { () -> (AnimatedImageDecoder?, Int)? in
                guard g == generation, !paused, ring.count < capacity, !endOfStream else {
                    if g == generation { decodeInFlight = false }
                    return nil
                }
                return (self.decoder, skipUntil)
            }
            guard let (existing, skip) = state else { return }
            var dec: AnimatedImageDecoder
            if let existing { dec = existing } else {
                do throws(RasterError) {
                    dec = try makeDecoder()
                    // Lottie renders any frame directly: start at the one to show next.
                    dec.skipAhead(to: skip)
                } catch {
                    lock.withLock { if g == generation { endOfStream = true; decodeInFlight = false } }
                    return
                }
                lock.withLock { if g == generation { self.decoder = dec } }
            }
            var frame: AnimatedImageFrame?
            var failed = false
            do throws(RasterError) { frame = try dec.nextFrame() } catch { failed = true }
            guard let frame else {
                // End of a pass (or a damaged frame: the frames before it stand).
                let again = lock.withLock { () -> Bool in
                    guard g == generation else { return false }
                    stats.completedPlays += 1
                    playCount = failed ? playCount : dec.playCount
                    // One frame in the file: a still image, nothing to loop.
                    if !failed, lastDecodedIndex == 0 { endOfStream = true; return false }
                    if let n = playCount, stats.completedPlays >= n { endOfStream = true; return false }
                    if failed, currentIndex == 0, ring.isEmpty, stats.decodedFrames == 0 { endOfStream = true; return false }
                    skipUntil = 0
                    return true
                }
                if again {
                    do throws(RasterError) { try dec.rewind() } catch {
                        lock.withLock { if g == generation { endOfStream = true } }
                    }
                }
                continue
            }
            lock.withLock { lastDecodedIndex = frame.index }
            if frame.index < skip { continue }
            let bitmap: Bitmap
            do { bitmap = try renderer(frame.canvas) } catch {
                lock.withLock { if g == generation { endOfStream = true; decodeInFlight = false } }
                return
            }
            lock.withLock {
                guard g == generation else { return }
                ring.append(Frame(bitmap: bitmap, delay: frame.delay, index: frame.index))
                stats.decodedFrames += 1
                decoderBytes = dec.retainedBytes
            }
        }
    }
}
