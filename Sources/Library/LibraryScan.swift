import Foundation
import PhosphorKit

/// One run of `GameLibrary.scan`. The walk and the reading overlap: as each folder is listed,
/// its files are looked up by path in what the library held (`StoredFiles`), and the new and
/// changed ones queue for reading; whenever `readBatch` are queued and no batch is being read,
/// a batch goes to the worker threads (`PendingRead`) and the walk goes on. A finished batch is
/// written in one transaction on this thread while the next one is read. Once the walk ends,
/// the rest is read and written the same way, then files that vanished lose their rows.
///
/// Why: the walk is a `stat` per file, the reading is `read` and CRC-32 on every core, and one
/// after the other they added up; with the kernel's caches cold both wait on the disk.
///
/// Threading: the calling thread only (the one that owns the `GameLibrary`), for one `run()`;
/// only the reading runs elsewhere.
final class LibraryScan {
    /// A new or changed file waiting to be read.
    private struct Item {
        let folderID: Int64
        let candidate: ScanCandidate
        /// The library has the file already (its stamp changed): one that fails to read keeps
        /// its games and its old stamp, so the next scan tries again.
        let isKnown: Bool
    }

    /// The batch on the worker threads.
    private struct BatchInFlight {
        let items: [Item]
        let read: PendingRead
    }

    private unowned let library: GameLibrary
    private let progress: (ScanProgress) -> Void
    private let isCancelled: () -> Bool

    private var report = ScanReport()
    private var stored = StoredFiles([:])
    /// Files the walk found that the library did not have (a file under two library folders
    /// counts once), and how many it found in all.
    private var newPaths: Set<String> = []
    private var filesFound = 0
    /// New and changed files, in the walk's order, not yet sent to be read.
    private var waiting: [Item] = []
    private var inFlight: BatchInFlight?
    private var isWalking = true
    /// The folder being listed (sanitized), for the progress line.
    private var currentFolder = ""
    /// Unchanged files and files stored so far.
    private var filesDone = 0
    private var gamesFound = 0

    init(library: GameLibrary, progress: @escaping (ScanProgress) -> Void, isCancelled: @escaping () -> Bool) {
        self.library = library
        self.progress = progress
        self.isCancelled = isCancelled
    }

    func run() throws -> ScanReport {
        defer { _ = inFlight?.read.wait() }   // no reader outlives the scan, even one that threw
        stored = try library.storedFiles()
        var walkedWholly: Set<Int64> = []
        for folder in try library.folders() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                report.problems.append(ScanProblem(path: folder.url.path,
                                                   message: "\(DisplayText.sanitized(folder.url.path)): folder not found; its games are kept"))
                continue
            }
            var walker = FolderWalker(root: folder.url.standardizedFileURL.path)
            var hadProblems = false
            while let upcoming = walker.upcomingFolder {
                if isCancelled() { return cancelled() }
                currentFolder = DisplayText.sanitized(upcoming)
                reportProgress()
                guard let listed = walker.nextFolder() else { break }
                report.problems += listed.problems
                hadProblems = hadProblems || !listed.problems.isEmpty
                try take(listed.files, folderID: folder.id)
            }
            // Only a folder walked without errors may lose rows: an unreadable subfolder keeps its games.
            if !hadProblems { walkedWholly.insert(folder.id) }
        }
        isWalking = false
        currentFolder = ""
        while !waiting.isEmpty || inFlight != nil {
            if isCancelled() { return cancelled() }
            if inFlight == nil { startReading() }
            try storeFinishedBatch()
        }
        reportProgress()
        report.gamesRemoved += try library.removeFiles(stored.notFound(in: walkedWholly))
        return report
    }

    /// Stopped (Ctrl-C): what was written stays, the batch being read is dropped, nothing is removed.
    private func cancelled() -> ScanReport {
        report.wasCancelled = true
        reportProgress()
        return report
    }

    /// Sorts one folder's files into unchanged and to-read, and keeps the reading going.
    private func take(_ files: [ScanCandidate], folderID: Int64) throws {
        for (index, candidate) in files.enumerated() {
            switch stored.find(candidate) {
            case .alreadyFound:
                continue
            case .unchanged:
                report.filesUnchanged += 1
                filesDone += 1
            case .changed:
                waiting.append(Item(folderID: folderID, candidate: candidate, isKnown: true))
            case .new:
                guard newPaths.insert(candidate.path).inserted else { continue }
                waiting.append(Item(folderID: folderID, candidate: candidate, isKnown: false))
            }
            filesFound += 1
            // A folder of thousands of files must not leave the workers idle while it is sorted.
            if index % GameLibrary.readBatch == GameLibrary.readBatch - 1 { try keepReading() }
        }
        try keepReading()
    }

    /// While walking: sends a full batch to be read when none is, and writes one that finished.
    private func keepReading() throws {
        if let inFlight {
            if inFlight.read.isFinished { try storeFinishedBatch() }
        } else if waiting.count >= GameLibrary.readBatch {
            startReading()
        }
    }

    /// Sends the next batch (a full one while walking, whatever is left after) to the workers.
    private func startReading() {
        let count = min(waiting.count, GameLibrary.readBatch)
        guard inFlight == nil, count > 0, !isWalking || count == GameLibrary.readBatch else { return }
        let items = Array(waiting.prefix(count))
        waiting.removeFirst(count)
        inFlight = BatchInFlight(items: items, read: PendingRead(items.map(\.candidate), with: library.scanner))
    }

    /// Waits for the batch in flight, starts the next one, and writes this one in one transaction
    /// (a commit per file would dominate the scan; one for the whole scan would lock the UI out
    /// of writing for its length).
    private func storeFinishedBatch() throws {
        guard let batch = inFlight else { return }
        let results = batch.read.wait()
        inFlight = nil
        startReading()   // read the next batch while this one is written
        try library.inTransaction {
            for (item, result) in zip(batch.items, results) {
                reportProgress(file: item.candidate.path)
                filesDone += 1
                report.filesRead.append(item.candidate.path)
                report.problems += result.problems
                gamesFound += result.roms.count
                if result.couldNotRead && item.isKnown { continue }
                try library.store(result.roms, problems: result.problems, for: item.candidate,
                                  folderID: item.folderID, report: &report)
            }
        }
    }

    /// While walking: files found so far (no total yet) and the folder being listed; after:
    /// files done of all found, and the file being written.
    private func reportProgress(file: String? = nil) {
        let folder = isWalking ? currentFolder : file.map { DisplayText.sanitized(($0 as NSString).deletingLastPathComponent) } ?? ""
        progress(ScanProgress(filesSeen: isWalking ? filesFound : filesDone, totalGuess: isWalking ? 0 : filesFound,
                              currentFile: file.map(DisplayText.sanitized) ?? "", gamesFound: gamesFound,
                              currentFolder: folder, skipped: report.problems.count))
    }
}
