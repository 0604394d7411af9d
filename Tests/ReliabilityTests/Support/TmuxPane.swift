import Foundation
import TestSupport
import XCTest

/// A real terminal for the tests: a detached tmux server of its own running one shell command in
/// one pane. Keys go in with `send-keys`; the screen comes back with `capture-pane`, and the
/// terminal's modes with `display -p` format variables.
final class TmuxPane {
    let socket = "phosphor-rel-\(UUID().uuidString.prefix(8))"
    let name = "rel"
    private var running = false

    /// Runs `command` with `/bin/sh -c` in a `columns`×`rows` window.
    init(command: String, columns: Int = 100, rows: Int = 30) throws {
        try tmux(["new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)", command])
        running = true
        try tmux(["set-option", "-t", name, "remain-on-exit", "on"])
    }

    deinit { stop() }

    func stop() {
        guard running else { return }
        running = false
        _ = try? tmux(["kill-server"])
    }

    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// `VAR=value ... 'phosphor' args...` for a shell command line.
    static func commandLine(_ arguments: [String], environment: [String: String]) -> String {
        let exports = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(quote($0.value))" }.joined(separator: " ")
        return "\(exports) \(quote(Binaries.phosphor.path)) \(arguments.map(quote).joined(separator: " "))"
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        try runCommand(["/usr/bin/tmux", "-L", socket, "-f", "/dev/null"] + arguments,
                       captureOutput: arguments.first != "new-session")
    }

    func send(_ keys: String..., literal: Bool = false) throws {
        try tmux(["send-keys", "-t", name] + (literal ? ["-l"] : []) + keys)
    }

    func capture(escapes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-t", name] + (escapes ? ["-e"] : []))
    }

    /// A format variable of the pane (`alternate_on`, `cursor_flag`, `mouse_any_flag`, …).
    func format(_ variable: String) throws -> String {
        try tmux(["display-message", "-p", "-t", name, "#{\(variable)}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", "\(columns)", "-y", "\(rows)"])
    }

    @discardableResult
    func waitFor(_ description: String, timeout: TimeInterval = 10, escapes: Bool = false,
                 file: StaticString = #filePath, line: UInt = #line, _ predicate: (String) -> Bool) throws -> String {
        let result = try poll(timeout: timeout, read: { try capture(escapes: escapes) }, until: predicate)
        if !result.matched { XCTFail("timed out waiting for \(description); screen:\n\(result.last)", file: file, line: line) }
        return result.last
    }

    @discardableResult
    func waitFor(text: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try waitFor("'\(text)'", timeout: timeout, file: file, line: line) { $0.contains(text) }
    }

    /// The pid of the youngest process named `phosphor` under the pane's shell.
    func phosphorPID() throws -> Int32? {
        guard let shell = Int32(try format("pane_pid")) else { return nil }
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        for pid in children.split(separator: " ").compactMap({ Int32($0) }) {
            let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            if name.hasPrefix("phosphor") { return pid }
        }
        return nil
    }

    /// The terminal modes a program can leave behind, as tmux sees them.
    func assertModesRestored(_ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        for mode in tmuxModesAfterExit {
            XCTAssertEqual(try format(mode.variable), mode.value, "\(label): \(mode.meaning)", file: file, line: line)
        }
    }
}
