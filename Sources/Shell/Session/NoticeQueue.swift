/// The status bar's messages, one at a time. Feedback to a key ("saved to Slot 2") shows at once;
/// the notices a game starts with (skin problems, cheats, no sound, no key releases) wait their
/// turn, each for its own time, so none is lost. A queued notice cut short by feedback comes
/// back after it. UI thread only (the play screen's session owns it).
struct NoticeQueue {
    struct Notice: Equatable {
        var text: String
        var until: ContinuousClock.Instant
        /// How long it shows, and whether it came from the queue (and goes back if cut short).
        var seconds: Int
        var queued: Bool
    }

    private(set) var current: Notice?
    private var waiting: [(text: String, seconds: Int)] = []

    /// Shows `text` now, in place of what is showing.
    mutating func show(_ text: String, seconds: Int, now: ContinuousClock.Instant) {
        if let current, current.queued { waiting.insert((current.text, current.seconds), at: 0) }
        current = Notice(text: text, until: now + .seconds(seconds), seconds: seconds, queued: false)
    }

    /// Shows `text` after everything showing or waiting.
    mutating func enqueue(_ text: String, seconds: Int, now: ContinuousClock.Instant) {
        waiting.append((text, seconds))
        if current == nil { advance(now: now) }
    }

    /// Ends the notice whose time is up and starts the next one (once per display tick).
    mutating func tick(now: ContinuousClock.Instant) {
        if let current, now > current.until { self.current = nil }
        if current == nil { advance(now: now) }
    }

    /// Notices not yet shown.
    var waitingCount: Int { waiting.count }

    private mutating func advance(now: ContinuousClock.Instant) {
        guard !waiting.isEmpty else { return }
        let next = waiting.removeFirst()
        current = Notice(text: next.text, until: now + .seconds(next.seconds), seconds: next.seconds, queued: true)
    }
}
