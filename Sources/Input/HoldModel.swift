/// How a key is held when nothing reports its release (the "tap model").
///
/// Keyboards autorepeat a held key: the first repeat comes after the repeat delay, then one every
/// repeat interval. Measured in xterm under Xvfb with X11's defaults: first repeat 660 ms after the
/// press, then every 40 ms (GNOME defaults to 500 ms and 30/s; many users pick 250...600 ms).
///
/// So a press that has not repeated is a tap: the game sees it for `tapLength` (a few frames), then
/// it is up again. A press of the same key within `initialDelay` of it is its first autorepeat:
/// from then on the key is held until no repeat arrived for `repeatGap`. One tap is one short
/// press, so a game's menu moves one row, and a held key is held (after a gap of the repeat delay,
/// the honest limit of a terminal that sends presses only).
///
/// `initialDelay` and `repeatGap` start at the configured values and follow the user's own
/// autorepeat once it has been measured (see `HoldModel.measuredRepeat`).
public struct HoldTiming: Sendable, Equatable {
    /// The longest wait for the first autorepeat after a press. Generous until the real delay is
    /// measured (X11's default is 660 ms, others 250...600 ms), then the measured one plus a margin.
    public var initialDelay: Duration
    /// How long a repeating key stays held after its latest repeat.
    public var repeatGap: Duration
    /// How long a tap (a press that never repeats) is held.
    public var tapLength: Duration
    /// With real releases (kitty protocol, XInput2, evdev): the shortest press a game sees, so a
    /// quick tap still spans a few frames and is not lost between two polls.
    public var minimumPress: Duration
    /// Legacy terminals stop repeating a key when another key goes down, though it is still held
    /// (X11 repeats only the newest key). With this on, keys held when another key is pressed stay
    /// held as long as that newer key is held or may still start repeating, so Right + Jump works.
    public var carryHeldKeys: Bool
    /// Whether measured autorepeat replaces `initialDelay` and `repeatGap`.
    public var adaptsToMeasuredRepeat: Bool

    public init(initialDelay: Duration = .milliseconds(1000), repeatGap: Duration = .milliseconds(100),
                tapLength: Duration = .milliseconds(66), minimumPress: Duration = .milliseconds(50),
                carryHeldKeys: Bool = true, adaptsToMeasuredRepeat: Bool = true) {
        self.initialDelay = initialDelay
        self.repeatGap = repeatGap
        self.tapLength = tapLength
        self.minimumPress = minimumPress
        self.carryHeldKeys = carryHeldKeys
        self.adaptsToMeasuredRepeat = adaptsToMeasuredRepeat
    }

    public static let standard = HoldTiming()

    /// The timing for a keyboard whose first repeat comes `delay` after the press and then every
    /// `interval`: the first-repeat window gets a margin for scheduling and terminal latency, and
    /// a repeating key is let go one and a half intervals (plus 20 ms) after its last repeat.
    public func following(repeatDelay delay: Duration, interval: Duration) -> HoldTiming {
        var timing = self
        timing.initialDelay = delay + max(.milliseconds(60), delay * 0.15)
        timing.repeatGap = interval * 1.5 + .milliseconds(20)
        return timing
    }
}

/// The keyboard's autorepeat as measured from the user's own key holds.
public struct RepeatTiming: Sendable, Equatable {
    /// From the press to the first repeat.
    public var delay: Duration
    /// Between two repeats.
    public var interval: Duration

    public init(delay: Duration, interval: Duration) {
        self.delay = delay
        self.interval = interval
    }

    /// Plausible keyboard settings only (a double tap is not a repeat delay).
    var isPlausible: Bool {
        (Duration.milliseconds(100)...Duration.milliseconds(2000)).contains(delay)
            && (Duration.milliseconds(8)...Duration.milliseconds(200)).contains(interval)
    }
}

