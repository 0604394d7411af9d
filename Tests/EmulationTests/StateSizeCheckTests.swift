import XCTest
@testable import Emulation

final class StateSizeCheckTests: XCTestCase {
    /// Takes `count` states from `frame` on, answering `answer` whenever asked; returns how often it was asked.
    private func take(_ count: Int, from frame: UInt64, answering answer: Int, _ check: inout StateSizeCheck) -> Int {
        var asked = 0
        for offset in 0..<UInt64(count) {
            if check.isDue {
                XCTAssertNil(check.noteAnswer(answer, frame: frame + offset), "the size held")
                asked += 1
            }
            check.noteStateTaken()
        }
        return asked
    }

    func testTheSizeIsAskedBeforeTheFirstTwoStatesThenOnceEveryInterval() {
        var check = StateSizeCheck()
        XCTAssertTrue(check.isDue, "nothing known yet")
        let asked = take(StateSizeCheck.interval * 3 + 1, from: 0, answering: 5040, &check)
        XCTAssertEqual(asked, 4, "91 states: asked before those of frames 0, 1, 31 and 61")
        XCTAssertEqual(check.size, 5040)
        XCTAssertFalse(check.varies)
    }

    func testAChangedSizeDropsTheStatesSinceTheLastAnswerAndIsAskedEveryTimeFromThenOn() {
        var check = StateSizeCheck()
        XCTAssertEqual(take(62, from: 0, answering: 528_448, &check), 4, "asked before frames 0, 1, 31 and 61")
        XCTAssertEqual(take(29, from: 62, answering: 528_448, &check), 0)
        XCTAssertTrue(check.isDue, "30 states since frame 61's")
        XCTAssertEqual(check.noteAnswer(462_912, frame: 91), 61,
                       "mGBA's state shrank: the states after frame 61's may have stale bytes")
        XCTAssertEqual(check.size, 462_912)
        XCTAssertTrue(check.varies)
        check.noteStateTaken()
        XCTAssertTrue(check.isDue, "a size that changed is asked before every state")
        XCTAssertNil(check.noteAnswer(462_912, frame: 71))
    }

    func testASizeThatSettlesAfterTheFirstFrameDropsNothing() {
        // nestopia: 5070 bytes before the first frame, 5040 after.
        var check = StateSizeCheck()
        XCTAssertNil(check.noteAnswer(5070, frame: 0))
        check.noteStateTaken()
        XCTAssertTrue(check.isDue)
        XCTAssertEqual(check.noteAnswer(5040, frame: 1), 0, "only states after frame 0's go: none were taken")
    }

    func testALoadedStateOrAResetIsFollowedByAnAnswer() {
        var check = StateSizeCheck()
        _ = take(3, from: 0, answering: 59_412, &check)
        XCTAssertFalse(check.isDue)
        check.askAgain()
        XCTAssertTrue(check.isDue)
    }
}
