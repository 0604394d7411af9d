import Foundation
import XCTest
import PhosphorKit
@testable import Input

final class GamepadTests: XCTestCase {
    func key(_ code: UInt16, _ value: Int32) -> GamepadEvent { GamepadEvent(type: 1, code: code, value: value) }
    func axis(_ code: UInt16, _ value: Int32) -> GamepadEvent { GamepadEvent(type: 3, code: code, value: value) }
    let sync = GamepadEvent(type: 0, code: 0, value: 0)

    /// An Xbox-style pad as the xpad driver describes it: sticks -32768...32767, triggers 0...1023, hat d-pad.
    let xboxAxes: [UInt16: AxisRange] = [
        EvdevCode.axisX: AxisRange(minimum: -32768, maximum: 32767, restValue: 0),
        EvdevCode.axisY: AxisRange(minimum: -32768, maximum: 32767, restValue: 0),
        EvdevCode.axisZ: AxisRange(minimum: 0, maximum: 1023, restValue: 0),
        EvdevCode.axisRZ: AxisRange(minimum: 0, maximum: 1023, restValue: 0),
        EvdevCode.hatX: AxisRange(minimum: -1, maximum: 1, restValue: 0),
        EvdevCode.hatY: AxisRange(minimum: -1, maximum: 1, restValue: 0),
    ]

    func testButtonsFollowTheRetroPadConvention() {
        var state = GamepadState(axes: xboxAxes)
        state.apply([key(EvdevCode.south, 1), key(EvdevCode.north, 1), key(EvdevCode.start, 1), sync])
        XCTAssertEqual(state.buttons, ButtonMask([.b, .x, .start]))
        state.apply([key(EvdevCode.south, 0), key(EvdevCode.east, 1), key(EvdevCode.west, 1), sync])
        XCTAssertEqual(state.buttons, ButtonMask([.a, .y, .x, .start]))
        state.apply([key(EvdevCode.leftShoulder, 1), key(EvdevCode.rightShoulder, 1), key(EvdevCode.select, 1)])
        XCTAssertTrue(state.buttons.isSuperset(of: ButtonMask([.l, .r, .select])))
        state.reset()
        XCTAssertEqual(state.buttons, [])
    }

    func testHatAndDpadButtons() {
        var state = GamepadState(axes: xboxAxes)
        state.apply([axis(EvdevCode.hatX, -1), axis(EvdevCode.hatY, 1)])
        XCTAssertEqual(state.buttons, ButtonMask([.left, .down]))
        state.apply([axis(EvdevCode.hatX, 0), axis(EvdevCode.hatY, 0), key(EvdevCode.dpadUp, 1)])
        XCTAssertEqual(state.buttons, ButtonMask([.up]))
    }

    func testStickDeadzoneAndTriggers() {
        var state = GamepadState(axes: xboxAxes)
        state.apply([axis(EvdevCode.axisX, 12000), axis(EvdevCode.axisY, -12000)])  // ~37%: inside the deadzone
        XCTAssertEqual(state.buttons, [])
        state.apply([axis(EvdevCode.axisX, 20000), axis(EvdevCode.axisY, -30000)])
        XCTAssertEqual(state.buttons, ButtonMask([.right, .up]))
        state.apply([axis(EvdevCode.axisX, -32768), axis(EvdevCode.axisY, 0)])
        XCTAssertEqual(state.buttons, ButtonMask([.left]))
        state.apply([axis(EvdevCode.axisX, 0), axis(EvdevCode.axisZ, 400), axis(EvdevCode.axisRZ, 1023)])
        XCTAssertEqual(state.buttons, ButtonMask([.r2]))
    }

    func testGenericJoystickStickCentredAtMidRange() {
        // Cheap USB pads: axes 0...255 resting at 127; ABS_Z there is a stick, not a trigger.
        let axes: [UInt16: AxisRange] = [
            EvdevCode.axisX: AxisRange(minimum: 0, maximum: 255, restValue: 127),
            EvdevCode.axisY: AxisRange(minimum: 0, maximum: 255, restValue: 127),
            EvdevCode.axisZ: AxisRange(minimum: 0, maximum: 255, restValue: 127),
        ]
        var state = GamepadState(axes: axes)
        XCTAssertEqual(state.buttons, [])
        state.apply([axis(EvdevCode.axisX, 0), axis(EvdevCode.axisY, 255), key(EvdevCode.joystickFirst + 9, 1)])
        XCTAssertEqual(state.buttons, ButtonMask([.left, .down, .start]))
    }

