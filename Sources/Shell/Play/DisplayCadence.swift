/// When the play screen next takes and draws a frame. UI thread only.
///
/// The ticks follow the core's frames: after a tick took a frame, the next comes `margin` after
/// the next frame is due (`follow`), so a frame is drawn 1–2 ms after the core made it. A
/// timer of its own, of the same period as the core's, would keep whatever phase it started
/// with: from 0 to a whole period late, and when that phase is near the core's, sleep jitter
/// makes it find two frames at one tick (one never shown) and none at the next.
///
/// When no frame came (a paused core, a game that repeats frames) the ticks keep a fixed
/// cadence (deadline += period), so the status line goes on; only a tick that was due moves the
/// deadline (the UI loop also wakes for every key).
struct DisplayCadence {
    /// How long after a frame is due the tick that takes it comes: more than the core's jitter
    /// (its sleep's overshoot, the frame's varying cost), little against a frame's time.
    static let margin = Duration.milliseconds(1)
    /// How long a due tick that found no frame, right after one that took one, waits before it
    /// looks again; and how many times (a frame up to 3 ms late is still drawn, not skipped).
    static let retryInterval = Duration.milliseconds(1)
    static let retries = 3

    private(set) var nextTick: ContinuousClock.Instant
    /// When the frame taken last was published (the real clock) and its number, nil before the first.
    private var lastFrame: (published: ContinuousClock.Instant, sequence: UInt64)?
    /// The last due tick took a frame, or looked again this many times since it did: frames are
    /// coming, one is only late.
    private var lookedAgain: Int?

    init(start: ContinuousClock.Instant = .now) { nextTick = start }

    /// How long to sleep from `now` until the next tick; advances the deadline if it was due.
    mutating func timeUntilNextTick(now: ContinuousClock.Instant, period: Duration) -> Duration {
        if now >= nextTick {
            nextTick += period
            // Far behind (a stall, a suspended process): start again from now, don't race.
            if nextTick <= now { nextTick = now + period }
        }
        return nextTick - now
    }

    /// A tick at `now` took frame `sequence`, which the core published at `published`; `realNow`
    /// is the real clock's now (`now` is the terminal's, a test's manual one). The next tick comes
    /// `margin` after the next frame is due: a period after this one, or the core's own time per
    /// frame where it is slower than its rate (a heavy game); frames the UI did not take (a busy
    /// link) do not count as slowness. Fast-forward's frames come sooner, and the newest is taken
    /// a period on.
    ///
    /// Works in whole nanoseconds: `Duration`'s `*` and `/` take the standard library's generic
    /// 128-bit path: 10 µs a frame in play on this machine, 2 µs in nanoseconds (120×50).
    mutating func follow(frameAt published: ContinuousClock.Instant, sequence: UInt64, now: ContinuousClock.Instant,
                         realNow: ContinuousClock.Instant, period: Duration) {
        let periodNanoseconds = period.nanoseconds
        var interval = periodNanoseconds
        if let lastFrame, sequence > lastFrame.sequence {
            let perFrame = (published - lastFrame.published).nanoseconds / Int64(sequence - lastFrame.sequence)
            if perFrame > periodNanoseconds && perFrame < periodNanoseconds * 4 { interval = perFrame }
        }
        lastFrame = (published, sequence)
        lookedAgain = 0
        let untilTick = (published - realNow).nanoseconds + interval + DisplayCadence.margin.nanoseconds
        nextTick = now + .nanoseconds(min(max(untilTick, periodNanoseconds / 2), interval * 3 / 2))
    }

    /// A tick at `now` took no frame. If it was due and frames are coming, looks again shortly
    /// (the frame is late, not missing); otherwise the fixed cadence goes on.
    mutating func tookNoFrame(now: ContinuousClock.Instant) {
        guard now >= nextTick else { return }
        if let looked = lookedAgain, looked < DisplayCadence.retries {
            lookedAgain = looked + 1
            nextTick = now + DisplayCadence.retryInterval
        } else {
            lookedAgain = nil
        }
    }
}
