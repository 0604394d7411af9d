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

    // The terminal's clock (`now`) and the real clock the core publishes by run apart in tests:
    // `follow` goes by the real one for the frame's age and applies it to the terminal's.

    func testTheTickAfterAFrameComesAMarginAfterTheNextFrameIsDue() {
        let start = ContinuousClock.now, real = ContinuousClock.now
        var cadence = DisplayCadence(start: start)
        // Taken 0.3 ms after the core published it: the next is due in 15.7 ms, ticked 1 ms later.
        cadence.follow(frameAt: real, sequence: 1, now: start, realNow: real + .microseconds(300), period: period)
        XCTAssertEqual(cadence.timeUntilNextTick(now: start, period: period), .microseconds(16_700))
        // Frames 16 ms apart, each taken 1 ms after it came: the ticks stay on the frames.
        cadence.follow(frameAt: real + period, sequence: 2, now: start + .milliseconds(17), realNow: real + .milliseconds(17), period: period)
        XCTAssertEqual(cadence.nextTick, start + .milliseconds(33))
    }

    func testASlowCoresFramesSetTheIntervalAndFastForwardsOrSkippedOnesDoNot() {
        let start = ContinuousClock.now, real = ContinuousClock.now
        var slow = DisplayCadence(start: start)
        slow.follow(frameAt: real, sequence: 1, now: start, realNow: real, period: period)
        // A heavy game makes a frame every 25 ms: the next tick waits for the next one.
        slow.follow(frameAt: real + .milliseconds(25), sequence: 2, now: start, realNow: real + .milliseconds(25), period: period)
        XCTAssertEqual(slow.nextTick, start + .milliseconds(26))
        var fast = DisplayCadence(start: start)
        fast.follow(frameAt: real, sequence: 1, now: start, realNow: real, period: period)
        // Fast-forward's frames come every 4 ms: the newest is taken a period on, not every 4 ms.
        fast.follow(frameAt: real + .milliseconds(4), sequence: 2, now: start, realNow: real + .milliseconds(4), period: period)
        XCTAssertEqual(fast.nextTick, start + .milliseconds(17))
        var skipping = DisplayCadence(start: start)
        skipping.follow(frameAt: real, sequence: 1, now: start, realNow: real, period: period)
        // A busy link: the UI took frame 4 after frame 1; the core kept its rate, 16 ms a frame.
        skipping.follow(frameAt: real + .milliseconds(48), sequence: 4, now: start, realNow: real + .milliseconds(48), period: period)
        XCTAssertEqual(skipping.nextTick, start + .milliseconds(17))
    }

    func testAnOldFrameStillLeavesHalfAPeriodBeforeTheNextTick() {
        let start = ContinuousClock.now, real = ContinuousClock.now
        var cadence = DisplayCadence(start: start)
        cadence.follow(frameAt: real, sequence: 1, now: start, realNow: real + .milliseconds(40), period: period)
        XCTAssertEqual(cadence.nextTick, start + .milliseconds(8))
    }

    func testALateFrameIsLookedForAgainThreeTimesThenTheCadenceGoesOn() {
        let start = ContinuousClock.now, real = ContinuousClock.now
        var cadence = DisplayCadence(start: start)
        cadence.follow(frameAt: real, sequence: 1, now: start, realNow: real, period: period)
        var now = cadence.nextTick
        for _ in 0..<3 {
            cadence.tookNoFrame(now: now)
            XCTAssertEqual(cadence.timeUntilNextTick(now: now, period: period), .milliseconds(1), "looks again in 1 ms")
            now += .milliseconds(1)
        }
        // Three looks found nothing (a game that repeats a frame, a paused core): the fixed cadence.
        cadence.tookNoFrame(now: now)
        XCTAssertEqual(cadence.timeUntilNextTick(now: now, period: period), period)
        now += period
        cadence.tookNoFrame(now: now)
        XCTAssertEqual(cadence.timeUntilNextTick(now: now, period: period), period, "no looking again without frames")
    }

    func testAWakeBeforeTheTickWithoutAFrameChangesNothing() {
        let start = ContinuousClock.now, real = ContinuousClock.now
        var cadence = DisplayCadence(start: start)
        cadence.follow(frameAt: real, sequence: 1, now: start, realNow: real, period: period)
        let tick = cadence.nextTick
        cadence.tookNoFrame(now: start + .milliseconds(5))  // a key woke the loop
        XCTAssertEqual(cadence.nextTick, tick)
    }

    func testAfterAStallItStartsAgainFromNow() {
        let start = ContinuousClock.now
        var cadence = DisplayCadence(start: start)
        let late = start + .seconds(2)
        XCTAssertEqual(cadence.timeUntilNextTick(now: late, period: period), period)
        XCTAssertEqual(cadence.nextTick, late + period)
    }
}
