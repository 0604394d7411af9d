import XCTest
@testable import Emulation
import PhosphorKit
import TestSupport

/// The rewind ring's delta format on its own: the runs rebuild the older state byte for byte
/// whatever the two sizes, an unchanged state is no runs at all, and damaged runs are refused.
final class XORDeltaTests: XCTestCase {
    private func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    private func encode(older: [UInt8], newer: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0xAA, count: XORDelta.bound(olderCount: older.count))
        let written = older.withUnsafeBytes { a in
            newer.withUnsafeBytes { b in output.withUnsafeMutableBytes { XORDelta.encode(older: a, newer: b, into: $0) } }
        }
        return Array(output[0..<written])
    }

    /// The older state rebuilt as the ring does: the newer one cut or padded to the older size,
    /// then the runs applied.
    private func rebuild(newer: [UInt8], olderCount: Int, runs: [UInt8]) throws -> [UInt8] {
        var target = Array(newer.prefix(olderCount)) + [UInt8](repeating: 0, count: max(olderCount - newer.count, 0))
        try runs.withUnsafeBytes { encoded in try target.withUnsafeMutableBytes { try XORDelta.apply(encoded, to: $0) } }
        return target
    }

    func testRunsRebuildTheOlderStateForAnySizes() throws {
        let sizes = [0, 1, 7, 8, 9, 63, 64, 65, 100, 1000, 4099]
        var seed: UInt64 = 1
        for olderCount in sizes {
            for newerCount in sizes {
                seed += 1
                let older = randomBytes(olderCount, seed: seed)
                // The newer state: the older one with a few bytes changed, at the start, the
                // middle and the last byte (the edges of the word loop), cut or grown.
                var newer = Array(older.prefix(newerCount)) + randomBytes(max(newerCount - olderCount, 0), seed: seed + 1000)
                for index in [0, newer.count / 2, newer.count - 1] where index >= 0 && index < newer.count {
                    newer[index] ^= 0x5A
                }
                let runs = encode(older: older, newer: newer)
                XCTAssertEqual(try rebuild(newer: newer, olderCount: olderCount, runs: runs), older,
                               "older \(olderCount) bytes, newer \(newerCount) bytes")
            }
        }
    }

    func testOnlyTheChangedWordsAreStored() throws {
        let older = randomBytes(51_220, seed: 9)
        XCTAssertEqual(encode(older: older, newer: older), [], "an unchanged state is no runs")
        var newer = older
        newer[10] ^= 1  // word 1
        newer[11] ^= 2  // word 1 again
        newer[40_001] ^= 4  // word 5000
        let runs = encode(older: older, newer: newer)
        // Two runs of one word: skip 1, 1 word, its 8 bytes; skip 4998 (two varint bytes), 1, 8 bytes.
        XCTAssertEqual(runs.count, 2 + 8 + 3 + 8)
        XCTAssertEqual(Array(runs[0..<2]), [1, 1])
        XCTAssertEqual(Array(runs[2..<10]), [0, 0, 1, 2, 0, 0, 0, 0])
        XCTAssertEqual(Array(runs[10..<13]), [0x86, 0x27, 1])  // 4998 = 0x1386
        XCTAssertEqual(try rebuild(newer: newer, olderCount: older.count, runs: runs), older)
    }

    func testRunsThatDoNotFitTheirStateAreRefused() throws {
        let older = randomBytes(100, seed: 3)
        var newer = older
        newer[99] ^= 0xFF
        let runs = encode(older: older, newer: newer)
        XCTAssertThrowsError(try rebuild(newer: newer, olderCount: 64, runs: runs), "a run past the end")
        XCTAssertThrowsError(try rebuild(newer: newer, olderCount: 100, runs: Array(runs.dropLast())), "a cut run")
        XCTAssertThrowsError(try rebuild(newer: newer, olderCount: 100, runs: [0x80]), "a cut varint") { error in
            XCTAssertTrue("\(error)".contains("XORDelta.apply"), "\(error)")
        }
    }
}
