/// How long a key counts as held when the terminal cannot report releases.
///
/// Keyboards autorepeat a held key: the first repeat comes after the repeat delay, then one every
/// 25...40 ms. Measured in xterm under Xvfb with X11's defaults: first repeat 660 ms after the
/// press, then every 40 ms (GNOME defaults to 500 ms and 30/s; many users pick 250...600 ms). So a
/// key is held for `initialDelay` (700 ms: X11's 660 plus margin) after a press that has not
/// repeated yet, and for `repeatGap` after each repeat. A tap therefore lasts `initialDelay`: that
/// is the honest limit of legacy terminals.
public struct HoldTiming: Sendable, Equatable {
    public var initialDelay: Duration
    public var repeatGap: Duration
    /// With real releases (kitty protocol): the shortest press a game sees, so a quick tap still
    /// spans a few frames and is not lost between two polls.
    public var minimumPress: Duration
    /// Legacy terminals stop repeating a key when another key goes down, though it is still held
    /// (X11 repeats only the newest key). With this on, keys held when another key is pressed stay
    /// held as long as that newer key does, so Right + Jump works.
    public var carryHeldKeys: Bool

    public init(initialDelay: Duration = .milliseconds(700), repeatGap: Duration = .milliseconds(100),
                minimumPress: Duration = .milliseconds(50), carryHeldKeys: Bool = true) {
        self.initialDelay = initialDelay
        self.repeatGap = repeatGap
        self.minimumPress = minimumPress
        self.carryHeldKeys = carryHeldKeys
    }

    public static let standard = HoldTiming()
}

/// Which keys are held right now, driven by timed key events and queried with `now`. A pure value:
/// the same events at the same times always give the same answers. UI thread only.
///
/// With `releaseEvents` (kitty protocol) a key is held from press to release (at least
/// `minimumPress`). Without, the autorepeat model of `HoldTiming` applies.
public struct HoldModel: Sendable {
    public let releaseEvents: Bool
    public var timing: HoldTiming

    private struct Hold {
        var pressedAt: ContinuousClock.Instant
        var lastRepeat: ContinuousClock.Instant?
        /// Real release time (kitty), already pushed out to the minimum press length.
        var releasesAt: ContinuousClock.Instant?
        /// Legacy: the newer key whose hold keeps this one held (see `HoldTiming.carryHeldKeys`).
        var carriedBy: Key?
    }

    private var holds: [Key: Hold] = [:]

    public init(releaseEvents: Bool, timing: HoldTiming = .standard) {
        self.releaseEvents = releaseEvents
        self.timing = timing
    }

    /// The one-time notice the play screen shows when releases can't be reported.
    public static let noReleaseNotice =
        "This terminal can't report key releases: a key counts as held while it autorepeats, "
        + "so taps last about half a second. For exact control use a kitty-protocol terminal "
        + "(kitty, foot, WezTerm, Ghostty), hold-button toggles, or a gamepad."

    public mutating func handle(_ event: KeyEvent, now: ContinuousClock.Instant) {
        removeExpired(now: now)
        let key = event.key
        switch event.kind {
        case .release:
            guard var hold = holds[key] else { return }
            hold.releasesAt = max(now, hold.pressedAt + timing.minimumPress)
            holds[key] = hold
        case .repeat:
            if var hold = holds[key], hold.releasesAt == nil {
                hold.lastRepeat = now
                hold.carriedBy = nil
                holds[key] = hold
            } else {
                press(key, now: now)
            }
        case .press:
            if !releaseEvents, var hold = holds[key], isHeld(key, now: now, carriersToFollow: 8) {
                // Legacy terminals send autorepeat as more presses.
                hold.lastRepeat = now
                hold.carriedBy = nil
                holds[key] = hold
            } else {
                press(key, now: now)
            }
        }
    }

    private mutating func press(_ key: Key, now: ContinuousClock.Instant) {
        if !releaseEvents, timing.carryHeldKeys {
            for other in holds.keys where other != key && isHeld(other, now: now, carriersToFollow: 8) {
                holds[other]?.carriedBy = key
            }
        }
        holds[key] = Hold(pressedAt: now)
    }

    public func isHeld(_ key: Key, now: ContinuousClock.Instant) -> Bool {
        isHeld(key, now: now, carriersToFollow: 8)
    }

    /// Held by its own press or autorepeat, not only carried by a newer key: a legacy press of
    /// such a key is autorepeat; any other press is a new one.
    public func isHeldOnItsOwn(_ key: Key, now: ContinuousClock.Instant) -> Bool {
        isHeld(key, now: now, carriersToFollow: 0)
    }

    /// `carriersToFollow` bounds the chain of carrying keys (chains are short; the bound makes
    /// termination obvious).
    private func isHeld(_ key: Key, now: ContinuousClock.Instant, carriersToFollow: Int) -> Bool {
        guard let hold = holds[key] else { return false }
        if let releasesAt = hold.releasesAt { return now < releasesAt }
        if releaseEvents { return true }
        let expiry = hold.lastRepeat.map { $0 + timing.repeatGap } ?? hold.pressedAt + timing.initialDelay
        if now < expiry { return true }
        if let carrier = hold.carriedBy, carriersToFollow > 0 {
            return isHeld(carrier, now: now, carriersToFollow: carriersToFollow - 1)
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
    }

    private mutating func removeExpired(now: ContinuousClock.Instant) {
        let expired = holds.keys.filter { !isHeld($0, now: now) }
        for key in expired { holds[key] = nil }
    }
}
