import Foundation
import Glibc
import Synchronization

/// The log file. Cores, ALSA and Phosphor itself write here, never onto the terminal.
/// Before `open(_:)` lines are kept in memory (the last 200) and flushed into the file on open;
/// when the file cannot be opened (a read-only or full disk) they stay in memory for good, and
/// start-up goes on: playing needs no writes.
///
/// Bounded, because a core can flood it (mGBA on a truncated ROM wrote 12 MB/s):
/// - a line equal to the one before is counted, not written: "last message repeated N times"
///   follows once a different line comes (or every `repeatReportInterval` of one long run);
/// - more than `linesPerSecond` lines in one second are dropped and counted;
/// - the file is rotated at `maximumBytes`: `phosphor.log` becomes `phosphor.log.1`, and so on
///   up to `keptFiles` old files, so the log never takes more than (keptFiles + 1) × maximumBytes.
///
/// Descriptors 1 and 2 point at the log file while a terminal session is open (cores `printf`
/// into it without passing here). `followingDescriptors` makes rotation `dup2` the new file
/// onto them, and `enforceSizeLimit()` — called about once a second by the terminal session's
/// wait, on the UI thread — measures the file with `fstat` (every writer appends to the same
/// open file, so its size counts the printf'd bytes too) and rotates when it is over the cap.
///
/// Any thread: the state is behind one mutex.
public final class Log: Sendable {
    public enum Level: String, Sendable { case debug, info, warning, error }

    /// How large the log may grow. The defaults keep it under 16 MiB on disk.
    public struct Limits: Sendable {
        public var maximumBytes: Int
        public var keptFiles: Int
        public var linesPerSecond: Int
        public var repeatReportInterval: Duration

        public init(maximumBytes: Int = 4 << 20, keptFiles: Int = 3, linesPerSecond: Int = 500,
                    repeatReportInterval: Duration = .seconds(10)) {
            self.maximumBytes = maximumBytes
            self.keptFiles = keptFiles
            self.linesPerSecond = linesPerSecond
            self.repeatReportInterval = repeatReportInterval
        }
    }

    public static let shared = Log()

    private struct State {
        var url: URL?
        var descriptor: Int32 = -1
        var size = 0
        var limits = Limits()
        var pending: [String] = []
        var echoToStandardError = false
        /// The standard descriptors pointed at the file (1 and 2 in a terminal session, 1 alone
        /// in a headless run), which rotation points at the new file.
        var followingDescriptors: [Int32] = []
        /// Why the file could not be opened (the log then lives in memory).
        var openFailure: String?
        // Repeats and flood accounting.
        var lastMessage: (level: Level, text: String)?
        var repeats = 0
        var repeatsSince = ContinuousClock.now
        var second = ContinuousClock.now
        var linesThisSecond = 0
        var dropped = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Appends to `url` from now on. Throws (and keeps logging into memory) when the file cannot
    /// be opened or created.
    public func open(_ url: URL, limits: Limits = Limits()) throws {
        try state.withLock { state in
            state.limits = limits
            state.url = url
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Self.openDescriptor(&state)
            } catch {
                state.openFailure = ErrorText.line(error, file: url)
                throw error
            }
            state.openFailure = nil
            let pending = state.pending
            state.pending.removeAll()
            for line in pending { Self.append(line, to: &state) }
        }
    }

    /// Why the log is kept in memory only, or nil when it has its file.
    public var openFailure: String? { state.withLock { $0.openFailure } }

    /// The file lines go to now, or nil.
    public var file: URL? { state.withLock { $0.descriptor >= 0 ? $0.url : nil } }

    /// Headless runs have no screen to protect: echo warnings and errors to stderr too.
    public func setEchoToStandardError(_ echo: Bool) {
        state.withLock { $0.echoToStandardError = echo }
    }

    /// Points descriptors 1 and 2 at the log file and keeps them there across rotations (a
    /// terminal session, so that what cores print never reaches the game screen). False when the
    /// log has no file: the caller sends them elsewhere (`/dev/null`).
    public func redirectStandardStreams() -> Bool {
        state.withLock { state in
            guard state.descriptor >= 0 else { return false }
            state.followingDescriptors = [STDOUT_FILENO, STDERR_FILENO]
            Self.point([STDOUT_FILENO, STDERR_FILENO], at: state.descriptor)
            return true
        }
    }

    /// A headless run: what cores print on standard output goes to the log (or /dev/null when
    /// the log has no file), never before the result line. Returns a descriptor for the real
    /// standard output, the channel the result line is written to; nil when it cannot be
    /// duplicated (then nothing is redirected). Main thread, before the core loads.
    public func redirectStandardOutputOnly() -> Int32? {
        fflush(nil)
        let saved = dup(STDOUT_FILENO)
        guard saved >= 0 else { return nil }
        _ = fcntl(saved, F_SETFD, FD_CLOEXEC)
        state.withLock { state in
            if state.descriptor >= 0 {
                state.followingDescriptors = [STDOUT_FILENO]
                Self.point([STDOUT_FILENO], at: state.descriptor)
            } else {
                let null = Glibc.open("/dev/null", O_WRONLY | O_CLOEXEC)
                if null >= 0 {
                    _ = dup2(null, STDOUT_FILENO)
                    close(null)
                }
            }
        }
        return saved
    }

