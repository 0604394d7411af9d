import Foundation
import PhosphorKit
import Render

/// Renders a frame sequence the way the play view does (begin frame, draw, encode the changes)
/// and measures time and bytes per frame.
struct RenderBenchmark {
    struct Result {
        var scene: String
        var columns: Int
        var rows: Int
        var frames: Int
        /// Mean time per frame over all passes (convert + downsample + diff + encode): wall time
        /// back to back, the thread's CPU time when paced (`sleepBeforeEachFrame`).
        var microsecondsPerFrame: Double
        /// Bytes of the first frame (a full redraw).
        var firstFrameBytes: Int
        /// Mean bytes of frames 2…N (only what changed).
        var steadyBytesPerFrame: Double
        /// Mean time and bytes when every frame is a full redraw (`invalidate()` before each).
        var fullRedrawMicroseconds: Double
        var fullRedrawBytes: Double
    }

    var colorMode: ColorMode
    var passes: Int
    /// Configure the encoder as the play screen does on xterm-256color with its palette answered
    /// (REP, DCH/ICH row shifts, the 71 redefinable palette entries), not with its defaults.
    var likePlay = false
    /// With `likePlay`: rows planned for the fewest bytes, as over a link that limits the picture
    /// (else cell by cell, as on a terminal that takes every byte at once: `LinkPacer.bytesAreCheap`).
    var bytesFirst = false
    /// Microseconds of sleep before each frame, and the thread's CPU time counted (nil: frames
    /// back to back, wall time). A Game Boy frame's time (`framePeriodMicroseconds`) is what the
    /// play screen's thread sleeps between frames: the same work then costs about 1.5× what it
    /// costs back to back on these machines (caches and the CPU go cold while the thread sleeps),
    /// which is what play's `drawing=` figure shows; back to back flatters the renderer. Shorter
    /// sleeps show how much of that is going idle at all (on a VM whose idle CPU exits to the host
    /// at once).
    var sleepBeforeEachFrame: UInt32?

    /// A Game Boy frame at 59.73 frames a second.
    static let framePeriodMicroseconds: UInt32 = 16_743

    func run(scene: String, frames: [RawFrameFile], columns: Int, rows: Int) throws -> Result {
        let renderer = FrameRenderer(colorMode: colorMode, synchronizedOutput: false)
        if likePlay {
            renderer.encoder.repeatsCharacters = true
            renderer.encoder.shiftsRows = true
            renderer.encoder.plansRows = bytesFirst
            renderer.encoder.triesLastShiftFirst = !bytesFirst
            let entries = (16...24).map(UInt8.init) + (26...87).map(UInt8.init)
            renderer.encoder.paletteSlots = PaletteSlots(indices: entries, restoreBytes: [])
        }
        var output: [UInt8] = []
        output.reserveCapacity(1 << 20)
        var firstBytes = 0, steadyBytes = 0
        let target = CellRect(x: 0, y: 0, columns: columns, rows: rows)

        func render(_ frame: RawFrameFile) throws -> Int {
            output.removeAll(keepingCapacity: true)
            renderer.beginFrame(columns: columns, rows: rows)
            try frame.pixels.withUnsafeBytes { raw in
                let source = try FrameSource(bytes: raw, width: frame.width, height: frame.height, pitch: frame.width * 4, format: .xrgb8888)
                renderer.draw(source, from: source.bounds, into: target)
            }
            return renderer.encodeChanges(into: &output)
        }

        // Incremental: the normal case.
        var elapsed: UInt64 = 0
        for pass in 0..<passes {
            renderer.invalidate()
            for (index, frame) in frames.enumerated() {
                if let sleepBeforeEachFrame { usleep(sleepBeforeEachFrame) }
                let paced = sleepBeforeEachFrame != nil
                let start = paced ? Clock.threadCPU() : Clock.now()
                let bytes = try render(frame)
                elapsed += (paced ? Clock.threadCPU() : Clock.now()) - start
                if pass == 0 {
                    if index == 0 { firstBytes = bytes } else { steadyBytes += bytes }
                }
            }
        }
        // Full redraw of every frame: what a renderer without diffing sends.
        var fullElapsed: UInt64 = 0, fullBytes = 0
        for frame in frames {
            renderer.invalidate()
            let start = Clock.now()
            fullBytes += try render(frame)
            fullElapsed += Clock.now() - start
        }
        let count = frames.count
        return Result(scene: scene, columns: columns, rows: rows, frames: count,
                      microsecondsPerFrame: Double(elapsed) / 1000 / Double(count * passes),
                      firstFrameBytes: firstBytes,
                      steadyBytesPerFrame: count > 1 ? Double(steadyBytes) / Double(count - 1) : 0,
                      fullRedrawMicroseconds: Double(fullElapsed) / 1000 / Double(count),
                      fullRedrawBytes: Double(fullBytes) / Double(count))
    }
}

/// Nanoseconds: monotonic wall time, or the calling thread's CPU time.
enum Clock {
    static func now() -> UInt64 { read(CLOCK_MONOTONIC) }

    static func threadCPU() -> UInt64 { read(CLOCK_THREAD_CPUTIME_ID) }

    private static func read(_ clock: clockid_t) -> UInt64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
