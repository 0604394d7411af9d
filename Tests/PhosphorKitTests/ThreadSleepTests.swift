import XCTest
@testable import PhosphorKit

final class ThreadSleepTests: XCTestCase {
    /// It sleeps at least as long as asked (the core thread's pacing relies on it), and a
    /// duration that is not positive returns at once.
    func testSleepsAtLeastTheDurationAndNotForNothing() throws {
        let clock = ContinuousClock()
        for milliseconds in [1, 7, 25] {
            let started = clock.now
            try ThreadSleep.sleep(for: .milliseconds(milliseconds))
            XCTAssertGreaterThanOrEqual(clock.now - started, .milliseconds(milliseconds))
        }
        let started = clock.now
        try ThreadSleep.sleep(for: .zero)
        try ThreadSleep.sleep(for: .milliseconds(-5))
        XCTAssertLessThan(clock.now - started, .milliseconds(5))
    }
}
