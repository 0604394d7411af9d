import Emulation
import Foundation
import PhosphorKit
import Terminal
import TestSupport
import XCTest
@testable import Shell

/// The play screen, the pause menu and its screens, in process, on a scripted core: what the
/// tmux tests show with a real core and a real terminal, here in well under a second each.
final class PlayInProcessTests: XCTestCase {
    func testPictureFollowsTheButtonsAndTheStatusBarNamesTheGame() throws {
        let game = try PlayHarness(label: "play-picture")
        defer { game.finish() }
        game.stepUntilPicture([])
        XCTAssertTrue(game.screen.lines.last?.hasPrefix(" NES · ") ?? false, "status bar: \(game.screen.lines.last ?? "")")
        XCTAssertTrue(game.screen.contains("slot 1"))
        game.stepUntilPicture([.a], holding: "x")  // A, held in an autorepeat-only terminal
        XCTAssertEqual(game.journal.entries.callsFromOtherThreads, 0)
    }

    /// Game frames are written raw, so they cost no ncurses update (one per frame compared the
    /// whole screen for nothing); the picture, a notice in the status bar and the pause menu
    /// still reach the terminal.
    func testGameFramesCostNoCursesUpdateYetNoticesAndMenusShow() throws {
        // Kitty keys: A stays held until released, however slowly a loaded machine runs the core
        // (a tap is let go after 66 ms: under `make test`'s load the core ran no frame in them).
        let game = try PlayHarness(label: "play-no-update", kittyKeyboard: true)
        defer { game.finish() }
        game.stepUntilPicture([])
        let updates = CursesWindow.updateCount
        let written = game.app.terminal.recorded.count
        game.app.type("\u{1B}[120u")  // x (A) pressed: the next frames show another picture
        game.stepUntilPicture([.a])
        game.app.type("\u{1B}[120;1:3u")  // x released
        XCTAssertGreaterThan(game.app.terminal.recorded.count, written, "no frame was written")
        let screen = try XCTUnwrap(game.app.app.screens.last as? PlayScreen)
        screen.notify("a notice from the test")
        game.app.step(untilText: "a notice from the test")
        XCTAssertEqual(CursesWindow.updateCount, updates, "frames and the notice ran ncurses updates")
        game.openPauseMenu()  // drawn by ncurses: an update
        XCTAssertGreaterThan(CursesWindow.updateCount, updates)
        XCTAssertTrue(game.screen.contains("Resume"), game.screen.text)
    }

    /// The Nintendo 64: its legend names the stick and C-button keys, and X is its A (RetroPad B).
    func testNintendo64LegendAndButtons() throws {
        // Kitty keys: X stays held until released, however slowly a loaded machine runs the core
        // (an autorepeat press is let go after a few turns of the loop: it failed under load).
        let game = try PlayHarness(label: "play-n64", kittyKeyboard: true, system: .n64)
        defer { game.finish() }
        game.stepUntilPicture([])
        XCTAssertTrue(game.screen.lines.last?.hasPrefix(" N64 · ") ?? false, "status bar: \(game.screen.lines.last ?? "")")
        let stick = try XCTUnwrap(game.screen.find("Stick"), "legend: \(game.screen.lines)")
        XCTAssertTrue(game.screen.text(row: stick.row).contains("↑↓←→"), game.screen.text(row: stick.row))
        let cButtons = try XCTUnwrap(game.screen.find("ikjl"), "legend: \(game.screen.lines)")
        XCTAssertEqual(cButtons.row, stick.row + 1)
        game.app.type("\u{1B}[120u")  // x pressed
        game.stepUntilPicture([.b])
        game.app.type("\u{1B}[120;1:3u")  // x released
    }

