import Terminal
import XCTest

final class LinkPacerTests: XCTestCase {
    func testAtMostTwoFramesInFlightAndAnAnswerLetsTheNextOneGo() {
        var pacer = LinkPacer()
        var now = ContinuousClock.now
        XCTAssertTrue(pacer.mayWriteFrame(now: now))
        pacer.didWriteFrame(bytes: 1000, now: now)
        XCTAssertTrue(pacer.mayWriteFrame(now: now))
        pacer.didWriteFrame(bytes: 1000, now: now)
        XCTAssertFalse(pacer.mayWriteFrame(now: now))
        pacer.didSkipFrame(now: now)
        now += .milliseconds(100)
        pacer.replyReceived(now: now)
        XCTAssertEqual(pacer.inFlight.count, 1)
        XCTAssertTrue(pacer.mayWriteFrame(now: now))
        XCTAssertEqual(pacer.stats.framesSkipped, 1)
    }

    func testStatsAfterASecondOfALimitedLink() {
        var pacer = LinkPacer()
        let start = ContinuousClock.now
        // 60 ticks a second; the link answers one frame of 5000 bytes every 100 ms.
        for tick in 0...60 {
            let now = start + .milliseconds(tick * 1000 / 60)
            if tick % 6 == 0, !pacer.inFlight.isEmpty { pacer.replyReceived(now: now) }
            if pacer.mayWriteFrame(now: now) { pacer.didWriteFrame(bytes: 5000, now: now) } else { pacer.didSkipFrame(now: now) }
        }
        XCTAssertTrue(pacer.stats.isLimited)
        XCTAssertGreaterThan(pacer.stats.framesSkippedPerSecond, 40)
        XCTAssertLessThanOrEqual(pacer.stats.framesShownPerSecond, 13)
        XCTAssertEqual(pacer.stats.linkBytesPerSecond ?? 0, 50_000, accuracy: 5000)
        // Under 15 frames a second: the picture should cost less (256 colours).
        XCTAssertTrue(pacer.prefersFewerColors)
    }

    func testATerminalThatNeverAnswersStopsHoldingFramesBack() {
        var pacer = LinkPacer()
        var now = ContinuousClock.now
        var written = 0
        for _ in 0..<(60 * 8) {
            if pacer.mayWriteFrame(now: now) {
                pacer.didWriteFrame(bytes: 100, now: now)
                written += 1
            }
            now += .milliseconds(16)
        }
        XCTAssertTrue(pacer.terminalIgnoresProbes)
        XCTAssertFalse(pacer.wantsProbe)
        XCTAssertTrue(pacer.mayWriteFrame(now: now))
        XCTAssertGreaterThan(written, 60 * 8 - 3 * 60 - 10, "three seconds held back at most")
    }

    func testOffWritesEveryFrameWithoutProbes() {
        var pacer = LinkPacer(isEnabled: false)
        let now = ContinuousClock.now
        for _ in 0..<10 {
            XCTAssertTrue(pacer.mayWriteFrame(now: now))
            pacer.didWriteFrame(bytes: 100, now: now)
        }
        XCTAssertFalse(pacer.wantsProbe)
        XCTAssertEqual(pacer.inFlight.count, 0)
    }
}
