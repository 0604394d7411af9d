import Foundation
import TestSupport
import XCTest

/// The reliability suite's terminal: a `TmuxTerminal` whose pane stays after its command ends
/// (so the last screen and the shell's exit line can still be read).
final class TmuxPane: TmuxTerminal {
    /// Runs `command` with `/bin/sh -c` in a `columns`×`rows` window.
    init(command: String, columns: Int = 100, rows: Int = 30) throws {
        try super.init(command: command, columns: columns, rows: rows, socketPrefix: "phosphor-rel", sessionName: "rel",
                       remainOnExit: true)
    }

    /// `VAR=value ... 'phosphor' args...` for a shell command line.
    static func commandLine(_ arguments: [String], environment: [String: String]) -> String {
        let exports = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(quote($0.value))" }.joined(separator: " ")
        return "\(exports) \(quote(Binaries.phosphor.path)) \(arguments.map(quote).joined(separator: " "))"
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
}
