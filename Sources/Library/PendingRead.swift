import Dispatch
import Foundation
import Glibc
import Synchronization

/// One batch of scan candidates being read on the worker threads (one per core) while the
/// scanning thread walks folders or writes the batch before it. Created, polled and waited on
/// by the scanning thread; the reading runs on a global queue.
final class PendingRead: Sendable {
    private let done = DispatchGroup()
    private let results = Mutex<[FileScanResult]>([])

    init(_ candidates: [ScanCandidate], with scanner: LibraryScanner) {
        done.enter()
        DispatchQueue.global().async { [self] in
            let read = Self.readInParallel(candidates, with: scanner)
            results.withLock { $0 = read }
            done.leave()
        }
    }

    /// Every file of the batch is read: `wait()` returns at once.
    var isFinished: Bool { done.wait(timeout: .now()) == .success }

    /// The batch's results in the candidates' order, once every file is read.
    func wait() -> [FileScanResult] {
        done.wait()
        return results.withLock { $0 }
    }

    /// Reads each candidate on a worker thread (`concurrentPerform` uses one per core); the
    /// results come back in the candidates' order.
    private static func readInParallel(_ candidates: [ScanCandidate], with scanner: LibraryScanner) -> [FileScanResult] {
        prefetch(candidates)
        let slots = Mutex([FileScanResult?](repeating: nil, count: candidates.count))
        DispatchQueue.concurrentPerform(iterations: candidates.count) { index in
            let result = scanner.read(candidates[index])
            slots.withLock { $0[index] = result }
        }
        return slots.withLock { $0.map { $0! } }
    }

    /// Asks the kernel to start reading every plain ROM of the batch at once (archives are read
    /// only in part, so not them). With the kernel's caches cold, one worker per core waiting on
    /// one small read each kept the disk's queue nearly empty.
    private static func prefetch(_ candidates: [ScanCandidate]) {
        for candidate in candidates where candidate.size <= prefetchLimit
            && !ArchiveReader.archiveExtensions.contains((candidate.path as NSString).pathExtension.lowercased()) {
            let descriptor = open(candidate.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }   // the read says why, with the file's name
            _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_WILLNEED)
            close(descriptor)
        }
    }

    /// Larger files are left to the kernel's own read-ahead: a batch of them would not fit the cache.
    private static let prefetchLimit = 16 << 20
}
