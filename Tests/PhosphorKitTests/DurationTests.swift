import PhosphorKit
import XCTest

final class DurationTests: XCTestCase {
    func testSecondsAsADouble() {
        XCTAssertEqual(Duration.milliseconds(1500).inSeconds, 1.5)
        XCTAssertEqual((Duration.seconds(2) + .nanoseconds(250)).inSeconds, 2.00000025, accuracy: 1e-12)
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
