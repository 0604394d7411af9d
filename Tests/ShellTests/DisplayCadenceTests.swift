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

    /// The loop's wait rounds up: ending early (poll's whole milliseconds did) left a sliver of the
    /// period that the loop then spun through with zero-timeout polls, about 0.6 ms a frame.
    func testWaitsRoundUpToTheNextNanosecond() {
        XCTAssertEqual(Duration.milliseconds(16).nanoseconds, 16_000_000)
        XCTAssertEqual((Duration.milliseconds(16) + .nanoseconds(1) / 2).nanoseconds, 16_000_001)
        XCTAssertEqual(Duration.seconds(1.0 / 60).nanoseconds, 16_666_667)
        XCTAssertEqual(Duration.zero.nanoseconds, 0)
    }
}
