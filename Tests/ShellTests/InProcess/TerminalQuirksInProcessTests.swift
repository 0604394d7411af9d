import Foundation
import Input
import TestSupport
import XCTest
@testable import Shell

/// The whole app on terminals that answer late or hold keys back: kitty answering the start-up
/// query after the deadline, GNU screen (8 colours, a lone Esc held back), and the start notices.
final class TerminalQuirksInProcessTests: XCTestCase {
    /// kitty busy at start-up: the game starts without release events; the answer arriving later
    /// still pushes the flags, and from then on a key is held from press to release.
    func testKittyAnswerAfterTheDeadlineTurnsReleaseEventsOn() throws {
        let game = try PlayHarness(label: "late-kitty", answersKeyboard: false)
        defer { game.finish() }
        XCTAssertFalse(game.app.app.releaseEvents)
        XCTAssertEqual(game.app.app.session?.input.releaseEvents, false)
        game.stepUntilPicture([])
        game.app.type("\u{1B}[?0u\u{1B}[?62c")  // the late answer to the detection query
        game.app.run(steps: 3)
        XCTAssertTrue(game.app.terminal.keyboardFlagsPushed, "the flags are pushed after the late answer")
        game.app.type("\u{1B}[?11u\u{1B}[?62c")  // and to the verification
        game.app.step(untilText: "key releases on")
        XCTAssertTrue(game.app.app.releaseEvents)
        XCTAssertEqual(game.app.app.session?.input.releaseEvents, true)
        game.app.type("\u{1B}[120u")  // x pressed
        game.stepUntilPicture([.a])
        game.app.type("\u{1B}[120;1:3u")  // x released
        game.stepUntilPicture([])
    }

    /// foot under a compositor starts us at 80x24 and makes the window bigger a moment later,
    /// while the start-up queries are out: that SIGWINCH must not be lost in the wait.
    func testAResizeDuringTheStartUpWaitIsFollowed() throws {
        let app = try AppHarness(columns: 80, rows: 24, label: "resize-at-start")
        defer { app.finish() }
        app.terminal.resize(columns: 100, rows: 32)  // SIGWINCH, before the answers are read
        app.screen.resize(columns: 100, rows: 32)
        try app.startBrowser()
        app.step(until: "the browser on all 32 rows") { !$0.text(row: 31).trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// GNU screen: 8 colours (said once, with the fix), Esc held back until the next key
    /// (`ESC ESC [ B` opens the menu and moves down), and F1 as the second pause key.
    func testUnderGNUScreenTheMenuOpensAndTheColourAdviceShows() throws {
        let game = try PlayHarness(terminalType: "screen", label: "screen", background: nil,
                                   environment: ["STY": "4242.pts-1.host"])
        defer { game.finish() }
        game.app.step(untilText: "GNU screen shows 8 colours")
        game.stepUntilPicture([])
        // The legend names both pause keys.
        XCTAssertTrue(game.screen.lines.contains { $0.contains("Menu") && $0.contains("f1") }, game.screen.text)
        game.app.type("\u{1B}OP")  // F1
        game.app.step(untilText: "Paused — NES")
        game.app.type("\u{1B}OP")  // F1 again closes it
        game.app.step(until: "the game again") { !$0.contains("Resume") }
        game.app.type("\u{1B}\u{1B}[B")  // Esc (held back by screen), then Down
        game.app.step(untilText: "Paused — NES")
        let save = try XCTUnwrap(game.screen.find("Save State"))
        game.app.step(until: "Save State selected") { _ in game.isSelected(column: save.column, row: save.row) }
    }

    /// Every start notice is shown, one after the other, each for its time.
    func testStartNoticesAreShownInTurn() throws {
        // No sound (the harness turns audio off) and no key releases: two start notices.
        let game = try PlayHarness(label: "notices")
        defer { game.finish() }
        let notices = try XCTUnwrap(game.app.app.session?.startNotices)
        XCTAssertGreaterThanOrEqual(notices.count, 2, "\(notices)")
        for notice in notices {
            let start = String(notice.prefix(20))
            game.app.step(untilText: start, steps: 6000)
        }
    }
}
