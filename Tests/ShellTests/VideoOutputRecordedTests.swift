import Input
import PhosphorKit
import Terminal
import TestSupport
import XCTest
@testable import Shell

/// What `--video auto` draws with in each real terminal, from its recorded answers to the
/// graphics queries (`Tests/Fixtures/terminal-replies`, replayed in full in TerminalTests'
/// `RecordedRepliesTests`), and the line said when pixels cannot be had.
final class VideoOutputRecordedTests: XCTestCase {
    private func auto(_ name: String, multiplexer: String? = nil) throws -> (output: VideoOutput, notice: String?) {
        let recording = try RecordedTerminalReplies(name)
        var detection = GraphicsDetection(multiplexer: multiplexer, probeFile: multiplexer == nil ? RecordedTerminalReplies.probeFile : nil)
        _ = detection.start()
        var decoder = KeyDecoder()
        for chunk in recording.reads {
            for event in decoder.decode(chunk, now: .now) { _ = detection.handle(event) }
        }
        detection.useWindowPixels(width: recording.pixelWidth, height: recording.pixelHeight,
                                  columns: recording.columns, rows: recording.rows)
        return VideoOutput.resolve(.auto, capabilities: detection.capabilities)
    }

    func testEachTerminalGetsItsBestPixels() throws {
        XCTAssertEqual(try auto("kitty-0.26.5").output, .kitty(files: true, cell: CellPixelSize(width: 8, height: 20)))
        XCTAssertEqual(try auto("konsole-22.12.3").output, .kitty(files: false, cell: CellPixelSize(width: 8, height: 18)),
                       "kitty graphics before sixel; Konsole reads no files")
        XCTAssertEqual(try auto("foot-1.13.1").output, .sixel(registers: 1024, cell: CellPixelSize(width: 6, height: 16)))
        XCTAssertEqual(try auto("mlterm-3.9.0").output, .sixel(registers: 256, cell: CellPixelSize(width: 9, height: 22)),
                       "mlterm refuses the XTSMGRAPHICS read: 256, not the VT340's 16")
        XCTAssertEqual(try auto("xterm-379-vt340-256").output, .sixel(registers: 16, cell: CellPixelSize(width: 6, height: 13)),
                       "xterm reports no registers even with 256 set")
        XCTAssertEqual(try auto("tmux-3.3a-in-kitty-0.26.5-passthrough-on", multiplexer: "tmux").output,
                       .kitty(files: false, cell: CellPixelSize(width: 8, height: 20)), "no file query through tmux")
    }

    func testHalfBlocksWhereThereAreNoPixelsAndWhyWhenSomethingBlocksThem() throws {
        XCTAssertEqual(try auto("xterm-379").output, .blocks)
        XCTAssertNil(try auto("xterm-379").notice, "a terminal without pixels is nothing to apologise for")
        let tmux = try auto("tmux-3.3a-in-kitty-0.26.5-passthrough-off", multiplexer: "tmux")
        XCTAssertEqual(tmux.output, .blocks)
        XCTAssertEqual(tmux.notice, GraphicsDetection.tmuxWithoutPassthrough)
        let screen = try auto("screen-4.9.0-in-xterm-379", multiplexer: "GNU screen")
        XCTAssertEqual(screen.output, .blocks)
        XCTAssertEqual(screen.notice, "inside GNU screen: half blocks (it passes no pixel graphics through)")
    }

    /// No answer at all: half blocks, nothing to say.
    func testNoAnswerMeansHalfBlocks() {
        var detection = GraphicsDetection(multiplexer: nil, probeFile: nil)
        _ = detection.start()
        detection.timedOut()
        let result = VideoOutput.resolve(.auto, capabilities: detection.capabilities)
        XCTAssertEqual(result.output, .blocks)
        XCTAssertNil(result.notice)
    }
}
