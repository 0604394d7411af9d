import XCTest
@testable import Audio

final class PlaybackClockTests: XCTestCase {
    func testRealDeviceIsTrustedEvenWhenItsClockIsOff() {
        // A device 0.5% fast, topped up to half its buffer every 8 ms, for ten simulated minutes.
        var clock = PlaybackClock(rate: 48000, bufferFrames: 3072)
        var written = 0.0, consumed = 0.0
        for tick in 0..<75_000 {
            let now = Double(tick) * 0.008
            if tick > 0 { consumed = min(written, consumed + 0.008 * 48000 * 1.005) }
            let delay = Int(written - consumed)
            let (fill, ranDry) = clock.fill(at: now, reportedDelay: delay)
            XCTAssertEqual(fill, delay)
            XCTAssertFalse(ranDry)
            let frames = max(0, 1536 - fill)
            written += Double(frames)
            clock.didWrite(frames, at: now)
        }
        XCTAssertEqual(clock.source, .device)
    }

    func testDeviceThatIsEmptyRightAfterEveryWriteIsPacedByTheClock() {
        var clock = PlaybackClock(rate: 48000, bufferFrames: 3072)
        var now = 0.0
        for _ in 0..<3 {
            XCTAssertEqual(clock.source, .device)
            let (fill, _) = clock.fill(at: now, reportedDelay: 0)
            clock.didWrite(1536 - fill, at: now)
            now += 0.008
        }
        _ = clock.fill(at: now, reportedDelay: 0)
        XCTAssertEqual(clock.source, .monotonic)
        // The model PCM is stopped and empty; it starts once half a buffer is queued, then plays in real time.
        XCTAssertEqual(clock.fill(at: now, reportedDelay: 0).fill, 0)
        clock.didWrite(1536, at: now)
        XCTAssertEqual(clock.fill(at: now, reportedDelay: 0).fill, 1536)
        XCTAssertEqual(clock.fill(at: now + 0.010, reportedDelay: 0).fill, 1536 - 480)
        XCTAssertEqual(clock.fill(at: now + 0.030, reportedDelay: 0).fill, 1536 - 1440)
        // Nothing more written: it runs dry once, then waits stopped.
        XCTAssertEqual(clock.fill(at: now + 0.040, reportedDelay: 0).ranDry, true)
        XCTAssertEqual(clock.fill(at: now + 0.050, reportedDelay: 0).ranDry, false)
        XCTAssertEqual(clock.fill(at: now + 0.050, reportedDelay: 0).fill, 0)
    }

    func testDeviceConsumingFarFasterThanRealTimeIsCaught() {
        // Reports a small, non-zero queue but swallows 10x real time.
        var clock = PlaybackClock(rate: 48000, bufferFrames: 3072)
        var now = 0.0
        clock.didWrite(1536, at: now)
        for _ in 0..<20 {
            now += 0.008
            _ = clock.fill(at: now, reportedDelay: 10)
            clock.didWrite(3840, at: now)
        }
        XCTAssertEqual(clock.source, .monotonic)
    }
}
