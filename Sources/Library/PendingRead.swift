import Dispatch
import Synchronization

/// One batch of scan candidates being read on the worker threads (`GameLibrary.readInParallel`)
/// while the scanning thread writes the batch before it. Created and waited on by the scanning
/// thread; the reading runs on a global queue.
final class PendingRead: Sendable {
    private let done = DispatchGroup()
    private let results = Mutex<[FileScanResult]>([])

    init(_ candidates: [ScanCandidate], with scanner: LibraryScanner) {
        done.enter()
        DispatchQueue.global().async { [self] in
            let read = GameLibrary.readInParallel(candidates, with: scanner)
            results.withLock { $0 = read }
            done.leave()
        }
    }

    /// The batch's results in the candidates' order, once every file is read.
    func wait() -> [FileScanResult] {
        done.wait()
        return results.withLock { $0 }
    }
}
