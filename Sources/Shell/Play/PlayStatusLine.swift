import Emulation
import Input
import PhosphorKit
import Terminal

/// The play screen's status bar text ("GB · 60 fps · slot 1 · vol 100%"), rebuilt at most every
/// 100 ms or after an event (string work on every frame cost more than the picture under it),
/// and the count of frames the screen really showed. UI thread only.
struct PlayStatusLine {
    private(set) var text = StatusText()
    private var nextUpdate: ContinuousClock.Instant?
    private var stale = true
    /// Frames taken from the mailbox per second (lower than the game's fps when the UI falls behind).
    private var displayedFPS: Double = 0
    private var displayCount = 0
    private var displayWindowStart: ContinuousClock.Instant?
    private var wasPaused = false
    /// The link pacer's last second (bytes/s, frames shown and skipped), set by the play screen.
    var linkStats = LinkPacer.Stats()

    /// An event or a menu may have changed what the line says: rebuild it on the next tick.
    mutating func markStale() { stale = true }

    /// Counts a frame the screen took from the mailbox (the rest were overwritten unseen).
    mutating func countShownFrame(now: ContinuousClock.Instant) {
        displayCount += 1
        let start = displayWindowStart ?? now
        displayWindowStart = start
        if now - start >= .seconds(1) {
            displayedFPS = Double(displayCount) / (now - start).inSeconds
            displayCount = 0
            displayWindowStart = now
        }
    }

    /// Rebuilds the text when it is due; true when it changed.
    mutating func update(_ status: CoreThread.Status, session: GameSession, input: PlayerInput,
                         now: ContinuousClock.Instant) -> Bool {
        noteResume(session.isPaused, now: now)
        guard stale || now >= (nextUpdate ?? now) else { return false }
        let old = text
        rebuild(status, session: session, input: input, now: now)
        return text != old
    }

    mutating func rebuild(_ status: CoreThread.Status, session: GameSession, input: PlayerInput,
                          now: ContinuousClock.Instant) {
        stale = false
        nextUpdate = now + .milliseconds(100)
        text = Self.text(status, session: session, input: input, displayedFPS: displayedFPS)
        Self.appendVideo(linkStats, always: session.showsVideoStats, to: &text)
    }

    /// After a pause (menu, Ctrl-Z, too small) the shown-frames count starts again: a window
    /// spanning the pause would report "shown 1".
    private mutating func noteResume(_ paused: Bool, now: ContinuousClock.Instant) {
        if wasPaused && !paused {
            displayCount = 0
            displayedFPS = 0
            displayWindowStart = now
        }
        wasPaused = paused
    }

    /// "▶▶ 4x", "▶▶ max", "▶ 1/2" (slow motion).
    static func speedText(_ speed: Double) -> String {
        if speed == 0 { return "▶▶ max" }
        if speed < 1 { return "▶ 1/\(Int((1 / speed).rounded()))" }
        return "▶▶ \(Int(speed))x"
    }

    /// "link 98 KB/s · shown 24/s" while the link holds frames back, then "256 colours" or
    /// "16 colours" (or "slow link · 16 colours" once the cheaper frames all get through) while it
    /// keeps the colours down; with `--video-stats` always, plus bytes/s and frames skipped. Nil
    /// when there is nothing to say. Kept over the slot and the sound when the bar is short.
    static func appendVideo(_ stats: LinkPacer.Stats, always: Bool, to text: inout StatusText) {
        var parts: [String] = []
        if let link = stats.linkBytesPerSecond {
            parts.append("link \(kilobytes(link))/s")
            parts.append("shown \(stats.framesShownPerSecond)/s")
        } else if stats.colorReduction != .none {
            parts.append("slow link")
        }
        switch stats.colorReduction {
        case .none: break
        case .palette256: parts.append("256 colours")
        case .palette16: parts.append("16 colours")
        }
        if always {
            if !stats.isLimited { parts.append("shown \(stats.framesShownPerSecond)/s") }
            parts.append("\(kilobytes(stats.bytesPerSecond))/s")
            parts.append("skipped \(stats.framesSkipped)")
        }
        for part in parts { text.append(part, .high) }
    }

    private static func kilobytes(_ bytes: Int) -> String {
        bytes >= 10_000_000 ? "\(bytes / 1_000_000) MB" : bytes >= 10_000 ? "\(bytes / 1000) KB" : "\(bytes) B"
    }

    static func text(_ status: CoreThread.Status, session: GameSession, input: PlayerInput, displayedFPS: Double) -> StatusText {
        // Paused (menu, Ctrl-Z, too small): the last second's fps would be stale. The menu
        // counts at once (the core thread takes the pause request a moment later).
        let paused = status.state == .paused || session.isPaused
        let rate = paused ? "paused" : "\(Int(status.measuredFPS.rounded())) fps"
        var text = StatusText()
        text.append(session.system.shortName, .essential)
        // A slow terminal drops frames (the newest wins): say how many it really shows.
        if !paused, displayedFPS > 0, displayedFPS < min(status.measuredFPS, 60) * 0.9 {
            text.append(rate + " (shown \(Int(displayedFPS)))", .essential)
        } else {
            text.append(rate, .essential)
        }
        if status.rewinding { text.append("◀◀ rewind", .essential) }
        else if status.speed != 1 { text.append(Self.speedText(status.speed), .essential) }
        // How far back rewind can go (the ring fills up to its budget, then holds steady).
        if status.rewindSeconds > 0 { text.append("⟲ \(Int(status.rewindSeconds.rounded(.down)))s", .medium) }
        if let held = input.holdStatusText { text.append(held, .medium) }
        if input.holdButtons.isArmed { text.append("HOLD: press a button", .essential) }
        text.append("slot \(session.slot)", .medium)
        let cheatsOn = session.enabledCheatCount
        if cheatsOn > 0 { text.append(cheatsOn == 1 ? "1 cheat" : "\(cheatsOn) cheats", .medium) }
        if let audio = session.audio {
            if audio.isMuted { text.append("muted", .medium) } else { text.append("vol \(Int((audio.volume * 100).rounded()))%", .low) }
            if audio.underruns > 0 { text.append("xrun \(audio.underruns)", .low) }
        } else {
            text.append("no sound", .low)
        }
        text.append("keys: \(input.holdSourceName)", .low)
        return text
    }
}
