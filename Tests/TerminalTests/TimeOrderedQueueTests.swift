import XCTest
@testable import Terminal

final class TimeOrderedQueueTests: XCTestCase {
    /// The queue against an array doing the same, over long random runs that reuse the taken
    /// places many times (appends, single takes, expiry of a prefix, clearing).
    func testItHoldsWhatAnArrayWouldThroughReuse() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            var queue = TimeOrderedQueue<Int>()
            var model: [Int] = []
            var next = 0
            for _ in 0..<3_000 {
                switch Int.random(in: 0..<100, using: &generator) {
                case 0..<55:
                    queue.append(next)
                    model.append(next)
                    next += 1
                case 55..<80 where !model.isEmpty:
                    XCTAssertEqual(queue.removeFirst(), model.removeFirst())
                case 80..<99:
                    let limit = (model.first ?? 0) + Int.random(in: 0..<8, using: &generator)
                    queue.removeFirst { $0 < limit }
                    model.removeAll { $0 < limit }
                case 99:
                    queue.removeAll()
                    model.removeAll()
                default:
                    break
                }
                XCTAssertEqual(queue.count, model.count)
                XCTAssertEqual(queue.isEmpty, model.isEmpty)
                XCTAssertEqual(queue.first, model.first)
                XCTAssertEqual(queue.last, model.last)
                if !model.isEmpty {
                    let offset = Int.random(in: 0..<model.count, using: &generator)
                    XCTAssertEqual(queue[offset], model[offset])
                }
            }
        }
    }
}
