import Terminal
import XCTest
@testable import Shell

/// What the status bar says about the link: its rate while it holds frames back, and the colours
/// it keeps down, also once the cheaper frames all get through.
final class PlayStatusLineTests: XCTestCase {
    private func stats(link: Int?, shown: Int, colors: LinkPacer.ColorReduction) -> LinkPacer.Stats {
        var stats = LinkPacer.Stats()
        stats.linkBytesPerSecond = link
        stats.framesShownPerSecond = shown
        stats.bytesPerSecond = link ?? 30_000
        stats.colorReduction = colors
        return stats
    }

    private func videoText(_ stats: LinkPacer.Stats, always: Bool) -> String {
        var text = StatusText()
        PlayStatusLine.appendVideo(stats, always: always, to: &text)
        XCTAssertTrue(text.parts.allSatisfy { $0.importance == .high }, "kept over the slot and the sound")
        return text.text
    }

    func testAFastLinkSaysNothing() {
        XCTAssertEqual(videoText(stats(link: nil, shown: 60, colors: .none), always: false), "")
    }

    func testALimitingLinkGivesItsRateAndTheFramesShown() {
        XCTAssertEqual(videoText(stats(link: 98_000, shown: 24, colors: .none), always: false),
                       "link 98 KB/s · shown 24/s")
        XCTAssertEqual(videoText(stats(link: 20_000, shown: 9, colors: .palette256), always: false),
                       "link 20 KB/s · shown 9/s · 256 colours")
    }

    func testColoursKeptDownAreNamedOnceNothingIsSkipped() {
        XCTAssertEqual(videoText(stats(link: nil, shown: 50, colors: .palette16), always: false),
                       "slow link · 16 colours")
        XCTAssertEqual(videoText(stats(link: nil, shown: 50, colors: .palette16), always: true),
                       "slow link · 16 colours · shown 50/s · 30 KB/s · skipped 0")
    }
}
