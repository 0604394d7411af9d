import Foundation
import XCTest
@testable import Library
@testable import Shell

final class ScanProgressLineTests: XCTestCase {
    func testRewritesInPlaceAtMostTenTimesASecondAndClearsAtTheEnd() {
        var written: [String] = []
        var time = ContinuousClock.now
        let line = ScanProgressLine(write: { written.append($0) }, now: { time })
        // 1000 files over one second: a call every millisecond.
        for index in 0..<1000 {
            line.update(ScanProgress(filesSeen: index, totalGuess: 1000, currentFile: "x", gamesFound: index / 2))
            time += .milliseconds(1)
        }
        line.finish()
        XCTAssertEqual(written.count, 11, "10 redraws in a second, then the clearing")
        XCTAssertEqual(written.first, "\r\u{1B}[K0 of 1000 files seen, 0 games found")
        XCTAssertEqual(written[1], "\r\u{1B}[K100 of 1000 files seen, 50 games found")
        XCTAssertEqual(written.last, "\r\u{1B}[K")
        XCTAssertFalse(written.contains { $0.contains("\n") })
    }

    func testNothingDrawnMeansNothingToClear() {
        var written: [String] = []
        ScanProgressLine(write: { written.append($0) }).finish()
        XCTAssertEqual(written, [])
    }
}
