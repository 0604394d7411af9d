import Foundation
import Library

/// `phosphor add`'s progress on a terminal: one short line rewritten in place with `\r`, at most
/// ten times a second (a redraw per file would cost more than reading small ROMs). It names no
/// file: a line wider than the terminal wraps, and `\r` would then stack lines instead.
final class ScanProgressLine {
    static let minimumInterval: Duration = .milliseconds(100)

    private let write: (String) -> Void
    private let now: () -> ContinuousClock.Instant
    private var lastDrawn: ContinuousClock.Instant?

    init(write: @escaping (String) -> Void, now: @escaping () -> ContinuousClock.Instant = { .now }) {
        self.write = write
        self.now = now
    }

    func update(_ progress: ScanProgress) {
        let time = now()
        if let lastDrawn, time - lastDrawn < Self.minimumInterval { return }
        lastDrawn = time
        let games = progress.gamesFound == 1 ? "game" : "games"
        write("\r\u{1B}[K\(progress.filesSeen) of \(progress.totalGuess) files seen, \(progress.gamesFound) \(games) found")
    }

    /// Clears the line so the summary starts at the left edge of an empty line.
    func finish() {
        if lastDrawn != nil { write("\r\u{1B}[K") }
    }
}