    /// A skin's legend along the bottom: every button's keys then its label, one after another
    /// on the row (each piece starts where the one before it ended), and the legend is drawn
    /// again, the same, on the next frames.
    func testABottomLegendListsTheButtonsSideBySide() throws {
        // Kitty keys: A stays held until released, however slowly a loaded machine runs the core.
        let game = try PlayHarness(label: "play-bottom-legend", kittyKeyboard: true) { paths in
            try FileManager.default.createDirectory(at: paths.skins, withIntermediateDirectories: true)
            try Data("""
            {
              "system": "nes",
              "minimumSize": {"columns": 30, "rows": 10},
              "background": "#102030",
              "border": {"style": "none"},
              "legend": {"position": "bottom", "size": 3, "buttons": ["a", "b", "start"]},
              "layouts": [{"name": "full", "screens": [{"name": "screen", "alignment": "top-left"}]}]
            }
            """.utf8).write(to: paths.skins.appendingPathComponent("nes.json"))
        }
        defer { game.finish() }
        game.stepUntilPicture([])
        // Keys as the default map names them, the pause menu's last (Esc alone fails in screen).
        let legend = try XCTUnwrap(game.screen.find("x A  z B  enter Start  esc/f1 Menu"), "legend: \(game.screen.lines)")
        XCTAssertEqual(legend.column, 0)
        let row = game.screen.text(row: legend.row)
        game.app.type("\u{1B}[120u")  // x pressed
        game.stepUntilPicture([.a])
        game.app.type("\u{1B}[120;1:3u")  // x released
        XCTAssertEqual(game.screen.text(row: legend.row), row)
    }

    func testPauseMenuStopsTheGameAndResumeStartsIt() throws {
        let game = try PlayHarness(label: "play-pause")
        defer { game.finish() }
        game.pauseOnceDrawn()
        XCTAssertTrue(game.screen.contains("Resume"))
        // The core thread takes the pause at its next frame; after that no frame runs.
        game.waitForCore("the pause") { _ in true }
        Thread.sleep(forTimeInterval: 0.05)
        let paused = game.framesRun
        Thread.sleep(forTimeInterval: 0.1)
        game.app.run(steps: 5)
        XCTAssertEqual(game.framesRun, paused, "frames ran under the pause menu")
        game.app.type("\r")  // Resume
        game.app.step(until: "the menu closed") { !$0.contains("Resume") }
        game.waitForCore("frames after Resume") { $0.framesRun > paused + 3 }
    }

    func testSaveToASlotThenLoadItBack() throws {
        let game = try PlayHarness(label: "play-states")
        defer { game.finish() }
        game.pauseOnceDrawn()
        game.choose("Save State", expecting: "Automatic (on quit)")
        game.choose("Slot 1", expecting: "saved to Slot 1 (U undoes it)")
        let stateFile = game.paths.states.appendingPathComponent("nes/\(game.gameKey).state1")
        XCTAssertTrue(FileManager.default.fileExists(atPath: stateFile.path), "no \(stateFile.path)")
        XCTAssertGreaterThanOrEqual(game.journal.entries.serializations, 1)
        game.app.type("\u{1B}")  // back to the pause menu
        game.app.step(until: "the pause menu again") { $0.contains("Load State") && !$0.contains("Automatic (on quit)") }
        game.choose("Load State", expecting: "Automatic (on quit)")
        game.select("Slot 1")
        game.app.type("\r")
        // Loading closes both menus and goes back to the game.
        game.app.step(until: "the game again") { $0.contains("loaded Slot 1") && !$0.contains("Resume") }
        XCTAssertEqual(game.journal.entries.unserializations, 1)
    }

    func testHeldButtonStaysPressedAfterTheMenuCloses() throws {
        let game = try PlayHarness(label: "play-hold")
        defer { game.finish() }
        game.pauseOnceDrawn()
        game.choose("Hold Buttons", expecting: "C clear all")
        game.select("B")
        game.app.type(" ")
        game.app.step(until: "B checked") { $0.lines.contains { $0.contains("B") && $0.contains("[x]") } }
        game.app.type("\u{1B}\u{1B}")  // hold menu, pause menu
        game.stepUntilPicture([.b])
        XCTAssertTrue(game.screen.lines.last?.contains("B") ?? false)
    }