    /// The session gave descriptors 1 and 2 back to the terminal: rotation leaves them alone.
    public func releaseStandardStreams() {
        state.withLock { $0.followingDescriptors = [] }
    }

    /// Rotates when the file (with whatever cores printed into it) is over the cap.
    public func enforceSizeLimit() {
        state.withLock { state in
            guard state.descriptor >= 0 else { return }
            var status = stat()
            guard fstat(state.descriptor, &status) == 0 else { return }
            state.size = Int(status.st_size)
            if state.size > state.limits.maximumBytes { Self.rotate(&state) }
        }
    }

    public func write(_ level: Level, _ message: String) {
        let now = ContinuousClock.now
        state.withLock { state in
            if let last = state.lastMessage, last.level == level, last.text == message {
                state.repeats += 1
                if now - state.repeatsSince >= state.limits.repeatReportInterval { Self.reportRepeats(&state, now: now) }
                return
            }
            Self.reportRepeats(&state, now: now)
            state.lastMessage = (level, message)
            if now - state.second >= .seconds(1) {
                if state.dropped > 0 {
                    Self.append(Self.line(.warning, "log flood: \(state.dropped) lines dropped in the last second"), to: &state)
                }
                state.second = now
                state.linesThisSecond = 0
                state.dropped = 0
            }
            state.linesThisSecond += 1
            if state.linesThisSecond > state.limits.linesPerSecond {
                state.dropped += 1
                return
            }
            Self.append(Self.line(level, message), to: &state)
            if state.echoToStandardError, level == .error || level == .warning {
                // stderr is a terminal: names in messages must not carry raw escape sequences.
                let shown = DisplayText.sanitized(message.trimmingCharacters(in: .newlines))
                FileHandle.standardError.write(Data("\(UTCTimestamp.now) [\(level.rawValue)] \(shown)\n".utf8))
            }
        }
    }

    /// Writes out a pending "repeated" count (before the process ends).
    public func flush() {
        state.withLock { Self.reportRepeats(&$0, now: .now) }
    }

    public static func debug(_ message: String) { shared.write(.debug, message) }
    public static func info(_ message: String) { shared.write(.info, message) }
    public static func warning(_ message: String) { shared.write(.warning, message) }
    public static func error(_ message: String) { shared.write(.error, message) }

    // MARK: - Inside the lock

    private static func line(_ level: Level, _ message: String) -> String {
        "\(UTCTimestamp.now) [\(level.rawValue)] \(message)\n"
    }

    private static func reportRepeats(_ state: inout State, now: ContinuousClock.Instant) {
        defer { state.repeatsSince = now }
        guard state.repeats > 0, let last = state.lastMessage else { return }
        let count = state.repeats
        state.repeats = 0
        append(line(last.level, "last message repeated \(count) times"), to: &state)
    }

    private static func append(_ line: String, to state: inout State) {
        guard state.descriptor >= 0 else {
            state.pending.append(line)
            if state.pending.count > 200 { state.pending.removeFirst() }
            return
        }
        let bytes = Array(line.utf8)
        if state.size + bytes.count > state.limits.maximumBytes, state.size > 0 { rotate(&state) }
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(state.descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written > 0 { offset += written } else if written < 0, errno == EINTR { continue } else { break }
            }
            state.size += offset   // a full disk writes less: the line is lost, not retried
        }
    }

    private static func openDescriptor(_ state: inout State) throws {
        guard let url = state.url else { return }
        let descriptor = try openFile(url.path, flags: O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC)
        var status = stat()
        state.size = fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
        state.descriptor = descriptor
    }

    /// `phosphor.log.(k-1)` → `.k`, …, `phosphor.log` → `.1`, then a new `phosphor.log`.
    private static func rotate(_ state: inout State) {
        guard let url = state.url else { return }
        let path = url.path
        let kept = max(state.limits.keptFiles, 0)
        if kept == 0 {
            _ = ftruncate(state.descriptor, 0)
            state.size = 0
            return
        }
        for index in stride(from: kept - 1, through: 1, by: -1) {
            _ = Glibc.rename("\(path).\(index)", "\(path).\(index + 1)")
        }
        let renamed = Glibc.rename(path, "\(path).1") == 0
        let old = state.descriptor
        state.descriptor = -1
        if renamed, (try? openDescriptor(&state)) != nil {
            if !state.followingDescriptors.isEmpty { point(state.followingDescriptors, at: state.descriptor) }
            close(old)
        } else {
            // The folder refuses a new file (read-only now, or full): empty the one we have
            // rather than grow without bound.
            state.descriptor = old
            _ = ftruncate(old, 0)
            state.size = 0
        }
    }

    private static func point(_ standardDescriptors: [Int32], at descriptor: Int32) {
        // What cores printf'd is still in C stdio's buffer: it belongs to the file it was written for.
        fflush(nil)
        for standard in standardDescriptors { _ = dup2(descriptor, standard) }
    }
}
