import Foundation
import XCTest
import PhosphorKit
@testable import Input

/// The analog sticks (RETRO_DEVICE_ANALOG) from a gamepad's axes and from the keyboard.
final class AnalogInputTests: XCTestCase {
    func axis(_ code: UInt16, _ value: Int32) -> GamepadEvent { GamepadEvent(type: 3, code: code, value: value) }

    /// An Xbox-style pad: both sticks -32768...32767 (left X/Y, right RX/RY), triggers on Z/RZ.
    let xboxAxes: [UInt16: AxisRange] = [
        EvdevCode.axisX: AxisRange(minimum: -32768, maximum: 32767, restValue: 0),
        EvdevCode.axisY: AxisRange(minimum: -32768, maximum: 32767, restValue: 0),
        EvdevCode.axisRX: AxisRange(minimum: -32768, maximum: 32767, restValue: 0),
        EvdevCode.axisRY: AxisRange(minimum: -32768, maximum: 32767, restValue: 0),
        EvdevCode.axisZ: AxisRange(minimum: 0, maximum: 1023, restValue: 0),
        EvdevCode.axisRZ: AxisRange(minimum: 0, maximum: 1023, restValue: 0),
    ]

    func testGamepadSticksWithDeadZone() {
        var state = GamepadState(axes: xboxAxes)
        XCTAssertEqual(state.stick(.left), .centre)
        // Inside the 15 % dead zone: centred.
        state.apply([axis(EvdevCode.axisX, 3000), axis(EvdevCode.axisY, -3000)])
        XCTAssertEqual(state.stick(.left), .centre)
        // Full deflection reads 0x7FFF (up is negative y, as libretro has it).
        state.apply([axis(EvdevCode.axisX, 32767), axis(EvdevCode.axisY, 0)])
        XCTAssertEqual(state.stick(.left), StickPosition(x: 0x7FFF, y: 0))
        state.apply([axis(EvdevCode.axisX, 0), axis(EvdevCode.axisY, -32768)])
        XCTAssertEqual(state.stick(.left), StickPosition(x: 0, y: -0x7FFF))
        // Half way out: the dead zone's edge is 0, so (0.5 - 0.15) / 0.85 of full.
        state.apply([axis(EvdevCode.axisX, 16384), axis(EvdevCode.axisY, 0)])
        let normalized: Double = (16384.0 + 32768.0) / 65535.0 * 2.0 - 1.0
        let expected: Double = (normalized - 0.15) / 0.85 * 32767.0
        XCTAssertEqual(Double(state.stick(.left).x), expected, accuracy: 1)
        XCTAssertEqual(state.stick(.left).y, 0)
        // The right stick on RX/RY; the triggers on Z/RZ stay triggers (L2/R2), not a stick.
        state.apply([axis(EvdevCode.axisRX, -32768), axis(EvdevCode.axisRY, 32767), axis(EvdevCode.axisZ, 1023)])
        // Both axes at their ends: the radial reading stops at full deflection (0x7FFF / sqrt 2 each).
        XCTAssertEqual(state.stick(.right), StickPosition(x: -23170, y: 23170))
        XCTAssertTrue(state.buttons.contains(.l2))
    }

    /// A DirectInput-style pad puts its right stick on Z/RZ, centred at 128 of 0...255.
    func testRightStickOnZAndRZ() {
        let axes: [UInt16: AxisRange] = [
            EvdevCode.axisX: AxisRange(minimum: 0, maximum: 255, restValue: 128),
            EvdevCode.axisY: AxisRange(minimum: 0, maximum: 255, restValue: 128),
            EvdevCode.axisZ: AxisRange(minimum: 0, maximum: 255, restValue: 128),
            EvdevCode.axisRZ: AxisRange(minimum: 0, maximum: 255, restValue: 128),
        ]
        var state = GamepadState(axes: axes)
        XCTAssertEqual(state.stick(.right), .centre, "resting at 128 is inside the dead zone")
        state.apply([axis(EvdevCode.axisZ, 255), axis(EvdevCode.axisRZ, 0)])
        state.apply([axis(EvdevCode.axisRZ, 128)])
        XCTAssertEqual(state.stick(.right).x, 0x7FFF)
        XCTAssertEqual(Double(state.stick(.right).y), 0, accuracy: 200, "128 is half a step off 127.5, the true centre")
    }

