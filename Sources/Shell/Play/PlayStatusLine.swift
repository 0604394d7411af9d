import Emulation
import Input
import PhosphorKit
import Terminal

/// The play screen's status bar text ("GB · 60 fps · slot 1 · vol 100%"), rebuilt at most every
/// 100 ms or after an event (string work on every frame cost more than the picture under it),
/// and the count of frames the screen really showed. UI thread only.
struct PlayStatusLine {
    private(set) var text = ""
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
        if let video = Self.videoText(linkStats, always: session.showsVideoStats) {
            text = text.isEmpty ? video : text + " · " + video
        }
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

    /// "link 98 KB/s · shown 24/s" while the link holds frames back; with `--video-stats` always,
    /// plus bytes/s and frames skipped. Nil when there is nothing to say.
    static func videoText(_ stats: LinkPacer.Stats, always: Bool) -> String? {
        var parts: [String] = []
        if let link = stats.linkBytesPerSecond {
            parts.append("link \(kilobytes(link))/s")
            parts.append("shown \(stats.framesShownPerSecond)/s")
        }
        if always {
            if !stats.isLimited { parts.append("shown \(stats.framesShownPerSecond)/s") }
            parts.append("\(kilobytes(stats.bytesPerSecond))/s")
            parts.append("skipped \(stats.framesSkipped)")
        }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    private static func kilobytes(_ bytes: Int) -> String {
        bytes >= 10_000_000 ? "\(bytes / 1_000_000) MB" : bytes >= 10_000 ? "\(bytes / 1000) KB" : "\(bytes) B"
    }

    static func text(_ status: CoreThread.Status, session: GameSession, input: PlayerInput, displayedFPS: Double) -> String {
        // Paused (menu, Ctrl-Z, too small): the last second's fps would be stale. The menu
        // counts at once (the core thread takes the pause request a moment later).
        let paused = status.state == .paused || session.isPaused
        let rate = paused ? "paused" : "\(Int(status.measuredFPS.rounded())) fps"
        var parts = ["\(session.system.shortName)", rate]
        // A slow terminal drops frames (the newest wins): say how many it really shows.
        if !paused, displayedFPS > 0, displayedFPS < min(status.measuredFPS, 60) * 0.9 { parts[1] += " (shown \(Int(displayedFPS)))" }
        if status.rewinding { parts.append("◀◀ rewind") }
        else if status.speed != 1 { parts.append(Self.speedText(status.speed)) }
        // How far back rewind can go (the ring fills up to its budget, then holds steady).
        if status.rewindSeconds > 0 { parts.append("⟲ \(Int(status.rewindSeconds.rounded(.down)))s") }
        if let held = input.holdStatusText { parts.append(held) }
        if input.holdButtons.isArmed { parts.append("HOLD: press a button") }
        parts.append("slot \(session.slot)")
        let cheatsOn = session.enabledCheatCount
        if cheatsOn > 0 { parts.append(cheatsOn == 1 ? "1 cheat" : "\(cheatsOn) cheats") }
        if let audio = session.audio {
            if audio.isMuted { parts.append("muted") } else { parts.append("vol \(Int((audio.volume * 100).rounded()))%") }
            if audio.underruns > 0 { parts.append("xrun \(audio.underruns)") }
        } else {
            parts.append("no sound")
        }
        parts.append("keys: \(input.holdSourceName)")
        return parts.joined(separator: " · ")
    }
}
