import Foundation
import XCTest
@testable import Emulation
import PhosphorKit
import TestSupport

/// Rewind on the NES test cartridge in nestopia: going back shows exactly the frames shown
/// before, and playing on from there with the same input is exactly a straight run.
final class RewindTests: XCTestCase {
    /// The scripted input: buttons change every few frames, so the picture does (the cartridge
    /// draws every held button).
    private func buttons(at frame: Int) -> ButtonMask {
        let cycle: [[JoypadButton]] = [[], [.a], [.a, .right], [.b], [], [.start, .up], [.select], [.left, .down]]
        return ButtonMask(cycle[(frame / 7) % cycle.count])
    }

    /// The hashes of `frames` frames played from the start with `buttons(at:)`.
    private func straightRun(_ game: RealCoreTimeline, frames: Int) throws -> [UInt64] {
        var straight: [UInt64] = []
        for frame in 0..<frames { straight.append(try game.step(buttons(at: frame))) }
        XCTAssertGreaterThan(Set(straight).count, 5, "the picture changes with the input")
        return straight
    }

    func testRewindShowsTheEarlierFramesAndPlayingOnMatchesAStraightRun() throws {
        let game = try RealCoreTimeline(.nes, "Roms/nes/phosphor-test.nes")
        defer { game.stop() }
        let straight = try straightRun(game, frames: 300)
        XCTAssertEqual(game.thread.currentStatus.rewindSeconds, 300 / 60.1, accuracy: 0.1)

        // 120 rewind steps: each shows the frame before the last one shown.
        for back in 1...120 {
            let shownFrame = 299 - back
            // The frame is run again to be shown: with the buttons it had then.
            game.thread.input.set(buttons(at: shownFrame), port: 0)
            XCTAssertTrue(try game.thread.stepBack())
            XCTAssertEqual(try game.shownHash(), straight[shownFrame], "rewind step \(back) shows frame \(shownFrame)")
        }
        XCTAssertEqual(try game.thread.perform { $0.frameCount }, 180)

        // Playing on with the same input reproduces the straight run, and goes past it the same.
        for frame in 180..<300 {
            XCTAssertEqual(try game.step(buttons(at: frame)), straight[frame], "frame \(frame) after the rewind")
        }
        // And rewinding again still works from the new timeline.
        game.thread.input.set(buttons(at: 298), port: 0)
        XCTAssertTrue(try game.thread.stepBack())
        XCTAssertEqual(try game.shownHash(), straight[298])
    }

    /// mGBA's states are taken with the size it gave up to 30 frames before (`StateSizeCheck`),
    /// not a size asked each frame: going back still shows exactly the frames shown before.
    func testRewindOnMGBAWithTheStateSizeAskedEvery30FramesShowsTheEarlierFrames() throws {
        let game = try RealCoreTimeline(.gba, "Roms/gba/phosphor-test.gba")
        defer { game.stop() }
        let straight = try straightRun(game, frames: 100)
        for back in 1...70 {
            let shownFrame = 99 - back
            game.thread.input.set(buttons(at: shownFrame), port: 0)
            XCTAssertTrue(try game.thread.stepBack())
            XCTAssertEqual(try game.shownHash(), straight[shownFrame], "rewind step \(back) shows frame \(shownFrame)")
        }
        for frame in 30..<100 {
            XCTAssertEqual(try game.step(buttons(at: frame)), straight[frame], "frame \(frame) after the rewind")
        }
    }

    func testAStateLoadOrResetEmptiesTheRing() throws {
        let game = try RealCoreTimeline(.nes, "Roms/nes/phosphor-test.nes")
        defer { game.stop() }
        for frame in 0..<30 { _ = try game.step(buttons(at: frame)) }
        XCTAssertGreaterThan(game.thread.currentStatus.rewindBytes, 0)
        try game.thread.clearRewind()
        XCTAssertEqual(game.thread.currentStatus.rewindBytes, 0)
        XCTAssertEqual(game.thread.currentStatus.rewindSeconds, 0)
        XCTAssertFalse(try game.thread.stepBack(), "nothing to go back to")
    }

    func testMemoryStaysUnderTheBudgetWithTheRingFull() throws {
        // The NES cartridge's states take about 100 bytes a frame in the ring (XOR deltas, 16 to a
        // Zstandard call): a small budget fills early in the slice; the full run is ten minutes of
        // play (36 000 frames, unthrottled) whose first 13 000 or so fill 1.25 MB.
        let budget = LongTests.size(slice: 96 << 10, full: 1280 << 10)
        let frames = LongTests.size(slice: 3000, full: 36_000)
        let game = try RealCoreTimeline(.nes, "Roms/nes/phosphor-test.nes", rewind: RewindSettings(budgetBytes: budget))
        defer { game.stop() }
        let residentBefore = try Self.residentBytes()
        var peak = 0
        var filledAt: Int?
        for frame in 0..<frames {
            game.thread.input.set(buttons(at: frame), port: 0)
            try game.thread.step()
            let status = game.thread.currentStatus
            peak = max(peak, status.rewindBytes)
            if filledAt == nil, status.rewindSeconds < Double(frame - 60) / 60.1 { filledAt = frame }
        }
        // Half the run or less to fill: the rest is spent full, dropping the oldest states.
        let filledFrame = try XCTUnwrap(filledAt, "the ring filled and dropped its oldest states")
        XCTAssertLessThan(filledFrame, frames / 2, "the ring filled at frame \(filledFrame) of \(frames)")
        XCTAssertLessThanOrEqual(peak, budget)
        XCTAssertGreaterThan(peak, budget * 9 / 10, "the ring uses its budget")
        XCTAssertGreaterThan(game.thread.currentStatus.rewindSeconds, 1)
        XCTAssertNil(game.thread.currentStatus.timelineProblem)
        // What the ring counts is what the process holds: it grew by the budget at most (and a
        // few megabytes of allocator slack).
        let growth = try Self.residentBytes() - residentBefore
        XCTAssertLessThan(growth, budget + (8 << 20), "resident memory grew by \(growth) bytes")
    }

    /// VmRSS from /proc/self/status.
    private static func residentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kilobytes = try XCTUnwrap(Int(line.split(separator: " ")[1]))
        return kilobytes * 1024
    }
}
