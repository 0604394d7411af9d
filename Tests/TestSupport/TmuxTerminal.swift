import Foundation
import XCTest

/// A real terminal for the tests: a detached tmux server of its own (its own socket) running one
/// shell command line in one pane. Keys go in with `send-keys`; the screen comes back with
/// `capture-pane`, and the terminal's modes with `display -p` format variables. The end-to-end
/// and reliability suites each build their harness on this one.
open class TmuxTerminal {
    public let socket: String
    public let name: String
    private var running = false

    /// Runs `command` with `/bin/bash -c` in a `columns`×`rows` window. With `remainOnExit` the pane
    /// stays (showing the last screen) after the command ends.
    ///
    /// Why bash, named, and not tmux's default shell: Ctrl-C reaches the whole foreground process
    /// group, this shell included. bash waits for a child that handles SIGINT and goes on with the
    /// command line (as a user's interactive shell, which never sees the signal, would); dash, which
    /// tmux runs where SHELL is /bin/sh (CI as root), dies at once and takes the pane with it.
    public init(command: String, columns: Int, rows: Int, socketPrefix: String, sessionName: String,
                remainOnExit: Bool = false) throws {
        socket = "\(socketPrefix)-\(UUID().uuidString.prefix(8))"
        name = sessionName
        // The server this starts outlives the call: give it no pipe to hold open.
        try tmux(["new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)",
                  "/bin/bash", "-c", command], readOutput: false)
        running = true
        if remainOnExit { try tmux(["set-option", "-t", name, "remain-on-exit", "on"]) }
    }

    deinit { stop() }

    public func stop() {
        guard running else { return }
        running = false
        _ = try? tmux(["kill-server"], readOutput: false)
    }

    /// `text` as one shell word.
    public static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Runs one tmux client command on this terminal's server and returns what it printed.
    @discardableResult
    public func tmux(_ arguments: [String], readOutput: Bool = true) throws -> String {
        try runCommand(["/usr/bin/tmux", "-L", socket, "-f", "/dev/null"] + arguments, captureOutput: readOutput)
    }

    /// Keys in tmux's names (`Escape`, `Enter`, `Up`, `C-c`, or literal text with `literal: true`).
    public func send(_ keys: String..., literal: Bool = false) throws {
        try tmux(["send-keys", "-t", name] + (literal ? ["-l"] : []) + keys)
    }

    /// The screen as text (and with `escapes`, with colour SGRs as tmux reports them).
    public func capture(escapes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-t", name] + (escapes ? ["-e"] : []))
    }

    /// A format variable of the pane (`alternate_on`, `cursor_flag`, `pane_pid`, …).
    public func format(_ variable: String) throws -> String {
        try tmux(["display-message", "-p", "-t", name, "#{\(variable)}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Polls the screen until `predicate` holds or `timeout` passes; returns the last capture.
    /// Put every check of the screen into `predicate`: a capture can catch a half-drawn screen.
    @discardableResult
    public func waitFor(_ description: String, timeout: TimeInterval = 10, escapes: Bool = false,
                        file: StaticString = #filePath, line: UInt = #line,
                        _ predicate: (String) -> Bool) throws -> String {
        let result = try poll(timeout: timeout, read: { try capture(escapes: escapes) }, until: predicate)
        if !result.matched { XCTFail("timed out waiting for \(description); screen:\n\(result.last)", file: file, line: line) }
        return result.last
    }

    /// Waits for the text to appear on screen.
    @discardableResult
    public func waitFor(text: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try waitFor("'\(text)'", timeout: timeout, file: file, line: line) { $0.contains(text) }
    }

    /// Waits until the play screen's status bar shows a measured rate above 0 fps: the game's
    /// frames are running, not only the screen drawn (its first second says "0 fps"; a game
    /// paused at that moment may not have run its boot code yet).
    @discardableResult
    public func waitForGameRunning(timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try waitFor("a rate above 0 fps", timeout: timeout, file: file, line: line) {
            $0.range(of: #"[1-9][0-9]* fps"#, options: .regularExpression) != nil
        }
    }

    /// Checks the modes a program can leave behind (`tmuxModesAfterExit`) are back to normal.
    public func assertModesRestored(_ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        for mode in tmuxModesAfterExit {
            XCTAssertEqual(try format(mode.variable), mode.value, "\(label): \(mode.meaning)", file: file, line: line)
        }
    }
}
