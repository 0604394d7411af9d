import Dispatch
import Foundation
import PhosphorKit
import Synchronization

/// Where Phosphor's tmux pane sits in the terminal tmux runs in. Kitty images go through tmux's
/// passthrough untouched, so the cursor move before each one is the outer terminal's: in a split
/// pane (not at the window's top-left) or under a status line at the top, it must be moved by
/// the pane's offset or the picture lands in another pane. tmux can't be asked by an escape
/// sequence: `tmux display-message -p` tells (measured with tmux 3.3a: a right-hand pane of a
/// 100-column window split at 40 says `pane_left` 60). Asked at start and after every SIGWINCH
/// (a split, a resized or zoomed pane); a pane moved without changing size (swap-pane) is not
/// seen until the next one. Asked once at start on the caller's thread; after a SIGWINCH on a
/// queue of its own (`refreshInBackground`), so a resize drag's signals never wait on tmux on
/// the UI thread; `origin`, `problem` and `takeChange` may be read from any thread.
public final class TmuxPane: Sendable {
    private struct Answer {
        var origin = (column: 0, row: 0)
        var problem: String?
        var changed = false
    }

    private let answer = Mutex(Answer())
    private let environment: [String: String]
    private let queue = DispatchQueue(label: "phosphor.tmux-pane")

    /// The pane's top-left cell in the outer terminal (zero-based).
    public var origin: (column: Int, row: Int) { answer.withLock { $0.origin } }
    /// Said once when tmux could not be asked (the picture then assumes the top-left).
    public var problem: String? { answer.withLock { $0.problem } }

    public init(environment: [String: String]) {
        self.environment = environment
        refresh()
    }

    /// Asks tmux again, off the caller's thread; `takeChange` says when the origin moved.
    public func refreshInBackground() {
        queue.async { self.refresh() }
    }

    /// True once after an answer moved the origin (the pictures are then drawn again).
    public func takeChange() -> Bool {
        answer.withLock { state in
            defer { state.changed = false }
            return state.changed
        }
    }

    /// Asks tmux and waits for the answer; true when the origin changed.
    @discardableResult
    public func refresh() -> Bool {
        let format = "#{pane_left} #{pane_top} #{status} #{status-position}"
        var arguments = ["display-message", "-p"]
        if let pane = environment["TMUX_PANE"], !pane.isEmpty { arguments += ["-t", pane] }
        guard let reply = Self.run(arguments + [format], environment: environment) else {
            answer.withLock { $0.problem = "tmux display-message did not answer: pictures assume the pane is at the window's top-left" }
            return false
        }
        guard let parsed = Self.origin(fromAnswer: reply) else {
            answer.withLock { $0.problem = "tmux display-message said '\(reply)': pictures assume the pane is at the window's top-left" }
            return false
        }
        return answer.withLock { state in
            state.problem = nil
            let changed = parsed != state.origin
            state.origin = parsed
            if changed { state.changed = true }
            return changed
        }
    }

    /// `pane_left pane_top status status-position` to the outer terminal's cell of the pane's
    /// top-left: a status line at the top (`status` on, or 2…5 lines) pushes the window down.
    public static func origin(fromAnswer answer: String) -> (column: Int, row: Int)? {
        let fields = answer.split(whereSeparator: \.isWhitespace).map(String.init)
        guard fields.count == 4, let left = Int(fields[0]), let top = Int(fields[1]), left >= 0, top >= 0 else { return nil }
        let statusLines = fields[2] == "on" ? 1 : (Int(fields[2]) ?? 0)
        return (left, top + (fields[3] == "top" ? statusLines : 0))
    }

    /// Runs `tmux arguments` and returns its first line of output (nil when it failed or hung:
    /// it is given a second).
    private static func run(_ arguments: [String], environment: [String: String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux"] + arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let deadline = ContinuousClock.now + .seconds(1)
        while process.isRunning, ContinuousClock.now < deadline { usleep(2_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }
}
