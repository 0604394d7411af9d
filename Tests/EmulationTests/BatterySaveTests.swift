import Foundation
import XCTest
@testable import Emulation

final class BatterySaveTests: XCTestCase {
    /// A write that failed (here: the save folder's path is blocked by a file, which stops even
    /// root) is tried again on the next check, though the game has not touched its RAM since.
    func testAFailedWriteIsRetriedWithoutNewChanges() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("battery-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let blocked = root.appendingPathComponent("saves")
        try Data("not a folder".utf8).write(to: blocked)
        let file = blocked.appendingPathComponent("game.srm")

        let ram = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 8)
        defer { ram.deallocate() }
        ram.initializeMemory(as: UInt8.self, repeating: 0, count: 16)
        let battery = BatterySave(file: file)
        battery.attach(data: ram, size: 16)
        try battery.loadFromDisk()
        ram.storeBytes(of: 0x42, toByteOffset: 3, as: UInt8.self)  // the game saves
        battery.writeNow()
        let failure = try XCTUnwrap(battery.writeFailure.value, "the blocked folder makes the write fail")
        XCTAssertFalse(failure.contains("Error Domain"), "one readable line: \(failure)")
        XCTAssertTrue(failure.hasPrefix("battery save: game.srm not saved: "), failure)

        try FileManager.default.removeItem(at: blocked)  // the disk is fine again
        battery.writeNow()  // no new change to the RAM
        XCTAssertNil(battery.writeFailure.value)
        XCTAssertEqual(try Data(contentsOf: file)[3], 0x42, "the save reached the disk on the retry")
    }
}
