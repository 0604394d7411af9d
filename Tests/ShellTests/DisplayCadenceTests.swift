@testable import Shell
import XCTest

final class DisplayCadenceTests: XCTestCase {
    private let period = Duration.milliseconds(16)

    func testTicksKeepAFixedCadence() {
        let start = ContinuousClock.now
        var cadence = DisplayCadence(start: start)
        XCTAssertEqual(cadence.timeUntilNextTick(now: start, period: period), period)
        // Woken 3 ms late: the next tick is still on the grid, 13 ms away.
        XCTAssertEqual(cadence.timeUntilNextTick(now: start + .milliseconds(19), period: period), .milliseconds(13))
    }

    func testWakingBeforeTheTickDoesNotPushItBack() {
        let start = ContinuousClock.now
        var cadence = DisplayCadence(start: start)
        _ = cadence.timeUntilNextTick(now: start, period: period)
        // Keys and redraws wake the loop many times within one period: the deadline stays put.
        for millisecond in 1..<16 {
            XCTAssertEqual(cadence.timeUntilNextTick(now: start + .milliseconds(millisecond), period: period),
                           .milliseconds(16 - millisecond))
        }
        XCTAssertEqual(cadence.nextTick, start + period)
    }

    func testAfterAStallItStartsAgainFromNow() {
        let start = ContinuousClock.now
        var cadence = DisplayCadence(start: start)
        let late = start + .seconds(2)
        XCTAssertEqual(cadence.timeUntilNextTick(now: late, period: period), period)
        XCTAssertEqual(cadence.nextTick, late + period)
    }
}
