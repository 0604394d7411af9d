import PhosphorKit

/// Keeps the picture within about two frames of what the link to the terminal can carry.
///
/// `TerminalSession.write` blocks once the pty is full, and over SSH every buffer between the
/// game and the screen (pty, sshd, TCP) fills before it does: the picture would lag by seconds.
/// So each frame's bytes are followed by a probe, a cursor-position request (`CSI 6 n`), and the
/// terminal's answer (`CSI row;col R`) says the frame has crossed the whole link (the local pty's
/// queue, `TIOCOUTQ`, would only see sshd's side). At most `maximumFramesInFlight` unanswered
/// frames are out; a frame that finds the link busy is skipped (the next one shows the game as it
/// is then), so a slow link lowers the frame rate first; `prefersFewerColors` says when even
/// that is not enough and the picture should cost less per frame (256 colours).
///
/// Any frame writer can use it: ask `mayWriteFrame`, append `probe` to the frame's bytes, call
/// `didWriteFrame`, and feed it the terminal's answers with `replyReceived`. Pure value with the
/// clock passed in, so tests drive it with a manual clock. UI thread only.
public struct LinkPacer: Sendable {
    /// Frames whose answer has not come back yet, at most.
    public static let maximumFramesInFlight = 2
    /// An answer later than this is given up on (a terminal that never answers `CSI 6 n`).
    public static let replyTimeout = Duration.seconds(1)
    /// Moves the cursor to the bottom row first, so the answer's row is never 1: `CSI 1;m R` is
    /// also what F3 with modifiers sends.
    public static let probe: [UInt8] = Array("\u{1B}[9999;1H\u{1B}[6n".utf8)

    /// What the status bar shows, recomputed once a second.
    public struct Stats: Sendable, Equatable {
        /// Bytes written to the terminal in the last second.
        public var bytesPerSecond = 0
        /// Frames written in the last second.
        public var framesShownPerSecond = 0
        /// Frames skipped (link busy) in the last second, and since the start.
        public var framesSkippedPerSecond = 0
        public var framesSkipped = 0
        /// What the link delivered in the last second while it was the limit (nil: not limited).
        public var linkBytesPerSecond: Int?
        public var isLimited: Bool { linkBytesPerSecond != nil }

        public init() {}
    }

    /// Off: every frame is written (the old behaviour, for comparison in `make bench`).
    public var isEnabled: Bool
    public private(set) var stats = Stats()
    /// Frames written and not yet answered, oldest first.
    public private(set) var inFlight: [(bytes: Int, sentAt: ContinuousClock.Instant)] = []
    /// True after `replyTimeout` passed three times in a row: the terminal does not answer, so
    /// frames are no longer held back (as before the pacer).
    public private(set) var terminalIgnoresProbes = false
    /// The link could not carry even a few frames a second at full colour: draw fewer colours.
    public private(set) var prefersFewerColors = false

    private var timeoutsInARow = 0
    private var windowStart: ContinuousClock.Instant?
    private var windowBytes = 0
    private var windowFrames = 0
    private var windowSkipped = 0
    private var windowAnsweredBytes = 0
    private var fewerColorsSince: ContinuousClock.Instant?

    /// Below this many frames a second on a limited link, the picture switches to fewer colours.
    static let fewestFramesPerSecond = 15
    /// How long fewer colours stay before full colour is tried again.
    static let fewerColorsFor = Duration.seconds(10)

    public init(isEnabled: Bool = true) {
        self.isEnabled = isEnabled
    }

    /// Whether a frame may be written now (false: skip it, the link has not caught up).
    public mutating func mayWriteFrame(now: ContinuousClock.Instant) -> Bool {
        guard isEnabled, !terminalIgnoresProbes else { return true }
        while let oldest = inFlight.first, now - oldest.sentAt > LinkPacer.replyTimeout {
            inFlight.removeFirst()
            timeoutsInARow += 1
            if timeoutsInARow >= 3 { terminalIgnoresProbes = true }
        }
        return inFlight.count < LinkPacer.maximumFramesInFlight
    }

    /// Whether the frame's bytes should be followed by `probe`.
    public var wantsProbe: Bool { isEnabled && !terminalIgnoresProbes }

    /// A frame of `bytes` (probe included) was written.
    public mutating func didWriteFrame(bytes: Int, now: ContinuousClock.Instant) {
        roll(now)
        windowBytes += bytes
        windowFrames += 1
        if wantsProbe { inFlight.append((bytes, now)) }
    }

    /// A frame was due but the link was busy.
    public mutating func didSkipFrame(now: ContinuousClock.Instant) {
        roll(now)
        windowSkipped += 1
        stats.framesSkipped += 1
    }

    /// The terminal answered a probe: the oldest frame in flight has arrived.
    public mutating func replyReceived(now: ContinuousClock.Instant) {
        guard !inFlight.isEmpty else { return }
        timeoutsInARow = 0
        windowAnsweredBytes += inFlight.removeFirst().bytes
        roll(now)
    }

    /// Forgets the frames in flight (the screen was covered by a menu, whose answers went elsewhere).
    public mutating func forgetFramesInFlight() { inFlight.removeAll() }

    /// Publishes the last second's counts once it is over.
    private mutating func roll(_ now: ContinuousClock.Instant) {
        let start = windowStart ?? now
        windowStart = start
        let elapsed = now - start
        guard elapsed >= .seconds(1) else { return }
        let seconds = elapsed.inSeconds
        stats.bytesPerSecond = Int(Double(windowBytes) / seconds)
        stats.framesShownPerSecond = Int((Double(windowFrames) / seconds).rounded())
        stats.framesSkippedPerSecond = Int((Double(windowSkipped) / seconds).rounded())
        stats.linkBytesPerSecond = windowSkipped > 0 ? Int(Double(windowAnsweredBytes) / seconds) : nil
        if stats.isLimited && stats.framesShownPerSecond < LinkPacer.fewestFramesPerSecond {
            if !prefersFewerColors { fewerColorsSince = now }
            prefersFewerColors = true
        } else if prefersFewerColors, let since = fewerColorsSince, now - since >= LinkPacer.fewerColorsFor {
            prefersFewerColors = false
        }
        windowStart = now
        windowBytes = 0
        windowFrames = 0
        windowSkipped = 0
        windowAnsweredBytes = 0
    }
}