/// Which keys are held right now, driven by timed key events and queried with `now`. A pure value:
/// the same events at the same times always give the same answers. UI thread only.
///
/// With `releaseEvents` (kitty protocol, or a side channel such as XInput2) a key is held from
/// press to release (at least `minimumPress`). Without, the tap model of `HoldTiming` applies.
public struct HoldModel: Sendable {
    public let releaseEvents: Bool
    public var timing: HoldTiming
    /// The autorepeat measured so far (nil until a key was held through a few repeats).
    public private(set) var measuredRepeat: RepeatTiming?

    private struct Hold {
        var pressedAt: ContinuousClock.Instant
        var firstRepeat: ContinuousClock.Instant?
        /// The key's previous press when it was a tap just before this one (see `noteRepeat`).
        var previousPressAt: ContinuousClock.Instant?
        var lastRepeat: ContinuousClock.Instant?
        var repeatCount = 0
        /// Real release time, already pushed out to the minimum press length.
        var releasesAt: ContinuousClock.Instant?
        /// Legacy: the newer key whose hold keeps this one held (see `HoldTiming.carryHeldKeys`).
        var carriedBy: Key?
    }

    private var holds: [Key: Hold] = [:]
    /// When each key was last tapped (pressed without repeating), for the last two seconds.
    private var recentTaps: [Key: ContinuousClock.Instant] = [:]
    /// Recent repeat intervals and first-repeat delays of sequences that really repeated.
    private var intervalSamples: [Duration] = []
    private var delaySamples: [Duration] = []

    public init(releaseEvents: Bool, timing: HoldTiming = .standard) {
        self.releaseEvents = releaseEvents
        self.timing = timing
    }

    /// The one-time notice the play screen shows when releases can't be reported.
    public static let noReleaseNotice =
        "No key release here: a tap is a short press, a held key counts once it autorepeats. "
        + "For exact control use a kitty-protocol terminal (kitty, foot, WezTerm, Ghostty), "
        + "an X11 desktop (XInput2), hold buttons, or a gamepad."

    public mutating func handle(_ event: KeyEvent, now: ContinuousClock.Instant) {
        removeExpired(now: now)
        let key = event.key
        switch event.kind {
        case .release:
            guard var hold = holds[key] else { return }
            hold.releasesAt = max(now, hold.pressedAt + timing.minimumPress)
            holds[key] = hold
        case .repeat:
            if releaseEvents, holds[key]?.releasesAt == nil, holds[key] != nil {
                return  // still held from its press
            }
            if !releaseEvents, isAutorepeat(key, now: now) { noteRepeat(of: key, now: now) } else { press(key, now: now) }
        case .press:
            if releaseEvents, let hold = holds[key], hold.releasesAt == nil {
                return  // a side channel's repeated press: still held
            }
            // Legacy terminals send autorepeat as more presses.
            if !releaseEvents, isAutorepeat(key, now: now) { noteRepeat(of: key, now: now) } else { press(key, now: now) }
        }
    }

    /// Legacy: whether a press of `key` at `now` continues its autorepeat (within the first-repeat
    /// window after its press, or within `repeatGap` of its last repeat) rather than a new press.
    public func isAutorepeat(_ key: Key, now: ContinuousClock.Instant) -> Bool {
        guard !releaseEvents, let hold = holds[key] else { return false }
        return now < repeatWindowEnd(hold)
    }

    private func repeatWindowEnd(_ hold: Hold) -> ContinuousClock.Instant {
        hold.lastRepeat.map { $0 + timing.repeatGap } ?? hold.pressedAt + timing.initialDelay
    }

    private mutating func noteRepeat(of key: Key, now: ContinuousClock.Instant) {
        guard var hold = holds[key] else { return }
        if let last = hold.lastRepeat { record(&intervalSamples, now - last, keep: 16) }
        if hold.firstRepeat == nil { hold.firstRepeat = now }
        hold.lastRepeat = now
        hold.repeatCount += 1
        hold.carriedBy = nil
        // Three repeats in a row are autorepeat, not a double tap: its first one measured the delay.
        if hold.repeatCount == 3, let first = hold.firstRepeat, let interval = intervalSamples.last {
            // A first repeat later than `initialDelay` looks like a new press, and its train then
            // starts one interval after it: the real delay is from the tap before.
            let delay = first - hold.pressedAt
            if delay < interval * 2, let previous = hold.previousPressAt {
                record(&delaySamples, hold.pressedAt - previous, keep: 4)
            } else {
                record(&delaySamples, delay, keep: 4)
            }
        }
        holds[key] = hold
        if hold.repeatCount >= 3 { adoptMeasurement() }
    }

