@testable import Render
import XCTest

final class ByteWriterTests: XCTestCase {
    /// Growing past the first allocation keeps every byte written before it, in order, and the
    /// digits and repeats land where they should.
    func testGrowingKeepsWhatWasWritten() {
        var writer = ByteWriter(capacity: 64)
        var expected: [UInt8] = []
        let digits = DecimalDigits()
        for round in 0..<300 {
            writer.reserve(40)
            writer.append(0x1B)
            writer.append(0x5B)
            digits.append(round * 37, to: &writer)
            writer.append(0x6D)
            expected += [0x1B, 0x5B] + Array(String(round * 37).utf8) + [0x6D]
            writer.append(0x20, repeating: round % 5)
            expected += [UInt8](repeating: 0x20, count: round % 5)
            writer.append(contentsOf: [0xE2, 0x96, 0x80])
            expected += [0xE2, 0x96, 0x80]
        }
        XCTAssertEqual(writer.count, expected.count)
        var copied: [UInt8] = [0x41]
        writer.copy(to: &copied)
        XCTAssertEqual(copied, [0x41] + expected)
        writer.removeAll()
        XCTAssertEqual(writer.count, 0)
        writer.reserve(1)
        writer.append(0x42)
        copied.removeAll()
        writer.copy(to: &copied)
        XCTAssertEqual(copied, [0x42])
    }
}
