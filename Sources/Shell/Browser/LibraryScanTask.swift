import Foundation
import Library
import Synchronization

/// One scan of every library folder on a background thread, with its own `GameLibrary` on the
/// same database file (WAL lets the UI's instance keep reading meanwhile). The UI thread polls
/// `snapshot` on its ticks; the scan thread only ever writes it, under the lock.
final class LibraryScanTask: Sendable {
    struct Snapshot: Sendable {
        var progress: ScanProgress?
        var report: ScanReport?
        /// A failure that stopped the scan (the database could not be opened or written).
        var failure: String?
        var isFinished: Bool { report != nil || failure != nil }
    }

    let startedAt: ContinuousClock.Instant
    private let state = Mutex(Snapshot())

    /// Starts the scan at once. `database` and `extractionFolder` are the UI library's.
    init(database: URL, extractionFolder: URL) {
        startedAt = .now
        let thread = Thread { [self] in
            do {
                let library = try GameLibrary(url: database, extractionFolder: extractionFolder)
                let report = try library.scan(progress: { progress in self.state.withLock { $0.progress = progress } })
                self.state.withLock { $0.report = report }
            } catch {
                self.state.withLock { $0.failure = "library scan failed: \(error)" }
            }
        }
        thread.name = "phosphor-library-scan"
        thread.start()
    }

    /// The latest progress, and the result once finished. Any thread.
    var snapshot: Snapshot { state.withLock { $0 } }
}
