import XCTest
@testable import Input

/// A lone ESC must become the Escape key once its timeout passes, even when the caller keeps
/// calling `decode` with empty reads in between (a UI loop that wakes up for other reasons).
final class KeyDecoderTimingTests: XCTestCase {
    func testEmptyReadsDoNotPostponeALoneEscape() {
        var decoder = KeyDecoder(escapeTimeout: .milliseconds(50))
        let start = ContinuousClock.now
        XCTAssertEqual(decoder.decode([27], now: start), [])
        for step in 1...9 {
            XCTAssertEqual(decoder.decode([UInt8](), now: start + .milliseconds(step * 5)), [], "still waiting at \(step * 5) ms")
        }
        let events = decoder.decode([UInt8](), now: start + .milliseconds(60))
        XCTAssertEqual(events, [.key(KeyEvent(.escape))])
    }
}
