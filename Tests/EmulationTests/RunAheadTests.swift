import Foundation
import XCTest
@testable import Emulation
import PhosphorKit

/// Run-ahead on the lag cartridge (`Tests/Fixtures/lagcart/lag-test.nes`: a press of A turns the screen red a
/// fixed number of frames later) in nestopia: N frames of run-ahead show the reaction N frames
/// sooner, and otherwise the very frames a plain run shows, N frames early.
final class RunAheadTests: XCTestCase {
    /// The frame A goes down (held from then on).
    private let pressFrame = 100
    private let frames = 160

    /// The shown frames' hashes of a run pressing A at `pressFrame` (`pressShift` frames sooner).
    private func run(_ mode: RunAheadMode, pressShift: Int = 0) throws -> [UInt64] {
        let game = try RealCoreTimeline(.nes, "Tests/Fixtures/lagcart/lag-test.nes", rewind: .off, runAhead: mode)
        defer { game.stop() }
        let hashes = try (0..<frames).map { frame in
            try game.step(frame >= pressFrame - pressShift ? ButtonMask([.a]) : [])
        }
        XCTAssertNil(game.thread.currentStatus.timelineProblem)
        return hashes
    }

    /// The first frame that shows red (the hash after the reaction never changes again).
    private func firstReaction(_ hashes: [UInt64]) -> Int? {
        guard let last = hashes.last else { return nil }
        return hashes.firstIndex(of: last)
    }

    func testRunAheadAndPreemptiveFramesCutTheLagByTheirFrames() throws {
        let plain = try run(.off)
        let lag = try XCTUnwrap(firstReaction(plain)) - pressFrame
        // The cartridge waits 2 frames after seeing A, then writes the colour in the next
        // NMI: nestopia shows it 3 frames after the frame that first held A.
        XCTAssertEqual(lag, 3, "the cartridge's own lag")
        XCTAssertGreaterThanOrEqual(Set(plain[..<pressFrame]).count, 4, "four greys cycle before the press")

        for frames in 1...3 {
            let ahead = try run(.runAhead(frames: frames))
            XCTAssertEqual(firstReaction(ahead), pressFrame + lag - frames, "run-ahead \(frames)")
            // Every shown frame is the plain run's frame `frames` later (the reaction included).
            XCTAssertEqual(Array(ahead[..<(self.frames - frames)]), Array(plain[frames...]), "run-ahead \(frames)")

            let preemptive = try run(.preemptive(frames: frames))
            XCTAssertEqual(firstReaction(preemptive), pressFrame + lag - frames, "preemptive \(frames)")
            // Preemptive frames show the game's own frame, with the press moved `frames` sooner.
            XCTAssertEqual(preemptive, try run(.off, pressShift: frames), "preemptive \(frames)")
        }
    }
}
