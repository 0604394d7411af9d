import Emulation
import Foundation
import Input
import PhosphorKit
import TestSupport
import XCTest
@testable import Shell

/// Play actions from a scripted pad, in process: the left stick's click rewinds exactly while it is
/// down, the Guide button opens the pause menu, and the key-map screen binds an action to a pad button.
final class GamepadActionsInProcessTests: XCTestCase {
    func testHoldingThePadsRewindButtonRewindsExactlyWhileItIsDown() throws {
        let pad = ScriptedGamepad(name: "Scripted Pad")
        // Tap model (no kitty keyboard): a pad's own releases must do without the terminal's.
        let game = try PlayHarness(label: "pad-rewind", gamepads: [pad])
        defer { game.finish() }
        game.stepUntilPicture([])
        game.waitForCore("two seconds of play") { $0.framesRun > 120 }
        game.app.step(until: "the rewind seconds") { $0.lines.last?.contains("⟲ 2s") ?? false }
        XCTAssertEqual(game.journal.entries.recentRestores, 0, "no rewinding before the press")
        pad.press(EvdevCode.leftThumb)
        game.app.step(until: "rewinding in the status bar") { $0.lines.last?.contains("◀◀ rewind") ?? false }
        game.waitForCore("rewind steps") { $0.recentRestores > 30 }
        // Held far longer than the tap model's hold would last for a key: still rewinding.
        Thread.sleep(forTimeInterval: 0.6)
        game.app.run(steps: 3)
        XCTAssertTrue(game.screen.lines.last?.contains("◀◀ rewind") ?? false, "still held: \(game.screen.lines.last ?? "")")
        pad.release(EvdevCode.leftThumb)
        game.app.step(until: "playing again") { !($0.lines.last?.contains("◀◀ rewind") ?? true) }
        let restores = game.journal.entries.recentRestores
        let frames = game.framesRun
        game.waitForCore("frames forward") { $0.framesRun > frames + 20 }
        XCTAssertLessThanOrEqual(game.journal.entries.recentRestores, restores + 1, "no more rewinding after the release")
        XCTAssertGreaterThan(game.cells(showing: game.backgroundRGB([])), 200, "the stick click pressed no console button")
    }

    func testTheGuideButtonOpensThePauseMenuAndAPadButtonCanBeBoundToAnAction() throws {
        let pad = ScriptedGamepad(name: "Scripted Pad")
        let game = try PlayHarness(label: "pad-menu", gamepads: [pad])
        defer { game.finish() }
        game.stepUntilPicture([])
        pad.press(EvdevCode.mode)
        game.app.step(until: "the pause menu") { $0.contains("Resume") }
        pad.release(EvdevCode.mode)
        game.choose("Key Mapping", expecting: "Keys — NES")
        game.choose("Slow motion (hold)", expecting: "press the new key or pad button for Slow motion")
        pad.press(EvdevCode.rightTrigger)
        pad.release(EvdevCode.rightTrigger)
        game.app.step(until: "the binding") { $0.contains("is now pad button 313 on") }
        let text = try String(contentsOf: game.paths.gamepadMappings, encoding: .utf8)
        XCTAssertTrue(text.contains("\"slow-motion-hold\" : \"tr2\""), text)
        XCTAssertEqual(try GamepadMapping.overrides(fromFileText: text)["Scripted Pad"]?.actions[EvdevCode.rightTrigger], .slowMotionHold)
    }
}
