import XCTest
@testable import Emulation

final class SpeedCheckTests: XCTestCase {
    func testTheVerdictComesAfterTwoSecondsOfFramesOnce() {
        var check = SpeedCheck()
        for frame in 1..<120 {
            XCTAssertNil(check.record(.milliseconds(5), framesPerSecond: 60), "frame \(frame): not yet")
        }
        check.part = .milliseconds(120)
        let verdict = check.record(.milliseconds(5), framesPerSecond: 60)
        XCTAssertEqual(verdict?.frame ?? 0, 0.005, accuracy: 1e-9)
        XCTAssertEqual(verdict?.part ?? 0, 0.001, accuracy: 1e-9, "120 ms over 120 frames")
        XCTAssertTrue(check.isDecided)
        XCTAssertNil(check.record(.seconds(1), framesPerSecond: 60), "once")
    }

    func testFramesFarTooSlowGetTheVerdictOnceTwoSecondsWentOnThem() {
        var check = SpeedCheck()
        XCTAssertNil(check.record(.milliseconds(1500), framesPerSecond: 60))
        XCTAssertEqual(check.record(.milliseconds(1500), framesPerSecond: 60)?.frame ?? 0, 1.5, accuracy: 1e-9,
                       "3 s spent in 2 frames: decided, not after 120")
    }
}
