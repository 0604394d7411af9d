import Foundation
import XCTest
@testable import PhosphorKit

final class UTCTimestampTests: XCTestCase {
    /// Foundation's ISO 8601 text is the reference: every day from 1899 to 2101 (leap days,
    /// century years and 2000 among them) and seconds across a day, before and after 1970.
    func testMatchesFoundationsISO8601Text() {
        var seconds: Int64 = -2_240_524_800  // 1899-01-01
        let end: Int64 = 4_133_980_800       // 2101-01-01
        var checked = 0
        while seconds < end {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            XCTAssertEqual(UTCTimestamp.text(secondsSince1970: seconds), date.ISO8601Format(), "at \(seconds)")
            checked += 1
            seconds += 86_400 + 3_601  // moves the time of day along too
        }
        XCTAssertGreaterThan(checked, 70_000)
        XCTAssertEqual(UTCTimestamp.text(secondsSince1970: 951_782_400), "2000-02-29T00:00:00Z")
        XCTAssertEqual(UTCTimestamp.text(secondsSince1970: -1), "1969-12-31T23:59:59Z")
        XCTAssertEqual(UTCTimestamp.text(secondsSince1970: 0), "1970-01-01T00:00:00Z")
    }

    func testNowIsTodaysDate() {
        let before = Date().ISO8601Format()
        let now = UTCTimestamp.now
        let after = Date().ISO8601Format()
        // The texts sort as the times do.
        XCTAssertTrue(before <= now && now <= after, "\(before) ≤ \(now) ≤ \(after)")
    }
}
