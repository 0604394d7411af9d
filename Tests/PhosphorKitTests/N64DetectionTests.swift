import XCTest
@testable import PhosphorKit

/// Nintendo 64 ROMs by header in the three byte orders dumps come in, by extension and sniffed.
final class N64DetectionTests: XCTestCase {
    /// A 4 KB image (header and boot code) in big-endian order with `title` at 0x20.
    static func bigEndianImage(title: String) -> [UInt8] {
        var rom = [UInt8](repeating: 0, count: 0x1000)
        rom[0..<4] = [0x80, 0x37, 0x12, 0x40]
        for (index, byte) in title.utf8.enumerated() { rom[0x20 + index] = byte }
        for offset in 0x40..<0x1000 { rom[offset] = UInt8(truncatingIfNeeded: offset * 7) }
        return rom
    }

    /// The same bytes as a `.v64` (16-bit pairs swapped) or `.n64` (32-bit words reversed) dump.
    static func reordered(_ rom: [UInt8], swapping group: Int) -> [UInt8] {
        stride(from: 0, to: rom.count, by: group).flatMap { rom[$0..<$0 + group].reversed() }
    }

    func testAllThreeByteOrdersByExtension() throws {
        let z64 = Self.bigEndianImage(title: "PHOSPHOR TEST 64")
        let v64 = Self.reordered(z64, swapping: 2)
        let n64 = Self.reordered(z64, swapping: 4)
        XCTAssertEqual(Array(v64.prefix(4)), [0x37, 0x80, 0x40, 0x12])
        XCTAssertEqual(Array(n64.prefix(4)), [0x40, 0x12, 0x37, 0x80])
        for (name, bytes) in [("game.z64", z64), ("game.v64", v64), ("game.n64", n64)] {
            let info = try RomInspector.inspect(fileName: name, bytes: bytes, fileSize: bytes.count)
            XCTAssertEqual(info, RomInfo(system: .n64, title: "PHOSPHOR TEST 64"), name)
        }
        // A dump named for another of the three orders is still the Nintendo 64 (cores read all three).
        XCTAssertEqual(try RomInspector.inspect(fileName: "swapped.z64", bytes: v64, fileSize: v64.count).system, .n64)
    }

    func testSniffedWithoutAnExtension() throws {
        let z64 = Self.bigEndianImage(title: "SNIFFED")
        for bytes in [z64, Self.reordered(z64, swapping: 2), Self.reordered(z64, swapping: 4)] {
            XCTAssertEqual(try RomInspector.inspect(fileName: "dump.bin", bytes: bytes, fileSize: bytes.count),
                           RomInfo(system: .n64, title: "SNIFFED"))
        }
    }

    func testBadAndShortFilesAreRefusedWithOneLine() {
        var wrong = Self.bigEndianImage(title: "X")
        wrong[0] = 0x81
        XCTAssertThrowsError(try RomInspector.inspect(fileName: "bad.z64", bytes: wrong, fileSize: wrong.count)) { error in
            XCTAssertEqual("\(error)", "bad.z64: not a Nintendo 64 ROM: no 80 37 12 40 header word in any byte order (.z64, .v64 or .n64)")
        }
        let short = Array(Self.bigEndianImage(title: "X").prefix(0x40))
        XCTAssertThrowsError(try RomInspector.inspect(fileName: "short.n64", bytes: short, fileSize: short.count)) { error in
            XCTAssertEqual(error as? RomInspectionError, .tooSmall(file: "short.n64", system: .n64, size: 0x40, needed: 0x1000))
        }
        XCTAssertEqual(GameSystem.guess(fromExtension: "V64"), .n64)
    }
}
