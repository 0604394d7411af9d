import Emulation
import Foundation
import Glibc
import PhosphorKit
import TestSupport
import XCTest
@testable import Shell

/// More of the pause menu and the play keys, in process on a scripted core.
final class PlayMenuInProcessTests: XCTestCase {
    func testResetAndScreenshotFromTheMenu() throws {
        let game = try PlayHarness(label: "menu-reset")
        defer { game.finish() }
        game.pauseOnceDrawn()
        game.select("Reset")
        game.app.type("\r")
        game.app.step(until: "the game after the reset") { !$0.contains("Resume") && $0.contains("reset") }
        game.waitForCore("the reset") { $0.resets == 1 }
        game.openPauseMenu()
        game.select("Screenshot")
        game.app.type("\r")
        game.app.step(until: "the screenshot notice") { $0.lines.last?.contains("screenshot phosphor-test") ?? false }
        let shots = try FileManager.default.contentsOfDirectory(atPath: game.paths.screenshots.path)
        XCTAssertEqual(shots.filter { $0.hasSuffix(".png") }.count, 1, "\(shots)")
    }

    func testStatusBarAndColourChoicesAreSavedInTheConfig() throws {
        let game = try PlayHarness(label: "menu-settings")
        defer { game.finish() }
        game.pauseOnceDrawn()
        game.select("Colour")
        game.app.type("\u{1B}[C")  // 24bit → the next mode
        game.app.step(until: "a new colour mode") { !$0.contains("◂ 24bit ▸") && $0.contains("Colour") }
        game.choose("Status Bar", expecting: "hidden")
        game.app.type("\u{1B}")
        game.app.step(until: "the game without a status bar") { !$0.contains("Resume") && !$0.contains("NES ·") }
        game.app.app.finish()
        let config = try String(contentsOf: game.paths.configFile, encoding: .utf8)
        XCTAssertTrue(config.contains("\"showStatusBar\" : false") || config.contains("\"showStatusBar\": false"), config)
        XCTAssertFalse(config.contains("\"colorMode\" : \"24bit\""), config)
    }

    func testLockedSlotRefusesASaveAndDeleteEmptiesIt() throws {
        let game = try PlayHarness(label: "menu-lock")
        defer { game.finish() }
        game.pauseOnceDrawn()
        game.choose("Save State", expecting: "Automatic (on quit)")
        game.choose("Slot 2", expecting: "saved to Slot 2")
        game.app.type("l")
        game.app.step(untilText: "locked: it can't be overwritten or")  // the message wraps
        // The lock (an emoji, two columns wide) must not push the value out of line with the
        // other rows' values: they all end at the same column.
        XCTAssertEqual(Self.valueEndColumn(row: "Slot 2", in: game.screen), Self.valueEndColumn(row: "Slot 3", in: game.screen))
        game.app.type("\r")
        game.app.step(untilText: "Slot 2 is locked (L unlocks it)")
        game.app.type("l")
        game.app.step(untilText: "unlocked")
        game.app.type("\u{1B}[3~")  // Delete
        game.app.step(untilText: "deleted Slot 2")
        let state = game.paths.states.appendingPathComponent("nes/\(game.gameKey).state2")
        XCTAssertFalse(FileManager.default.fileExists(atPath: state.path))
    }

    /// The column of the last character before the inner menu's right border on the row that
    /// shows `label` (nil when there is no such row).
    static func valueEndColumn(row label: String, in screen: ScreenModel) -> Int? {
        guard let (labelColumn, row) = screen.find(label) else { return nil }
        guard let border = (labelColumn..<screen.columns).first(where: { screen.cell(column: $0, row: row).character == "│" })
        else { return nil }
        return (labelColumn..<border).last { screen.cell(column: $0, row: row).character != " " }
    }

    func testUndoLastLoadPutsBackTheStateBeforeTheLoad() throws {
        let game = try PlayHarness(label: "menu-undo")
        defer { game.finish() }
        game.stepUntilPicture([])
        game.app.type("\u{1B}[15~")  // F5: quick save
        game.app.step(until: "the quick save") { $0.lines.last?.contains("saved Quick") ?? false }
        game.app.type("\u{1B}[19~")  // F8: quick load
        game.app.step(until: "the quick load") { $0.lines.last?.contains("loaded Quick") ?? false }
        game.openPauseMenu()
        game.select("Undo Last Load")
        game.app.type("\r")
        game.app.step(until: "the undo") { $0.lines.last?.contains("undid the last load") ?? false }
        XCTAssertEqual(game.journal.entries.unserializations, 2)
    }

    func testFastForwardToggleRunsTheCoreFasterAndSaysSo() throws {
        let game = try PlayHarness(label: "menu-ff")
        defer { game.finish() }
        game.stepUntilPicture([])
        game.app.type("\t")
        game.app.step(until: "the fast-forward notice") { $0.lines.last?.contains("fast-forward 4x") ?? false }
        game.waitForCore("fast-forwarded frames") { $0.fastForwardedFrames > 10 }
        game.app.step(until: "the speed in the status bar") { $0.lines.last?.contains("▶▶ 4x") ?? false }
        // A second Tab within the hold window would read as autorepeat on this terminal (no key
        // releases): the player lets go first.
        game.app.terminal.advance(by: .seconds(1))
        game.app.type("\t")
        game.app.step(until: "normal speed") { $0.lines.last?.contains("normal speed") ?? false }
    }

