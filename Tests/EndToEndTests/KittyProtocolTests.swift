import Foundation
import XCTest

/// The input path with real key releases: phosphor in a pseudo-terminal that answers the kitty
/// keyboard protocol like kitty does (Support/kitty_pty.py). A held key stays held with no
/// autorepeat at all, and its release lets go at once (issue: input).
final class KittyProtocolTests: XCTestCase {
    func testPressAndReleaseEventsDriveTheButtonExactly() throws {
        let phosphor = try PhosphorProcess()
        defer { phosphor.cleanUp() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = PhosphorProcess.packageRoot.appendingPathComponent("Tests/EndToEndTests/Support/kitty_pty.py")
        process.arguments = ["python3", script.path, PhosphorProcess.binary.path,
                             PhosphorProcess.rom("nes/phosphor-test.nes").path, phosphor.home.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let verdict = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any],
                                    String(decoding: data, as: UTF8.self))
        XCTAssertEqual(verdict["pushed"] as? Bool, true, "phosphor pushed the game-mode flags")
        XCTAssertGreaterThan(verdict["half_blocks"] as? Int ?? 0, 200, "the picture was drawn")
        XCTAssertEqual(verdict["changed_on_press"] as? Bool, true, "the A box reacts to the press")
        XCTAssertEqual(verdict["held_without_repeats"] as? Bool, true, "A stays held with no autorepeat")
        XCTAssertEqual(verdict["back_after_release"] as? Bool, true, "the release lets go at once")
        XCTAssertEqual(verdict["popped"] as? Bool, true, "the flags were popped on SIGTERM")
        XCTAssertEqual(verdict["exit_code"] as? Int, 0)
    }
}