    func testCheatAddedInTheMenuReachesTheCoreAndItsFile() throws {
        let game = try PlayHarness(label: "play-cheat")
        defer { game.finish() }
        game.pauseOnceDrawn()
        game.choose("Cheat Codes", expecting: "Add cheat…")
        game.choose("Add cheat…", expecting: "Add Cheat — NES")
        game.app.type("NOT-A-CODE\r")
        game.app.step(untilText: "NOT-A-CODE▏")
        XCTAssertTrue(game.screen.text.contains("Add Cheat"), "a wrong code keeps the dialog open")
        game.app.type("\u{15}SXIOPO\r")
        game.app.step(untilText: "Name the Cheat")
        game.app.type("Lives\r")
        game.app.step(untilText: "added Lives · 1 cheat on")
        game.waitForCore("the cheat") { $0.cheatHandOvers.last?.cheats.contains { $0.code.contains("SXIOPO") } ?? false }
        let file = game.paths.cheats.appendingPathComponent("nes/\(game.gameKey).json")
        XCTAssertTrue(try String(contentsOf: file, encoding: .utf8).contains("SXIOPO"))
        game.app.type("\u{1B}\u{1B}")
        game.app.step(until: "the game again") { $0.lines.last?.contains("1 cheat") ?? false }
    }

    /// Issue 16: a RetroArch `.cht` imported from the Cheat Codes screen: its valid codes are
    /// added as the file has them on or off, the broken one is named, and the core gets the list.
    func testRetroArchCheatFileImportedFromTheMenu() throws {
        let game = try PlayHarness(label: "play-cht")
        defer { game.finish() }
        let cht = game.paths.data.appendingPathComponent("Game.cht")
        try Data(RetroArchCheatFileTests.sample.utf8).write(to: cht)
        game.pauseOnceDrawn()
        game.choose("Cheat Codes", expecting: "Add cheat…")
        game.choose("Import RetroArch .cht…", expecting: "Import Cheats — NES")
        game.app.type("/nonexistent.cht\r")
        game.app.step(untilText: "nonexistent.cht")
        XCTAssertTrue(game.screen.text.contains("Import Cheats"), "a missing file keeps the dialog open")
        game.app.type("\u{15}\(cht.path)\r")
        game.app.step(untilText: "imported 2 cheats (1 on) from Game.cht; skipped 1")
        game.waitForCore("the imported cheat") { $0.cheatHandOvers.last?.cheats.contains { $0.code.contains("SXIOPO") } ?? false }
        XCTAssertTrue(game.screen.contains("Infinite Lives"))
        XCTAssertTrue(game.screen.contains("Boxes held"))
        let saved = try String(contentsOf: game.paths.cheats.appendingPathComponent("nes/\(game.gameKey).json"), encoding: .utf8)
        XCTAssertTrue(saved.contains("OZPKGO+EYPKIP"), saved)
    }

    func testKeyRemappedInTheEditorIsSavedAndUsed() throws {
        let game = try PlayHarness(label: "play-keys")
        defer { game.finish() }
        game.pauseOnceDrawn()
        game.choose("Key Mapping", expecting: "Keys — NES")
        game.choose("P1 A", expecting: "press the new key")
        game.app.type("o")  // free on the NES (V, B, P and U are slow motion, rewind, pause, frame advance)
        game.app.step(untilText: "o set")
        game.app.type("\u{1B}")  // leaves the editor: saved
        game.app.step(until: "the pause menu") { !$0.contains("Keys — NES") && $0.contains("Resume") }
        XCTAssertTrue(game.screen.contains("key map saved"))
        game.app.type("\u{1B}")
        game.app.step(until: "the game again") { !$0.contains("Resume") }
        let saved = try FileManager.default.contentsOfDirectory(atPath: game.paths.keyMaps.path)
        XCTAssertFalse(saved.isEmpty, "no key map file")
        game.stepUntilPicture([.a], holding: "o")
    }

    func testTooSmallTerminalPausesAndSaysSo() throws {
        let game = try PlayHarness(label: "play-small")
        defer { game.finish() }
        game.stepUntilPicture([])
        game.app.terminal.resize(columns: 30, rows: 10)
        game.app.screen.resize(columns: 30, rows: 10)
        game.app.step(untilText: "Terminal too small")
        Thread.sleep(forTimeInterval: 0.05)
        let frames = game.framesRun
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertEqual(game.framesRun, frames, "the game ran in a terminal too small to show it")
        game.app.terminal.resize(columns: 100, rows: 32)
        game.app.screen.resize(columns: 100, rows: 32)
        game.stepUntilPicture([])
        game.waitForCore("frames after the resize") { $0.framesRun > frames + 3 }
    }