    func testDeviceClassification() {
        let pad = GamepadDeviceInfo(path: "/dev/input/event5", name: "Pad", keyCodes: [EvdevCode.south, EvdevCode.east],
                                    axes: [:])
        XCTAssertTrue(pad.isGamepad)
        let joystick = GamepadDeviceInfo(path: "", name: "USB Gamepad", keyCodes: [EvdevCode.joystickFirst],
                                         axes: xboxAxes)
        XCTAssertTrue(joystick.isGamepad)
        let keyboard = GamepadDeviceInfo(path: "", name: "AT keyboard", keyCodes: [1, 2, 30, 44], axes: [:])
        XCTAssertFalse(keyboard.isGamepad)
        let touchpad = GamepadDeviceInfo(path: "", name: "Touchpad", keyCodes: [EvdevCode.touch, 0x110],
                                         axes: xboxAxes)
        XCTAssertFalse(touchpad.isGamepad)
        let motion = GamepadDeviceInfo(path: "", name: "Motion Sensors", keyCodes: [], axes: xboxAxes)
        XCTAssertFalse(motion.isGamepad)
    }

    func testScannerListsEventFilesInNumericOrderAndSkipsNonDevices() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("input-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["event10", "event2", "event0", "mouse0", "js0", "eventX", "by-id"] {
            try Data("not a device".utf8).write(to: folder.appendingPathComponent(name))
        }
        XCTAssertEqual(GamepadScanner.eventDevicePaths(in: folder).map { URL(fileURLWithPath: $0).lastPathComponent },
                       ["event0", "event2", "event10"])
        // The real probe opens the plain files; the ioctls fail, so none is a device.
        let real = GamepadScanner.scan(directory: folder)
        XCTAssertEqual(real, GamepadScanner.ScanResult(gamepads: [], eventDeviceCount: 3, unreadableCount: 0))
        XCTAssertNil(real.notice)

        let denied = GamepadScanner.scan(directory: folder) { _ in .permissionDenied }
        XCTAssertEqual(denied.unreadableCount, 3)
        XCTAssertTrue(denied.notice?.contains("'input' group") == true)

        let pad = GamepadDeviceInfo(path: "", name: "Pad", keyCodes: [EvdevCode.south], axes: [:])
        let mixed = GamepadScanner.scan(directory: folder) { path in
            path.hasSuffix("event2") ? .device(pad) : .permissionDenied
        }
        XCTAssertEqual(mixed.gamepads, [pad])
        XCTAssertNil(mixed.notice)

        let manager = GamepadManager(directory: folder)
        manager.poll(now: .now)
        XCTAssertEqual(manager.padNames, [])
        XCTAssertEqual(manager.buttons(port: 0), [])
        XCTAssertNil(manager.notice)
    }

    func testMissingInputDirectoryIsHarmless() {
        let manager = GamepadManager(directory: URL(fileURLWithPath: "/nonexistent-\(UUID())"))
        manager.poll(now: .now)
        XCTAssertEqual(manager.masks, [])
        XCTAssertNil(manager.notice)
    }

    func testOverridesByDeviceName() throws {
        let overrides = try GamepadMapping.overrides(fromFileText: """
        {
          "8BitDo SN30 Pro": { "a": "south", "b": "east", "start": "0x13b" }
        }
        """)
        let mapping = try XCTUnwrap(overrides["8BitDo SN30 Pro"])
        var state = GamepadState(mapping: mapping)
        state.apply([key(EvdevCode.south, 1)])
        XCTAssertEqual(state.buttons, ButtonMask([.a]))
        state.apply([key(EvdevCode.south, 0), key(EvdevCode.east, 1), key(EvdevCode.north, 1)])
        XCTAssertEqual(state.buttons, ButtonMask([.b, .x]))

        XCTAssertThrowsError(try GamepadMapping.overrides(fromFileText: "{\n  \"Pad\": {\n    \"a\": \"souht\"\n  }\n}")) { error in
            XCTAssertEqual((error as? KeyMapFileError)?.line, 3)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pads-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("gamepads.json")
        try Data("{ \"Pad\": { \"q\": \"south\" } }".utf8).write(to: file)
        let loaded = GamepadMapping.loadOverrides(from: file)
        XCTAssertEqual(loaded.overrides, [:])
        XCTAssertEqual(loaded.problem?.hasPrefix("\(file.path):1: Pad: unknown RetroPad button or action \"q\""), true)
    }
}