    private func record(_ samples: inout [Duration], _ sample: Duration, keep: Int) {
        samples.append(sample)
        if samples.count > keep { samples.removeFirst(samples.count - keep) }
    }

    private mutating func adoptMeasurement() {
        guard intervalSamples.count >= 2, !delaySamples.isEmpty else { return }
        let measured = RepeatTiming(delay: Self.median(delaySamples), interval: Self.median(intervalSamples))
        guard measured.isPlausible, measured != measuredRepeat else { return }
        measuredRepeat = measured
        if timing.adaptsToMeasuredRepeat { timing = timing.following(repeatDelay: measured.delay, interval: measured.interval) }
    }

    private static func median(_ samples: [Duration]) -> Duration {
        samples.sorted()[samples.count / 2]
    }

    /// Starts from a known autorepeat (X11's XKB controls) before any is measured.
    public mutating func adopt(_ repeatTiming: RepeatTiming) {
        guard repeatTiming.isPlausible else { return }
        timing = timing.following(repeatDelay: repeatTiming.delay, interval: repeatTiming.interval)
    }

    private mutating func press(_ key: Key, now: ContinuousClock.Instant) {
        if !releaseEvents, timing.carryHeldKeys {
            // Only keys that were autorepeating are really held (a tap is over in a few frames).
            for (other, hold) in holds where other != key && hold.lastRepeat != nil && isHeld(other, now: now, carriersToFollow: 8) {
                holds[other]?.carriedBy = key
            }
        }
        var hold = Hold(pressedAt: now)
        if let before = holds[key], before.lastRepeat == nil { recentTaps[key] = before.pressedAt }
        hold.previousPressAt = recentTaps[key]
        holds[key] = hold
    }

    public func isHeld(_ key: Key, now: ContinuousClock.Instant) -> Bool {
        isHeld(key, now: now, carriersToFollow: 8)
    }

    /// `carriersToFollow` bounds the chain of carrying keys (chains are short; the bound makes
    /// termination obvious).
    private func isHeld(_ key: Key, now: ContinuousClock.Instant, carriersToFollow: Int) -> Bool {
        guard let hold = holds[key] else { return false }
        if let releasesAt = hold.releasesAt { return now < releasesAt }
        if releaseEvents { return true }
        let expiry = hold.lastRepeat.map { $0 + timing.repeatGap } ?? hold.pressedAt + timing.tapLength
        if now < expiry { return true }
        if let carrier = hold.carriedBy, carriersToFollow > 0, let carrierHold = holds[carrier] {
            // Carried while the newer key is held or may still start repeating (a tap of it ends
            // the carry once its first-repeat window has passed: X11 does not resume the older key).
            return now < repeatWindowEnd(carrierHold) || isHeld(carrier, now: now, carriersToFollow: carriersToFollow - 1)
        }
        return false
    }

    /// Every key held at `now`.
    public func heldKeys(now: ContinuousClock.Instant) -> Set<Key> {
        Set(holds.keys.filter { isHeld($0, now: now) })
    }

    /// Forgets every key (focus lost, leaving play mode): nothing stays stuck down.
    public mutating func releaseAll() {
        holds.removeAll()
        recentTaps.removeAll()
    }

    /// Drops keys that are neither held nor inside their autorepeat window.
    private mutating func removeExpired(now: ContinuousClock.Instant) {
        let expired = holds.keys.filter { key in
            !isHeld(key, now: now) && (releaseEvents || holds[key].map { now >= repeatWindowEnd($0) } ?? true)
        }
        for key in expired {
            if let hold = holds[key], hold.lastRepeat == nil { recentTaps[key] = hold.pressedAt }
            holds[key] = nil
        }
        recentTaps = recentTaps.filter { now - $0.value < .seconds(2) }
    }
}