    func testQuitWritesTheAutomaticStateAndStopsTheCore() throws {
        let game = try PlayHarness(label: "play-quit")
        defer { game.finish() }
        game.pauseOnceDrawn()
        game.select("Quit")
        game.app.type("\r")
        game.app.run(steps: 3)
        XCTAssertTrue(game.app.app.quitRequested)
        game.app.app.finish()
        XCTAssertTrue(game.journal.entries.unloaded)
        let auto = game.paths.states.appendingPathComponent("nes/\(game.gameKey).state.auto")
        XCTAssertTrue(FileManager.default.fileExists(atPath: auto.path), "no \(auto.path)")
    }

    /// A state path that is a folder (F5's quick slot here): the status bar says so in one plain
    /// line naming the file, not Foundation's "Error Domain=NSCocoaErrorDomain Code=…" text (that
    /// stays in the log); the folder is left alone.
    func testSavingIntoAFolderShowsAPlainLine() throws {
        var quickState: URL!
        // Wide enough for the whole line (the scratch folder's path is long).
        let game = try PlayHarness(columns: 260, label: "play-state-folder") { paths in
            quickState = paths.states.appendingPathComponent("nes/phosphor-test.state")
            try FileManager.default.createDirectory(at: quickState, withIntermediateDirectories: true)
        }
        defer { game.finish() }
        game.stepUntilPicture([])
        game.app.type("\u{1B}[15~")  // F5: quick save
        game.app.step(untilText: "is a folder")
        let statusLine = game.screen.text.split(separator: "\n").first { $0.contains("is a folder") } ?? ""
        XCTAssertTrue(statusLine.contains("phosphor-test.state"), "names the file: \(statusLine)")
        for raw in ["NSCocoaErrorDomain", "Error Domain", "Code=", "UserInfo"] {
            XCTAssertFalse(game.screen.text.contains(raw), "\(raw) on screen:\n\(game.screen.text)")
        }
        var isFolder: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: quickState.path, isDirectory: &isFolder) && isFolder.boolValue)
    }

    /// The answer to a frame's probe wakes the loop between display ticks. That wake does no
    /// per-tick work (the buttons handed to the core stay as they are until the tick is due),
    /// but a key typed between ticks still reaches the core at its own wake.
    func testAProbeAnswerBetweenTicksDoesNoTickWorkButAKeyReachesTheCoreAtOnce() throws {
        let game = try PlayHarness(label: "play-between-ticks")
        defer { game.finish() }
        game.stepUntilPicture([])
        let session = try XCTUnwrap(game.app.app.session)
        let terminal = game.app.terminal
        let answer = "\u{1B}[\(terminal.rows);1R"
        // Turns until a wait sleeps (until a tick is due: answers to drawn frames come at once).
        func stepUntilTheClockMoves() {
            let before = terminal.now
            for _ in 0..<20 where terminal.now == before { game.app.run(steps: 1) }
        }
        stepUntilTheClockMoves()
        terminal.send(answer)
        game.app.run(steps: 1)  // that tick; the wait returns at once for the answer
        let start = terminal.now
        // A mask no tick would hand over (nothing is held): it stays only while no tick runs.
        session.thread.input.set(ButtonMask([.b]), port: 0)
        terminal.send(answer)
        game.app.run(steps: 1)  // a wake before the next tick, for an answer alone
        XCTAssertEqual(terminal.now, start, "the answer's wake came before the tick was due")
        XCTAssertEqual(session.thread.input.mask(port: 0), ButtonMask([.b]), "a probe's answer ran the tick's input work")
        // A key at the same instant: handed to the core at the next turn, before any tick is due.
        terminal.send("x")  // A
        game.app.run(steps: 1)
        terminal.send(answer)
        game.app.run(steps: 1)
        XCTAssertEqual(terminal.now, start)
        XCTAssertEqual(session.thread.input.mask(port: 0), ButtonMask([.a]))
        // The tick that comes due hands the buttons over again, with no key since.
        session.thread.input.set(ButtonMask([.b]), port: 0)
        stepUntilTheClockMoves()
        game.app.run(steps: 1)
        XCTAssertGreaterThan(terminal.now, start)
        XCTAssertNotEqual(session.thread.input.mask(port: 0), ButtonMask([.b]), "the due tick hands the buttons over")
    }
}
