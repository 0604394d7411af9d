import XCTest
@testable import Shell

final class NoticeQueueTests: XCTestCase {
    func testQueuedNoticesShowInTurnAndFeedbackInterruptsWithoutLosingThem() {
        let start = ContinuousClock.now
        var queue = NoticeQueue()
        queue.enqueue("one", seconds: 6, now: start)
        queue.enqueue("two", seconds: 6, now: start)
        XCTAssertEqual(queue.current?.text, "one")
        queue.tick(now: start + .seconds(5))
        XCTAssertEqual(queue.current?.text, "one")
        // A key's feedback shows at once; "one" comes back after it, then "two".
        queue.show("saved", seconds: 3, now: start + .seconds(5))
        XCTAssertEqual(queue.current?.text, "saved")
        queue.tick(now: start + .seconds(9))
        XCTAssertEqual(queue.current?.text, "one")
        queue.tick(now: start + .seconds(16))
        XCTAssertEqual(queue.current?.text, "two")
        queue.tick(now: start + .seconds(23))
        XCTAssertNil(queue.current)
        XCTAssertEqual(queue.waitingCount, 0)
        // Feedback replacing feedback is not queued again.
        queue.show("a", seconds: 3, now: start + .seconds(30))
        queue.show("b", seconds: 3, now: start + .seconds(31))
        queue.tick(now: start + .seconds(35))
        XCTAssertNil(queue.current)
    }
}
