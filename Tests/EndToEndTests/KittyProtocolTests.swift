import Foundation
import XCTest

/// The input path with real key releases: phosphor in a pseudo-terminal that answers the kitty
/// keyboard protocol like kitty does (Support/kitty_pty.py). A held key stays held with no
/// autorepeat at all, and its release lets go at once (issue: input). The same terminal also
/// answers the synchronized-output query, or (`--silent-modes`) ignores it.
final class KittyProtocolTests: XCTestCase {
    private func runInKittyTerminal(_ extraArguments: [String] = []) throws -> [String: Any] {
        try ptyScriptVerdict("kitty_pty.py", arguments: extraArguments)
    }

    func testPressAndReleaseEventsDriveTheButtonExactly() throws {
        let verdict = try runInKittyTerminal()
        XCTAssertEqual(verdict["pushed"] as? Bool, true, "phosphor pushed the game-mode flags")
        XCTAssertGreaterThan(verdict["half_blocks"] as? Int ?? 0, 200, "the picture was drawn")
        XCTAssertEqual(verdict["changed_on_press"] as? Bool, true, "the A box reacts to the press")
        XCTAssertEqual(verdict["held_without_repeats"] as? Bool, true, "A stays held with no autorepeat")
        XCTAssertEqual(verdict["back_after_release"] as? Bool, true, "the release lets go at once")
        XCTAssertEqual(verdict["popped"] as? Bool, true, "the flags were popped on SIGTERM")
        XCTAssertEqual(verdict["exit_code"] as? Int, 0)
        // The terminal said it knows mode 2026: frames come wrapped, and the exit ends it once more.
        let begins = verdict["synchronized_begins"] as? Int ?? 0
        XCTAssertGreaterThan(begins, 5, "frames are wrapped in synchronized output")
        XCTAssertEqual(verdict["synchronized_ends"] as? Int, begins + 1, "every frame ends it, and so does the exit")
    }

    func testTerminalThatIgnoresTheModeQueryNeverGetsSynchronizedOutput() throws {
        let verdict = try runInKittyTerminal(["--silent-modes"])
        XCTAssertGreaterThan(verdict["half_blocks"] as? Int ?? 0, 200, "the picture was drawn")
        XCTAssertEqual(verdict["synchronized_begins"] as? Int, 0)
        XCTAssertEqual(verdict["synchronized_ends"] as? Int, 0)
        XCTAssertEqual(verdict["exit_code"] as? Int, 0)
    }
}
