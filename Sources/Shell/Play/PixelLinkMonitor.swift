/// Back-pressure for the pixel path, kept simple until the terminal's write path reports how
/// much is still queued: a picture write that took longer than one frame means the link (or
/// the terminal) is behind, so frames are skipped for as long again; three pictures in a row
/// that each took over 100 ms mean the link cannot carry pixels, and the play screen goes back
/// to half blocks. Writes block until the terminal took the bytes, so their duration is what
/// the link costs. UI thread only (value type).
struct PixelLinkMonitor {
    /// One frame at the game's rate.
    var framePeriod: Duration
    /// The longest a picture may take before it counts as too slow.
    static let slowWrite = Duration.milliseconds(100)
    static let slowWritesBeforeFallback = 3

    private(set) var slowWritesInARow = 0
    private var skipUntil: ContinuousClock.Instant?

    init(framePeriod: Duration) { self.framePeriod = framePeriod }

    /// A picture of `bytes` went out, starting at `started` and taking `duration`.
    mutating func recordWrite(started: ContinuousClock.Instant, duration: Duration) {
        skipUntil = duration > framePeriod ? started + duration * 2 : nil
        slowWritesInARow = duration > Self.slowWrite ? slowWritesInARow + 1 : 0
    }

    /// Whether the frame due at `now` should be left out (the last one has not drained).
    func shouldSkipFrame(now: ContinuousClock.Instant) -> Bool {
        guard let skipUntil else { return false }
        return now < skipUntil
    }

    /// The link cannot carry a compressed picture per 100 ms.
    var shouldFallBack: Bool { slowWritesInARow >= Self.slowWritesBeforeFallback }
}
