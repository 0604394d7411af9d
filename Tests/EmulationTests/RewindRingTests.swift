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

    func testGoingBackIntoACompressedBlockAndPlayingOnKeepsEveryStateExact() throws {
        // 40 states: two compressed blocks of 16 deltas and an open one. Going back 30 reopens
        // the first block's newest deltas; playing on from there (a new timeline) adds to it.
        let ring = RewindRing(budget: 1 << 20)
        for frame in 0..<40 { try ring.push(state(frame), frame: UInt64(frame)) }
        for _ in 0..<30 { try ring.dropNewest() }
        XCTAssertEqual(ring.newest?.frame, 9)
        XCTAssertEqual(ring.newest?.bytes, state(9))
        for frame in 10..<60 { try ring.push(state(frame + 1000), frame: UInt64(frame)) }
        XCTAssertEqual(ring.count, 60)
        for frame in (0..<60).reversed() {
            XCTAssertEqual(ring.newest?.frame, UInt64(frame))
            XCTAssertEqual(ring.newest?.bytes, state(frame < 10 ? frame : frame + 1000), "frame \(frame)")
            try ring.dropNewest()
        }
        XCTAssertEqual(ring.count, 0)
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

    func testStatesSerializedIntoTheSpareBufferComeBackExactly() throws {
        // The core writes into the buffer the ring hands it (the newest but one, reused): what
        // was handed out before stays as it was, and sizes may change from one push to the next.
        let ring = RewindRing(budget: 1 << 20)
        let sizes = [4096, 4096, 4000, 4100, 4100, 8, 4096]
        var handedOut: [[UInt8]] = []
        for (frame, size) in sizes.enumerated() {
            try ring.push(frame: UInt64(frame)) { buffer in
                buffer = Array(buffer.prefix(size)) + [UInt8](repeating: 0xEE, count: max(size - buffer.count, 0))
                let wanted = state(frame, size: size)
                for index in 0..<size { buffer[index] = wanted[index] }
            }
            handedOut.append(try XCTUnwrap(ring.newest?.bytes))
        }
        for (frame, size) in sizes.enumerated() { XCTAssertEqual(handedOut[frame], state(frame, size: size), "frame \(frame)") }
        for (frame, size) in sizes.enumerated().reversed() {
            XCTAssertEqual(ring.newest?.frame, UInt64(frame))
            XCTAssertEqual(ring.newest?.bytes, state(frame, size: size), "frame \(frame)")
            try ring.dropNewest()
        }
    }

    func testAFailedSerializationLeavesTheRingAsItWas() throws {
        struct Refused: Error {}
        let ring = RewindRing(budget: 1 << 20)
        try ring.push(state(0), frame: 0)
        try ring.push(state(1), frame: 1)
        let used = ring.usedBytes
        XCTAssertThrowsError(try ring.push(frame: 2) { buffer in
            buffer = [UInt8](repeating: 1, count: 10)
            throw Refused()
        })
        XCTAssertEqual(ring.count, 2)
        XCTAssertEqual(ring.usedBytes, used)
        XCTAssertEqual(ring.newest?.frame, 1)
        XCTAssertEqual(ring.newest?.bytes, state(1))
        try ring.dropNewest()
        XCTAssertEqual(ring.newest?.bytes, state(0))
    }

    func testAnUnchangedStateStoresNoBytes() throws {
        // A state like the one after it is a delta of no runs: only its record counts.
        let ring = RewindRing(budget: 1 << 20)
        for frame in 0..<10 { try ring.push(state(0), frame: UInt64(frame)) }
        XCTAssertEqual(ring.count, 10)
        XCTAssertEqual(ring.usedBytes, 4096 + 9 * RewindRing.entryOverhead)
        for frame in (0..<10).reversed() {
            XCTAssertEqual(ring.newest?.frame, UInt64(frame))
            XCTAssertEqual(ring.newest?.bytes, state(0))
            try ring.dropNewest()
        }
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
