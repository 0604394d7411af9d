import Foundation
import Library

/// `phosphor add`'s progress on a terminal: one line rewritten in place with `\r`, at most ten
/// times a second (a redraw per file would cost more than reading small ROMs): files seen,
/// games found, files skipped, and the folder being read. The line is cut to the terminal's
/// width (the folder loses its start first): a line that wrapped would make `\r` stack lines.
final class ScanProgressLine {
    static let minimumInterval: Duration = .milliseconds(100)

    private let write: (String) -> Void
    private let now: () -> ContinuousClock.Instant
    private let columns: Int
    private var lastDrawn: ContinuousClock.Instant?

    init(columns: Int = 80, write: @escaping (String) -> Void, now: @escaping () -> ContinuousClock.Instant = { .now }) {
        self.columns = max(20, columns)
        self.write = write
        self.now = now
    }

    func update(_ progress: ScanProgress) {
        let time = now()
        if let lastDrawn, time - lastDrawn < Self.minimumInterval { return }
        lastDrawn = time
        write("\r\u{1B}[K" + Self.text(progress, columns: columns))
    }

    /// The line without its control bytes, at most `columns - 1` characters.
    static func text(_ progress: ScanProgress, columns: Int) -> String {
        let counts: String
        let games = "\(progress.gamesFound) \(progress.gamesFound == 1 ? "game" : "games") found, \(progress.skipped) skipped"
        if progress.isWalking {
            // Files are read while the walk goes on: their games show before the total is known.
            counts = "looking: \(progress.filesSeen) files seen" + (progress.gamesFound + progress.skipped > 0 ? ", " + games : "")
        } else {
            counts = "\(progress.filesSeen) of \(progress.totalGuess) files seen, " + games
        }
        let room = columns - 1 - counts.count - 3
        guard !progress.currentFolder.isEmpty, room >= 8 else { return String(counts.prefix(columns - 1)) }
        let folder = progress.currentFolder
        let shown = folder.count <= room ? folder : "…" + folder.suffix(room - 1)
        return counts + " · " + shown
    }

    /// Clears the line so the summary starts at the left edge of an empty line.
    func finish() {
        if lastDrawn != nil { write("\r\u{1B}[K") }
    }
}
