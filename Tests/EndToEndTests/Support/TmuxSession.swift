import Foundation
import TestSupport
import XCTest

/// Runs the real `phosphor` in a real terminal (a `TmuxTerminal`); the shell prints phosphor's
/// exit status when it ends and keeps the pane open.
final class TmuxSession: TmuxTerminal {
    let home: URL

    /// Runs phosphor with `arguments` in a `columns`×`rows` terminal, with PHOSPHOR_HOME set to
    /// `home` and the `environment` variables added.
    convenience init(arguments: [String], columns: Int = 120, rows: Int = 40, home: URL,
                     environment: [String: String] = [:]) throws {
        try self.init(command: Self.phosphorCommandLine(arguments, home: home, environment: environment),
                      columns: columns, rows: rows, home: home)
    }

    /// Runs a shell command line that starts phosphor some other way (through ssh, say); the shell
    /// prints its exit status for `exitStatus()` and then keeps the pane open.
    init(command: String, columns: Int = 120, rows: Int = 40, home: URL) throws {
        self.home = home
        try super.init(command: "\(command); echo \"PHOSPHOR-EXIT=$?\"; sleep 600", columns: columns, rows: rows,
                       socketPrefix: "phosphor-test", sessionName: "phosphor")
    }

    /// `VAR=value ... 'phosphor' args...` for a shell: the variables a terminal program needs
    /// (PHOSPHOR_HOME, a UTF-8 locale, TERM), then `environment`.
    static func phosphorCommandLine(_ arguments: [String], home: URL, environment: [String: String] = [:]) -> String {
        var variables = ["PHOSPHOR_HOME": home.path, "LANG": "C.UTF-8", "TERM": "xterm-256color"]
        for (key, value) in environment { variables[key] = value }
        let exports = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\(quote($0.value))" }.joined(separator: " ")
        return "\(exports) \(quote(PhosphorProcess.binary.path)) \(arguments.map(quote).joined(separator: " "))"
    }

    /// The exit status once phosphor has ended (the shell prints it), or nil while it runs.
    func exitStatus() throws -> Int32? {
        let screen = try capture()
        guard let range = screen.range(of: "PHOSPHOR-EXIT=") else { return nil }
        let digits = screen[range.upperBound...].prefix { $0.isNumber }
        return Int32(digits)
    }

    func waitForExit(timeout: TimeInterval = 15, file: StaticString = #filePath, line: UInt = #line) throws -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let status = try exitStatus() { return status }
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTFail("phosphor did not exit; screen:\n\(try capture())", file: file, line: line)
        return nil
    }

    /// The pid of the process running in the pane (phosphor while it runs; the shell otherwise).
    func panePID() throws -> Int32? {
        Int32(try format("pane_pid"))
    }
}

extension TmuxSession {
    /// The screen as visible cells: each character with its background, and its foreground only
    /// where it shows (not on spaces). Two captures compare equal exactly when they look the same,
    /// whatever colour changes the program sent to get there. The last `dropLastRows` rows (the
    /// status bar, whose fps figure changes every second) are left out.
    func visibleCells(dropLastRows: Int = 1) throws -> [String] {
        var rows = try capture(escapes: true).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while rows.last == "" { rows.removeLast() }
        rows.removeLast(min(dropLastRows, rows.count))
        // capture-pane -e carries colours over from one line to the next: so does this.
        var foreground = "d"
        var background = "d"
        return rows.map { Self.normalize($0, &foreground, &background) }
    }

    /// Waits until the picture (`visibleCells`) equals, or differs from, `reference`.
    func waitForPicture(_ description: String, equal: Bool, to reference: [String],
                        file: StaticString = #filePath, line: UInt = #line) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if (try visibleCells() == reference) == equal { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let last = (try? visibleCells()) ?? []
        let differing = zip(last, reference).enumerated().filter { $0.element.0 != $0.element.1 }.prefix(2)
            .map { "row \($0.offset):\n  now  \($0.element.0)\n  want \($0.element.1)" }
        XCTFail("timed out waiting for \(description)\n" + differing.joined(separator: "\n"), file: file, line: line)
    }

    /// Holds `key` the way a terminal's autorepeat does, a press every 40 ms, until the picture
    /// differs from `reference`. Without key releases a single tap is a short press (four frames),
    /// which a capture may miss.
    func holdUntilPictureChanges(_ key: String, from reference: [String], _ description: String,
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            try send(key)
            Thread.sleep(forTimeInterval: 0.04)
            if try visibleCells() != reference { return }
        }
        XCTFail("timed out waiting for \(description)", file: file, line: line)
    }

    /// Waits until two captures a few frames apart agree (the picture settled).
    func settledPicture() throws -> [String] {
        var previous = try visibleCells()
        for _ in 0..<30 {
            Thread.sleep(forTimeInterval: 0.15)
            let current = try visibleCells()
            if current == previous { return current }
            previous = current
        }
        return previous
    }

    static func normalize(_ line: String, _ foreground: inout String, _ background: inout String) -> String {
        var result = ""
        var scalars = Array(line.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if scalar == "\u{1B}", scalars.first == "[" {
                scalars.removeFirst()
                var parameters = ""
                while let next = scalars.popFirst(), !("@"..."~").contains(next) { parameters.unicodeScalars.append(next) }
                applySGR(parameters, &foreground, &background)
                continue
            }
            // `▄` is `▀` with the colours swapped and `█` a cell all foreground: the encoder picks
            // whichever costs fewer bytes, so they compare as the `▀`/space they look like.
            switch scalar {
            case " ": result += " [\(background)]"
            case "\u{2588}": result += " [\(foreground)]"
            case "\u{2584}": result += background == foreground ? " [\(foreground)]" : "\u{2580}[\(background)/\(foreground)]"
            case "\u{2580}" where background == foreground: result += " [\(background)]"
            default: result += "\(scalar)[\(foreground)/\(background)]"
            }
        }
        return result
    }

    private static func applySGR(_ text: String, _ foreground: inout String, _ background: inout String) {
        var codes = text.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }[...]
        if codes.isEmpty { codes = [0] }
        while let code = codes.popFirst() {
            switch code {
            case 0: foreground = "d"; background = "d"
            case 39: foreground = "d"
            case 49: background = "d"
            case 30...37, 90...97: foreground = "\(code)"
            case 40...47, 100...107: background = "\(code)"
            case 38, 48:
                let mode = codes.popFirst() ?? 0
                let value = mode == 5 ? "\(codes.popFirst() ?? 0)" : (0..<3).map { _ in "\(codes.popFirst() ?? 0)" }.joined(separator: ",")
                if code == 38 { foreground = value } else { background = value }
            default: break
            }
        }
    }
}
