import XCTest
@testable import Input
@testable import PhosphorKit

/// Pad buttons bound to play actions: the defaults on buttons no console uses, gamepads.json
/// entries named after actions, and held actions that last exactly while the button is down.
final class GamepadActionTests: XCTestCase {
    private func press(_ code: UInt16) -> GamepadEvent { GamepadEvent(type: GamepadEvent.keyType, code: code, value: 1) }
    private func release(_ code: UInt16) -> GamepadEvent { GamepadEvent(type: GamepadEvent.keyType, code: code, value: 0) }

    func testDefaultActionsGoOnButtonsTheConsoleDoesNotUse() {
        for system in GameSystem.allCases {
            let mapping = GamepadMapping.standard.addingDefaultActions(keeping: Set(system.buttons))
            XCTAssertEqual(mapping.actions[EvdevCode.leftThumb], .rewind, "\(system)")
            XCTAssertEqual(mapping.actions[EvdevCode.rightThumb], .fastForwardHold, "\(system)")
            XCTAssertEqual(mapping.actions[EvdevCode.mode], .pauseMenu, "\(system)")
            // No code a console button comes from carries an action.
            for (code, button) in mapping.buttons where system.buttons.contains(button) {
                XCTAssertNil(mapping.actions[code], "\(system) \(button)")
            }
        }
        // A console that used L3 would keep it on the left stick's click.
        let withL3 = GamepadMapping.standard.addingDefaultActions(keeping: [.l3, .a, .b])
        XCTAssertNil(withL3.actions[EvdevCode.leftThumb])
        XCTAssertEqual(withL3.actions[EvdevCode.rightThumb], .fastForwardHold)
    }

    func testAnActionButtonPressesNoConsoleButtonAndIsHeldExactlyWhileDown() {
        var state = GamepadState(mapping: GamepadMapping.standard.addingDefaultActions(keeping: Set(GameSystem.nes.buttons)))
        state.apply([press(EvdevCode.leftThumb), press(EvdevCode.south)])
        XCTAssertEqual(state.actions, [.rewind])
        XCTAssertEqual(state.buttons, ButtonMask([.b]), "the stick click is not L3 any more")
        state.apply(release(EvdevCode.leftThumb))
        XCTAssertEqual(state.actions, [])
        XCTAssertEqual(state.buttons, ButtonMask([.b]))
    }

    func testFileEntriesNamedAfterActionsReplaceTheDefaultAndReadBack() throws {
        let text = #"{ "Pad": { "rewind": "tl2", "pause-menu": "select", "b": "east" } }"#
        let mapping = try XCTUnwrap(GamepadMapping.overrides(fromFileText: text)["Pad"])
        XCTAssertEqual(mapping.actions, [EvdevCode.leftTrigger: .rewind, EvdevCode.select: .pauseMenu])
        let played = mapping.addingDefaultActions(keeping: Set(GameSystem.nes.buttons))
        XCTAssertEqual(played.actions[EvdevCode.leftTrigger], .rewind)
        XCTAssertNil(played.actions[EvdevCode.leftThumb], "rewind is on one button only")
        XCTAssertNil(played.actions[EvdevCode.mode], "the pause menu has its button")
        XCTAssertEqual(played.actions[EvdevCode.rightThumb], .fastForwardHold)
        var state = GamepadState(mapping: played)
        state.apply(press(EvdevCode.select))
        XCTAssertEqual(state.buttons, [], "Select opens the menu instead")
        let readBack = try GamepadMapping.overrides(fromFileText: GamepadMapping.fileText(for: ["Pad": mapping]))
        XCTAssertEqual(readBack["Pad"]?.actions, mapping.actions)
        XCTAssertEqual(readBack["Pad"]?.buttons[EvdevCode.east], .b)
    }

    func testAnUnknownEntryNamesButtonsAndActions() {
        XCTAssertThrowsError(try GamepadMapping.overrides(fromFileText: #"{ "Pad": { "rewnd": "tl2" } }"#)) { error in
            XCTAssertEqual((error as? KeyMapFileError)?.line, 1)
            XCTAssertTrue((error as? KeyMapFileError)?.message.contains("unknown RetroPad button or action \"rewnd\"") ?? false, "\(error)")
        }
    }

    func testBindingAnActionOnAPadAndAButtonBackAgain() throws {
        let manager = GamepadManager(directory: URL(fileURLWithPath: "/nonexistent"))
        manager.usedButtons = Set(GameSystem.snes.buttons)
        let pad = ScriptedGamepad(name: "Pad")
        manager.attach(pad)
        manager.bind(code: EvdevCode.rightTrigger, to: .slowMotionHold, onPad: "Pad")
        pad.press(EvdevCode.rightTrigger)
        manager.poll(now: .now)
        XCTAssertEqual(manager.actions, [.slowMotionHold])
        XCTAssertEqual(manager.masks, [[]])
        manager.bind(code: EvdevCode.rightTrigger, to: .r2, onPad: "Pad")
        manager.poll(now: .now)
        XCTAssertEqual(manager.actions, [])
        XCTAssertEqual(manager.masks, [ButtonMask([.r2])])
        XCTAssertEqual(manager.takeLastButtonPress()?.code, EvdevCode.rightTrigger)
    }

    func testPlayerInputFiresOnceActionsOnPressAndHoldsTheHeldOnes() {
        let input = PlayerInput(system: .nes, keyMap: KeyMap.defaults(for: .nes), releaseEvents: true)
        let now = ContinuousClock.now
        XCTAssertEqual(input.takeGamepadActions([.rewind, .pauseMenu]), [.pauseMenu])
        XCTAssertTrue(input.isHeld(.rewind, now: now))
        XCTAssertEqual(input.takeGamepadActions([.rewind, .pauseMenu]), [], "still down: no second menu")
        XCTAssertEqual(input.takeGamepadActions([]), [])
        XCTAssertFalse(input.isHeld(.rewind, now: now))
        XCTAssertEqual(input.takeGamepadActions([.pauseMenu]), [.pauseMenu])
    }
}
