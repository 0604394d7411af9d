/// When the play screen next takes and draws a frame: a fixed cadence (deadline += period), so
/// the displayed rate doesn't drift below the game's, and only a tick that was due moves the
/// deadline (the UI loop also wakes for every key and redraw). UI thread only.
struct DisplayCadence {
    private(set) var nextTick: ContinuousClock.Instant

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
}