    func testN64KeysPushTheSticksFullOrHalfWay() {
        let map = KeyMap.defaults(for: .n64)
        XCTAssertEqual(map.conflicts, [])
        let input = PlayerInput(system: .n64, keyMap: map, releaseEvents: true)
        var now = ContinuousClock.now
        func press(_ key: Key, shift: Bool = false) {
            _ = input.handle(.key(KeyEvent(key, modifiers: shift ? .shift : [], kind: .press)), now: now)
        }
        func release(_ key: Key) { _ = input.handle(.key(KeyEvent(key, kind: .release)), now: now) }

        press(.up)
        XCTAssertEqual(input.stick(.left, port: 0, now: now), StickPosition(x: 0, y: -0x7FFF), "Up: the stick all the way up")
        press(.right, shift: true)
        XCTAssertEqual(input.stick(.left, port: 0, now: now), StickPosition(x: 0x3FFF, y: -0x7FFF), "Shift+Right: half right")
        release(.up)
        release(.right)
        now += .seconds(1)  // past the shortest press a game sees
        XCTAssertEqual(input.stick(.left, port: 0, now: now), .centre)
        XCTAssertEqual(input.buttons(port: 0, now: now), [], "the stick keys press no buttons")

        // The C buttons are the right stick.
        press(Key.character("j"))
        XCTAssertEqual(input.stick(.right, port: 0, now: now), StickPosition(x: -0x7FFF, y: 0), "J: C left")
        release(Key.character("j"))
        now += .seconds(1)

        // With no stick key held, the gamepad's stick shows through.
        input.gamepadSticks = [[StickPosition(x: 1234, y: -42), .centre]]
        XCTAssertEqual(input.stick(.left, port: 0, now: now), StickPosition(x: 1234, y: -42))
        press(.down)
        XCTAssertEqual(input.stick(.left, port: 0, now: now), StickPosition(x: 0, y: 0x7FFF), "a held key wins")
    }

    /// A direction with two keys held pushes half way only when both were pressed with Shift,
    /// and a key bound to a button and a direction (a user's own map) does both.
    func testTwoKeysOnOneDirectionAndOneKeyOnTwoTargets() {
        var map = KeyMap.defaults(for: .n64)
        map.setKeys([.right, .character("g")], for: .stick(port: 0, .leftRight))
        map.setKeys([.character("g")], for: .button(port: 0, .a))
        let input = PlayerInput(system: .n64, keyMap: map, releaseEvents: true)
        let now = ContinuousClock.now
        func press(_ key: Key, shift: Bool) {
            _ = input.handle(.key(KeyEvent(key, modifiers: shift ? .shift : [], kind: .press)), now: now)
        }
        press(.right, shift: true)
        XCTAssertEqual(input.stick(.left, port: 0, now: now), StickPosition(x: 0x3FFF, y: 0))
        press(.character("g"), shift: false)
        XCTAssertEqual(input.stick(.left, port: 0, now: now), StickPosition(x: 0x7FFF, y: 0), "one key without Shift: all the way")
        XCTAssertEqual(input.buttons(port: 0, now: now), ButtonMask([.a]))
        XCTAssertEqual(input.buttons(port: 1, now: now), [], "port 1 has none of these keys")
        press(.character("g"), shift: true)
        XCTAssertEqual(input.stick(.left, port: 0, now: now), StickPosition(x: 0x3FFF, y: 0), "both with Shift: half way")
        XCTAssertEqual(input.stick(.right, port: 0, now: now), .centre)
    }

    func testStickBindingsInKeyMapFiles() throws {
        let defaults = KeyMap.defaults(for: .n64)
        var reread = KeyMap(system: .n64, players: [[:]], actions: [:])
        try reread.apply(fileText: defaults.fileText)
        XCTAssertEqual(reread, defaults, "the written file reads back as the same map")
        XCTAssertTrue(defaults.fileText.contains("\"right-stick-up\": [\"i\"]"), defaults.fileText)

        // Any system's file may bind a stick (for a core that reads one).
        var snes = KeyMap.defaults(for: .snes)
        try snes.apply(fileText: #"{"player1": {"left-stick-left": ["kp4"]}}"#)
        XCTAssertEqual(snes.keys(for: .stick(port: 0, .leftLeft)), [Key(name: "kp4")!])
        XCTAssertEqual(snes.targets(for: Key(name: "kp4")!), [.stick(port: 0, .leftLeft)])
    }
}
