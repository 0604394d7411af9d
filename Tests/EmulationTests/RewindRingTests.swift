import XCTest
@testable import Emulation
import PhosphorKit
import TestSupport

/// The rewind ring on its own: states come back byte for byte, newest first, whatever their
/// sizes; the budget holds; both compressors round-trip.
final class RewindRingTests: XCTestCase {
    /// A state that changes a little from frame to frame, as a game's does.
    private func state(_ frame: Int, size: Int = 4096) -> [UInt8] {
        var generator = SeededGenerator(seed: 7)
        var bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for index in 0..<16 { bytes[(frame * 37 + index * 101) % size] = UInt8(truncatingIfNeeded: frame + index) }
        withUnsafeBytes(of: UInt64(frame).littleEndian) { bytes.replaceSubrange(0..<8, with: $0) }
        return bytes
    }

    func testStatesComeBackNewestFirstExactly() throws {
        let ring = RewindRing(budget: 1 << 20)
        for frame in 0..<50 { try ring.push(state(frame), frame: UInt64(frame)) }
        XCTAssertEqual(ring.count, 50)
        XCTAssertEqual(ring.framesHeld, 49)
        for frame in (0..<50).reversed() {
            let newest = try XCTUnwrap(ring.newest)
            XCTAssertEqual(newest.frame, UInt64(frame))
            XCTAssertEqual(newest.bytes, state(frame), "frame \(frame)")
            try ring.dropNewest()
        }
        XCTAssertEqual(ring.count, 0)
        XCTAssertNil(ring.newest)
    }

    func testStatesOfChangingSizesRoundTrip() throws {
        // nestopia's states grow and shrink with what the game does.
        let ring = RewindRing(budget: 1 << 20)
        let sizes = [3000, 3100, 2900, 2900, 3500, 100, 4000]
        for (frame, size) in sizes.enumerated() { try ring.push(state(frame, size: size), frame: UInt64(frame)) }
        for (frame, size) in sizes.enumerated().reversed() {
            XCTAssertEqual(ring.newest?.bytes, state(frame, size: size))
            try ring.dropNewest()
        }
    }

    func testTheOldestGoWhenOverBudgetAndTheRestStayExact() throws {
        let budget = 64 << 10
        let ring = RewindRing(budget: budget)
        for frame in 0..<2000 {
            try ring.push(state(frame), frame: UInt64(frame))
            XCTAssertLessThanOrEqual(ring.usedBytes, budget)
        }
        let oldest = try XCTUnwrap(ring.oldestFrame)
        XCTAssertGreaterThan(oldest, 0, "the oldest states were dropped")
        XCTAssertGreaterThan(ring.count, 10, "deltas of small changes are small")
        while ring.count > 1 { try ring.dropNewest() }
        XCTAssertEqual(ring.newest?.frame, oldest)
        XCTAssertEqual(ring.newest?.bytes, state(Int(oldest)))
    }

    func testAStateLargerThanTheBudgetIsNotKept() throws {
        let ring = RewindRing(budget: 1000)
        try ring.push(state(0), frame: 0)
        XCTAssertEqual(ring.count, 0)
        XCTAssertEqual(ring.usedBytes, 0)
    }

    func testBothCompressorsRoundTripAndRefuseDamage() throws {
        let compressors: [any StateCompressor] = [LZ4Compressor(), LZ4Compressor(acceleration: 8), ZstdCompressor(level: 1),
                                                  ZstdCompressor(level: -5)]
        let source = state(3, size: 20_000) + [UInt8](repeating: 0, count: 30_000)
        for compressor in compressors {
            let compressed = try source.withUnsafeBytes { try compressor.compress($0) }
            XCTAssertLessThan(compressed.count, source.count, compressor.name)
            var back = [UInt8](repeating: 0, count: source.count)
            try back.withUnsafeMutableBytes { try compressor.decompress(compressed, into: $0) }
            XCTAssertEqual(back, source, compressor.name)
            var short = [UInt8](repeating: 0, count: source.count - 1)
            XCTAssertThrowsError(try short.withUnsafeMutableBytes { try compressor.decompress(compressed, into: $0) },
                                 compressor.name) { error in
                XCTAssertTrue("\(error)".contains(compressor is LZ4Compressor ? "LZ4_decompress_safe" : "ZSTD_decompressDCtx"),
                              "\(error)")
            }
        }
    }
}
