import XCTest
@testable import Input
@testable import PhosphorKit

/// Pad buttons rebound in the key-map editor are written to gamepads.json and read back the same.
final class GamepadMappingFileTests: XCTestCase {
    func testBindingWritesAFileThatReadsBackTheSameMapping() throws {
        let manager = GamepadManager(directory: URL(fileURLWithPath: "/nonexistent"))
        manager.bind(code: EvdevCode.south, to: .a, onPad: "8BitDo SN30 Pro")
        manager.bind(code: 0x2C0, to: .start, onPad: "8BitDo SN30 Pro")
        let mapping = try XCTUnwrap(manager.overrides["8BitDo SN30 Pro"])
        XCTAssertEqual(mapping.buttons[EvdevCode.south], .a)
        XCTAssertFalse(mapping.buttons.contains { $0.key != EvdevCode.south && $0.value == .a }, "A comes from one button only")
        let text = try GamepadMapping.fileText(for: manager.overrides)
        XCTAssertTrue(text.contains("\"a\" : \"south\""), text)
        XCTAssertTrue(text.contains("\"start\" : \"0x2c0\""), text)
        let readBack = try GamepadMapping.overrides(fromFileText: text)
        XCTAssertEqual(readBack["8BitDo SN30 Pro"]?.buttons[EvdevCode.south], .a)
        XCTAssertEqual(readBack["8BitDo SN30 Pro"]?.buttons[0x2C0], .start)
        XCTAssertEqual(readBack["8BitDo SN30 Pro"]?.buttons.filter { $0.value == .a }.count, 1)
        XCTAssertNil(manager.takeLastButtonPress(), "no pad, no presses")
    }
}
