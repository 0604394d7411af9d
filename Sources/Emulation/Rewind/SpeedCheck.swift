/// Times the frames of rewind or run-ahead in real-time play for one verdict: is the feature
/// too slow for the game's frame rate? It decides once, after two seconds' worth of frames or
/// two seconds spent on them, whichever comes first: in a debug build keeping a desmume state
/// took 3.2 s a frame, and waiting for 120 such frames was six and a half minutes.
///
/// Pure value. Core thread (owned by `FrameTimeline`).
struct SpeedCheck {
    /// The most time spent on frames before the verdict.
    static let longest = Duration.seconds(2)

    /// The verdict was given: nothing more is timed.
    private(set) var isDecided = false
    private var frames = 0
    private var total = Duration.zero
    /// Time within those frames spent on one part of them (rewind: keeping the states).
    var part = Duration.zero

    /// Counts a frame that took `spent`. When the check is due (once), the average seconds a
    /// frame took and spent on `part`.
    mutating func record(_ spent: Duration, framesPerSecond: Double) -> (frame: Double, part: Double)? {
        guard !isDecided else { return nil }
        frames += 1
        total += spent
        guard frames >= Int(max(framesPerSecond, 1) * 2) || total >= Self.longest else { return nil }
        isDecided = true
        return (total.inSeconds / Double(frames), part.inSeconds / Double(frames))
    }
}
