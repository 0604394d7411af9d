import Foundation
import XCTest

/// Runs a program under Tests/Fixtures/ptyharness/ptyrun.py: a pseudo-terminal that answers the
/// kitty keyboard query and DA1, follows a plan of steps, and reports the terminal's state after
/// the program ended (termios, DEC private modes, the kitty flags stack) plus every output byte.
struct PTYRun {
    struct Report: Decodable {
        var exit: Int32?
        var signal: Int32?
        var failure: String?
        var echo: Bool
        var icanon: Bool
        var isig: Bool
        var pending_input: Int
        var modes: [String: Bool]
        var modes_ever: [String: [String]]
        var kitty_stack: [Int]
        var kitty_pushes: Int
        var timings: [Double]
        var bytes: Int
    }

    enum Step {
        case wait(String, timeout: Double = 10)
        case sleep(Double)
        /// Until the file holds `bytes` at `offset` (polled every 10 ms).
        case waitFile(String, offset: Int, bytes: [UInt8], timeout: Double = 10)
        case send(String)
        case sendHex(String)
        case signal(String)
        case resize(rows: Int, columns: Int)
        case storm(seconds: Double, sizes: [(Int, Int)])
        case hangup
        case exit(timeout: Double = 15)

        var json: [String: Any] {
            switch self {
            case .wait(let text, let timeout): ["wait": text, "timeout": timeout]
            case .sleep(let seconds): ["sleep": seconds]
            case .waitFile(let path, let offset, let bytes, let timeout):
                ["wait_file": path, "offset": offset, "hex": bytes.map { String(format: "%02x", $0) }.joined(), "timeout": timeout]
            case .send(let text): ["send": text]
            case .sendHex(let hex): ["send_hex": hex]
            case .signal(let name): ["signal": name]
            case .resize(let rows, let columns): ["resize": [rows, columns]]
            case .storm(let seconds, let sizes): ["storm": seconds, "sizes": sizes.map { [$0.0, $0.1] }]
            case .hangup: ["hangup": true]
            case .exit(let timeout): ["exit": timeout]
            }
        }
    }

    var report: Report
    var output: [UInt8]

    var outputText: String { String(decoding: output, as: UTF8.self) }

    /// Runs `command` (argv) with `environment` added, in a `rows`×`columns` pseudo-terminal.
    init(_ command: [String], environment: [String: String], steps: [Step], kitty: Bool = true,
         rows: Int = 30, columns: Int = 100) throws {
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("ptyrun-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let plan = try JSONSerialization.data(withJSONObject: steps.map(\.json))
        var arguments = [Binaries.fixture("ptyharness/ptyrun.py").path, "--plan", String(decoding: plan, as: UTF8.self),
                         "--output", outputFile.path, "--rows", "\(rows)", "--cols", "\(columns)"]
        if kitty { arguments.append("--kitty") }
        let environmentArguments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        arguments += ["--", "/usr/bin/env"] + environmentArguments + command
        let child = try ChildProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments)
        let result = child.finish()
        guard let line = result.output.split(separator: "\n").last,
              let decoded = try? JSONDecoder().decode(Report.self, from: Data(line.utf8)) else {
            throw NSError(domain: "PTYRun", code: 1, userInfo: [NSLocalizedDescriptionKey:
                "ptyrun failed: \(result.status) \(result.output) \(result.error)"])
        }
        report = decoded
        output = [UInt8]((try? Data(contentsOf: outputFile)) ?? Data())
    }

    /// The terminal is back: line mode and echo, cursor visible, main screen, no mouse or paste
    /// or focus reporting, the kitty flags popped.
    func assertTerminalRestored(_ label: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNil(report.failure, "\(label): \(report.failure ?? "")\n\(outputText.suffix(400))", file: file, line: line)
        XCTAssertTrue(report.echo, "\(label): echo is back", file: file, line: line)
        XCTAssertTrue(report.icanon, "\(label): line mode is back", file: file, line: line)
        XCTAssertTrue(report.isig, "\(label): Ctrl-C works in the shell again", file: file, line: line)
        XCTAssertEqual(report.modes_ever["1049"]?.contains("h"), true, "\(label): the alternate screen was used", file: file, line: line)
        XCTAssertEqual(report.modes["1049"], false, "\(label): alternate screen left", file: file, line: line)
        XCTAssertEqual(report.modes["25"], true, "\(label): cursor visible", file: file, line: line)
        for mode in ["1000", "1002", "1003", "1006", "2004", "1004"] {
            XCTAssertNotEqual(report.modes[mode], true, "\(label): mode \(mode) is off", file: file, line: line)
        }
        XCTAssertEqual(report.pending_input, 0, "\(label): no typed keys left for the shell", file: file, line: line)
    }

    func assertKittyFlagsPopped(_ label: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertGreaterThan(report.kitty_pushes, 0, "\(label): Phosphor pushed the kitty flags", file: file, line: line)
        XCTAssertEqual(report.kitty_stack, [], "\(label): the kitty flags were popped before exit", file: file, line: line)
    }
}
