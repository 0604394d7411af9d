import XCTest
@testable import PhosphorKit

/// RetroArch's RASTATE and RZIP containers: the core's bytes come out whole, damage is one line.
final class RetroArchStateTests: XCTestCase {
    private let core: [UInt8] = (0..<70_001).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 7) }

    private func littleEndian32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    func testBytesThatAreNoContainerComeBackAsTheyAre() throws {
        XCTAssertEqual(try RetroArchState.coreBytes(from: core), core)
        XCTAssertFalse(RetroArchState.isContainer(core))
    }

    func testPlainAndCompressedContainersGiveTheCoreBytes() throws {
        let plain = RetroArchState.container(for: core)
        XCTAssertTrue(plain.starts(with: Array("RASTATE\u{01}MEM ".utf8)))
        XCTAssertEqual(plain.count % 8, 0, "blocks are padded to 8 bytes")
        XCTAssertEqual(try RetroArchState.coreBytes(from: plain), core)
        let compressed = try RetroArchState.compressedContainer(for: core, chunkSize: 16_384)
        XCTAssertTrue(compressed.starts(with: Array("#RZIPv\u{01}#".utf8)))
        XCTAssertLessThan(compressed.count, plain.count)
        XCTAssertEqual(try RetroArchState.coreBytes(from: compressed), core)
    }

    func testBlocksBeforeTheMemoryBlockAreSkippedPaddedOrNot() throws {
        for padded in [true, false] {
            var bytes = Array("RASTATE".utf8) + [1]
            let achievements: [UInt8] = [1, 2, 3, 4, 5]  // an odd length: padding matters
            bytes += Array("ACHV".utf8) + littleEndian32(achievements.count) + achievements
            if padded { while bytes.count % 8 != 0 { bytes.append(0) } }
            bytes += Array("MEM ".utf8) + littleEndian32(core.count) + core
            bytes += Array("END ".utf8) + littleEndian32(0)
            XCTAssertEqual(try RetroArchState.coreBytes(from: bytes), core, "padded: \(padded)")
        }
    }

    func testDamagedContainersAreRefusedInOneLine() throws {
        let compressed = try RetroArchState.compressedContainer(for: core)
        var flipped = compressed
        flipped[40] ^= 0xFF
        let cases: [(String, [UInt8])] = [
            ("cut short", Array(compressed.prefix(compressed.count - 10))),
            ("damaged chunk", flipped),
            ("header only", Array(compressed.prefix(12))),
            ("no MEM block", Array("RASTATE".utf8) + [1] + Array("END ".utf8) + littleEndian32(0)),
            ("block past the end", Array("RASTATE".utf8) + [1] + Array("MEM ".utf8) + littleEndian32(1000) + [1, 2, 3]),
        ]
        for (name, bytes) in cases {
            XCTAssertThrowsError(try RetroArchState.coreBytes(from: bytes), name) { error in
                let text = "\(error)"
                XCTAssertTrue(text.hasPrefix("is a RetroArch save state, but "), "\(name): \(text)")
                XCTAssertFalse(text.contains("\n"), name)
            }
        }
    }
}
