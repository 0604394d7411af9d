import Foundation
import PhosphorKit
import Synchronization

/// RetroArch's labels (`ThumbnailLabels`), read on a thread of its own the first time they are
/// asked for: a database holds 10 000 records and more (NES: 4 MB), too slow for the browser's
/// UI thread. Until they are read `current` is nil and thumbnails are found by name only; when
/// they are, `generation` grows so callers can look again. The files' sizes and modification
/// times are kept with the labels: `refresh` reads them again only when one changed.
/// Any thread; nothing here blocks but `waitUntilBuilt`, which the UI thread never calls.
public final class ThumbnailLabelIndex: Sendable {
    /// What identifies a version of the files: each path with its size and modification time.
    struct Signature: Equatable {
        var files: [String]

        init(_ urls: [URL]) {
            files = urls.map { url in
                let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
                let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
                let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                return "\(url.path)|\(size)|\(modified)"
            }
        }
    }

    private struct State {
        var labels: ThumbnailLabels?
        var signature: Signature?
        var generation = 0
        var working = false
    }

    public let sources: ThumbnailLabels.Sources
    private let log: @Sendable (String) -> Void
    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)

    public init(sources: ThumbnailLabels.Sources, log: @escaping @Sendable (String) -> Void = { Log.warning($0) }) {
        self.sources = sources
        self.log = log
    }

    /// The labels, or nil while they are being read; the first call starts the reading.
    public func current() -> ThumbnailLabels? {
        let (labels, start) = state.withLock { state -> (ThumbnailLabels?, Bool) in
            let start = state.labels == nil && !state.working
            if start { state.working = true }
            return (state.labels, start)
        }
        if start { startWork() }
        return labels
    }

    /// Grows each time labels are read (0: never yet).
    public var generation: Int { state.withLock { $0.generation } }

    /// Whether a reading is under way.
    public var isWorking: Bool { state.withLock { $0.working } }

    /// Looks at the files again (on the worker thread) and reads them when one changed, was
    /// added or was removed. Does nothing before the first reading or while one runs.
    public func refresh() {
        let start = state.withLock { state -> Bool in
            guard state.labels != nil, !state.working else { return false }
            state.working = true
            return true
        }
        if start { startWork() }
    }

    /// Starts the first reading if needed and waits until no reading runs (tests and commands;
    /// never the UI thread).
    @discardableResult
    public func waitUntilBuilt() -> ThumbnailLabels {
        _ = current()
        // A signal left from an earlier reading only makes this loop look once more.
        while isWorking { done.wait() }
        return state.withLock { $0.labels } ?? ThumbnailLabels()
    }

    private func startWork() {
        let thread = Thread { [self] in
            let files = sources.files()
            let signature = Signature(files)
            let unchanged = state.withLock { $0.signature == signature }
            if !unchanged {
                let started = ContinuousClock.now
                let labels = ThumbnailLabels(files: files, log: log)
                let elapsed = ContinuousClock.now - started
                let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
                state.withLock {
                    $0.labels = labels
                    $0.signature = signature
                    $0.generation += 1
                }
                Log.debug("thumbnails: read \(files.count) RetroArch databases and playlists in "
                    + String(format: "%.1f ms", milliseconds))
            }
            state.withLock { $0.working = false }
            done.signal()
        }
        thread.name = "phosphor-thumbnail-labels"
        thread.start()
    }
}
