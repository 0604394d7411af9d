import Foundation
import Synchronization

/// The log file. Cores, ALSA and Phosphor itself write here, never onto the terminal.
/// Before `open(_:)` lines are kept in memory (the last 200) and flushed into the file on open.
/// Any thread.
public final class Log: Sendable {
    public enum Level: String, Sendable { case debug, info, warning, error }

    public static let shared = Log()

    private struct State {
        var handle: FileHandle?
        var pending: [String] = []
        var echoToStandardError = false
    }

    private let state = Mutex(State())

    public init() {}

    /// Appends to `url` from now on.
    public func open(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        state.withLock { state in
            state.handle = handle
            for line in state.pending { try? handle.write(contentsOf: Data(line.utf8)) }
            state.pending.removeAll()
        }
    }

    /// Headless runs have no screen to protect: echo warnings and errors to stderr too.
    public func setEchoToStandardError(_ echo: Bool) {
        state.withLock { $0.echoToStandardError = echo }
    }

    public func write(_ level: Level, _ message: String) {
        let line = "\(Date().ISO8601Format()) [\(level.rawValue)] \(message)\n"
        state.withLock { state in
            if let handle = state.handle {
                try? handle.write(contentsOf: Data(line.utf8))
            } else {
                state.pending.append(line)
                if state.pending.count > 200 { state.pending.removeFirst() }
            }
            if state.echoToStandardError, level == .error || level == .warning {
                // stderr is a terminal: names in messages must not carry raw escape sequences.
                let shown = DisplayText.sanitized(message.trimmingCharacters(in: .newlines))
                FileHandle.standardError.write(Data("\(Date().ISO8601Format()) [\(level.rawValue)] \(shown)\n".utf8))
            }
        }
    }

    public static func debug(_ message: String) { shared.write(.debug, message) }
    public static func info(_ message: String) { shared.write(.info, message) }
    public static func warning(_ message: String) { shared.write(.warning, message) }
    public static func error(_ message: String) { shared.write(.error, message) }
}
