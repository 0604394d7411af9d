import Emulation
import Foundation
import PhosphorKit
import TestSupport
import XCTest
@testable import Shell

/// Rewind, slow motion, pause and frame advance from the play keys, and the Rewind & Run-Ahead
/// screen, in process on a scripted core (kitty keyboard: exact presses and releases).
final class TimelineInProcessTests: XCTestCase {
    private func press(_ game: PlayHarness, _ character: Character) {
        game.app.type("\u{1B}[\(character.unicodeScalars.first!.value)u")
    }

    private func release(_ game: PlayHarness, _ character: Character) {
        game.app.type("\u{1B}[\(character.unicodeScalars.first!.value);1:3u")
    }

    func testPauseKeyThenFrameAdvanceRunsExactlyOneFramePerPress() throws {
        let game = try PlayHarness(label: "timeline-advance", kittyKeyboard: true)
        defer { game.finish() }
        game.stepUntilPicture([])
        press(game, "p")
        release(game, "p")
        game.app.step(until: "the pause notice") { $0.contains("paused: u runs one frame") }
        game.app.step(until: "the paused status") { $0.lines.last?.contains("NES · paused") ?? false }
        Thread.sleep(forTimeInterval: 0.05)
        game.app.run(steps: 3)
        let before = game.framesRun
        for count in 1...3 {
            press(game, "u")
            release(game, "u")
            game.app.run(steps: 3)
            XCTAssertEqual(game.framesRun, before + UInt64(count), "press \(count)")
        }
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(game.framesRun, before + 3, "still paused between presses")
        press(game, "p")
        release(game, "p")
        game.waitForCore("frames after the pause key again") { $0.framesRun > before + 10 }
    }

    func testFrameAdvanceWithoutPauseSaysHow() throws {
        let game = try PlayHarness(label: "timeline-advance-unpaused", kittyKeyboard: true)
        defer { game.finish() }
        game.stepUntilPicture([])
        press(game, "u")
        release(game, "u")
        game.app.step(until: "the hint") { $0.contains("pause first (p), then u runs one frame") }
    }

    func testHoldingRewindRunsBackAndTheStatusBarSaysSo() throws {
        let game = try PlayHarness(label: "timeline-rewind", kittyKeyboard: true)
        defer { game.finish() }
        game.stepUntilPicture([])
        game.waitForCore("two seconds of play") { $0.framesRun > 120 }
        game.app.step(until: "the rewind seconds") { $0.lines.last?.contains("⟲ 2s") ?? false }
        press(game, "b")
        game.app.step(until: "rewinding in the status bar") { $0.lines.last?.contains("◀◀ rewind") ?? false }
        game.waitForCore("rewind steps") { $0.recentRestores > 30 }
        release(game, "b")
        game.app.step(until: "playing again") { !($0.lines.last?.contains("◀◀ rewind") ?? true) }
        let restores = game.journal.entries.recentRestores
        let frames = game.framesRun
        game.waitForCore("frames forward") { $0.framesRun > frames + 20 }
        XCTAssertLessThanOrEqual(game.journal.entries.recentRestores, restores + 1, "no more rewinding")
    }

    func testHoldingSlowMotionShowsItsSpeed() throws {
        let game = try PlayHarness(label: "timeline-slow", kittyKeyboard: true)
        defer { game.finish() }
        game.stepUntilPicture([])
        let muted = game.journal.entries.mutedFrames
        press(game, "v")
        game.app.step(until: "slow motion in the status bar") { $0.lines.last?.contains("▶ 1/2") ?? false }
        game.waitForCore("muted slow frames") { $0.mutedFrames > muted + 10 }
        release(game, "v")
        game.app.step(until: "normal speed") { !($0.lines.last?.contains("▶ 1/2") ?? true) }
    }

    func testRewindAndRunAheadSettingsAreSavedAndReachTheCore() throws {
        let game = try PlayHarness(label: "timeline-menu")
        defer { game.finish() }
        game.pauseOnceDrawn()
        game.choose("Rewind & Run-Ahead", expecting: "Rewind Buffer")
        game.select("Rewind Buffer")
        game.app.type("\u{1B}[C")  // 64 → 128 MB
        game.app.step(untilText: "◂ 128 MB ▸")
        game.select("Run-Ahead (this game)")
        game.app.type("\u{1B}[C")  // as the system → off
        game.app.step(untilText: "◂ off ▸")
        game.app.type("\u{1B}[C")  // → 1 frame
        game.app.step(untilText: "◂ 1 frame ▸")
        game.select("Slow Motion")
        game.app.type("\r")
        game.app.step(untilText: "◂ 1/4 speed ▸")
        game.app.type("\u{1B}\u{1B}")
        game.app.step(until: "the game again") { !$0.contains("Resume") && !$0.contains("Rewind Buffer") }
        // Run-ahead 1 on the scripted core: a hidden frame for every shown one.
        game.waitForCore("hidden frames") { $0.hiddenFrames > 20 }
        game.app.app.finish()
        let config = try String(contentsOf: game.paths.configFile, encoding: .utf8)
        let compact = config.replacingOccurrences(of: " ", with: "")
        XCTAssertTrue(compact.contains("\"bufferMegabytes\":128"), config)
        XCTAssertTrue(compact.contains("\"\(game.gameKey)\":\"1\""), config)
        XCTAssertTrue(compact.contains("\"slowMotion\":\"1\\/4\"") || compact.contains("\"slowMotion\":\"1/4\""), config)
        let reread = ConfigStore.load(from: game.paths.configFile)
        XCTAssertEqual(reread.config.timeline.rewindBufferMegabytes, 128)
        XCTAssertEqual(reread.config.timeline.runAheadPerGame[game.gameKey], .ahead1)
        XCTAssertEqual(reread.config.timeline.slowMotion, .quarter)
    }
}

extension TimelineInProcessTests {
    func testRewindKeyWithRewindOffSaysWhereToTurnItOn() throws {
        let game = try PlayHarness(label: "timeline-rewind-off", kittyKeyboard: true) { paths in
            try FileManager.default.createDirectory(at: paths.configFile.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            try Data(#"{"rewind": {"enabled": false}}"#.utf8).write(to: paths.configFile)
        }
        defer { game.finish() }
        game.stepUntilPicture([])
        game.waitForCore("some frames") { $0.framesRun > 30 }
        XCTAssertEqual(game.journal.entries.serializations, 0, "no states kept")
        game.app.type("\u{1B}[98u")  // b pressed
        game.app.step(until: "the hint") { $0.contains("rewind is off (pause menu, Rewind & Run-Ahead)") }
        game.app.type("\u{1B}[98;1:3u")
        XCTAssertEqual(game.journal.entries.recentRestores, 0)
    }
}
