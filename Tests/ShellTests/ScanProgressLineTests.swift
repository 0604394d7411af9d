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
        XCTAssertEqual(written.first, "\r\u{1B}[K0 of 1000 files seen, 0 games found, 0 skipped")
        XCTAssertEqual(written[1], "\r\u{1B}[K100 of 1000 files seen, 50 games found, 0 skipped")
        XCTAssertEqual(written.last, "\r\u{1B}[K")
        XCTAssertFalse(written.contains { $0.contains("\n") })
    }

    func testNamesTheFolderCutFromItsStartToTheTerminalWidth() {
        let walking = ScanProgress(filesSeen: 42, totalGuess: 0, currentFile: "", currentFolder: "/roms/Nintendo - Game Boy")
        XCTAssertEqual(ScanProgressLine.text(walking, columns: 80), "looking: 42 files seen · /roms/Nintendo - Game Boy")
        let walkingAndReading = ScanProgress(filesSeen: 300, totalGuess: 0, currentFile: "", gamesFound: 128,
                                             currentFolder: "/roms/GB", skipped: 1)
        XCTAssertEqual(ScanProgressLine.text(walkingAndReading, columns: 80),
                       "looking: 300 files seen, 128 games found, 1 skipped · /roms/GB")
        let reading = ScanProgress(filesSeen: 7, totalGuess: 20, currentFile: "x", gamesFound: 5,
                                   currentFolder: "/media/collection/Nintendo - Super Nintendo Entertainment System/A", skipped: 2)
        let line = ScanProgressLine.text(reading, columns: 80)
        XCTAssertEqual(line, "7 of 20 files seen, 5 games found, 2 skipped · …Nintendo Entertainment System/A")
        XCTAssertEqual(line.count, 79, "one column short of the width: \\r never meets a wrapped line")
        // Too narrow for a folder: the counts alone, cut.
        XCTAssertEqual(ScanProgressLine.text(reading, columns: 30).count, 29)
    }

    func testNothingDrawnMeansNothingToClear() {
        var written: [String] = []
        ScanProgressLine(write: { written.append($0) }).finish()
        XCTAssertEqual(written, [])
    }
}