    func testKittyKeyboardPressAndReleaseAreExact() throws {
        let game = try PlayHarness(label: "menu-kitty", kittyKeyboard: true)
        defer { game.finish() }
        XCTAssertTrue(game.app.terminal.keyboardFlagsPushed)
        game.stepUntilPicture([])
        game.app.type("\u{1B}[120u")  // x pressed
        game.stepUntilPicture([.a])
        game.app.type("\u{1B}[120;1:3u")  // x released
        game.stepUntilPicture([])
    }

    func testSuspendPausesTheGameAndResumeRepaints() throws {
        let game = try PlayHarness(label: "menu-suspend")
        defer { game.finish() }
        game.stepUntilPicture([])
        game.app.terminal.raise(SIGTSTP)
        game.app.run(steps: 2)
        XCTAssertEqual(game.app.terminal.suspendCount, 1)
        game.waitForCore("frames after the resume") { $0.framesRun > 5 }
        let frames = game.framesRun
        game.waitForCore("frames after the resume") { $0.framesRun > frames + 3 }
    }

    /// Raw mode delivers Ctrl-Z as a byte, not as SIGTSTP: the app suspends on the byte itself
    /// (legacy 0x1A and the kitty protocol's `CSI 122;5u`), and the game goes on after it.
    func testCtrlZByteSuspendsThePlayScreen() throws {
        let game = try PlayHarness(label: "play-ctrl-z")
        defer { game.finish() }
        game.stepUntilPicture([])
        game.app.type("\u{1A}")
        game.app.run(steps: 2)
        XCTAssertEqual(game.app.terminal.suspendCount, 1, "Ctrl-Z (0x1A) suspends")
        game.app.type("\u{1B}[122;5u")
        game.app.run(steps: 2)
        XCTAssertEqual(game.app.terminal.suspendCount, 2, "Ctrl-Z from the kitty protocol suspends")
        let frames = game.framesRun
        game.waitForCore("frames after the resume") { $0.framesRun > frames + 3 }
        XCTAssertFalse(game.app.app.quitRequested)
    }

    func testHangUpEndsTheGameWithItsSaves() throws {
        let game = try PlayHarness(label: "menu-hangup")
        defer { game.finish() }
        game.stepUntilPicture([])
        game.app.terminal.hangUp()
        game.app.run(steps: 2)
        XCTAssertTrue(game.app.app.quitRequested)
        game.app.app.finish()
        XCTAssertTrue(game.journal.entries.unloaded)
        XCTAssertTrue(FileManager.default.fileExists(
            atPath: game.paths.states.appendingPathComponent("nes/\(game.gameKey).state.auto").path))
    }
}

/// From the browser into a game and back: the library's play statistics follow.
final class LibraryRoundTripInProcessTests: XCTestCase {
    func testGameFromTheLibraryQuitsBackToItAndCountsThePlay() throws {
        let journal = ScriptedCore.Journal()
        let core = CoreInfo(path: URL(fileURLWithPath: "/nonexistent/scripted_libretro.so"), name: "scripted",
                            displayName: "Scripted Core", systems: [.nes], extensions: ["nes"], needsFullPath: false,
                            supportsNoGame: false, displayVersion: "1.0", softwareRendered: true)
        let harness = try AppHarness(label: "library-round-trip", catalog: CoreCatalog(cores: [core]))
        defer { harness.finish() }
        harness.services.overrides.makeCore = ScriptedCore.maker(ScriptedCore.Script(title: "phosphor-test"), journal: journal)
        harness.app.libraryScreenFactory = { try! LibraryScreen(services: harness.services) }
        try harness.startBrowser()
        harness.step(until: "the bundled cartridges") { $0.contains("6 of 6") }
        // The NES cartridge's row, picked with the arrows as a user would.
        for _ in 0..<10 where !Self.selectedRow(harness.screen).contains(" NES ") {
            harness.type("\u{1B}[B")
            harness.run(steps: 2)
        }
        XCTAssertTrue(Self.selectedRow(harness.screen).contains(" NES "))
        harness.type("\r")
        harness.step(until: "the game") { $0.lines.last?.hasPrefix(" NES · ") ?? false }
        harness.type("\u{1B}")
        harness.step(untilText: "Quit to Library")
        for _ in 0..<20 where !(harness.screen.find("Quit to Library").map { harness.screen.effectiveColors(column: $0.column, row: $0.row).background == .palette(14) } ?? false) {
            harness.type("\u{1B}[B")
            harness.run(steps: 2)
        }
        harness.type("\r")
        harness.step(until: "the library with the game played") { $0.contains("PHOSPHOR") && $0.contains("Continue") }
        XCTAssertTrue(journal.entries.unloaded)
        XCTAssertFalse(harness.app.quitRequested)
    }

    /// The browser's selected row (Theme.selected: a cyan bar).
    static func selectedRow(_ screen: ScreenModel) -> String {
        (0..<screen.rows).first { row in
            (25..<60).contains { screen.effectiveColors(column: $0, row: row).background == .palette(14) }
        }.map { screen.text(row: $0) } ?? ""
    }
}
