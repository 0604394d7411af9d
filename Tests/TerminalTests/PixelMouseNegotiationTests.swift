import Input
import PhosphorKit
import XCTest
@testable import Terminal

/// DECRQM 1016 and XTVERSION in the start-up negotiation, against replies recorded from real
/// terminals under Xvfb (xterm 379, kitty 0.26.5), a terminal without the mode, and silence.
final class PixelMouseNegotiationTests: XCTestCase {
    private func negotiate(_ replies: String, graphics: Bool = true) throws -> (TerminalNegotiation, String) {
        let terminal = try HeadlessTerminal()
        defer { terminal.restore() }
        var negotiation = TerminalNegotiation(graphics: graphics ? GraphicsDetection(multiplexer: nil, probeFile: nil) : nil)
        let queries = String(decoding: negotiation.start(), as: UTF8.self)
        var decoder = KeyDecoder()
        for event in decoder.decode(Array(replies.utf8), now: .now) { XCTAssertTrue(negotiation.handle(event, terminal: terminal)) }
        if !negotiation.isFinished { negotiation.timedOut() }
        return (negotiation, queries)
    }

    func testTheQueriesGoBeforeDA1() throws {
        let (_, queries) = try negotiate("")
        let mode = try XCTUnwrap(queries.range(of: "\u{1B}[?1016$p"))
        let version = try XCTUnwrap(queries.range(of: "\u{1B}[>q"))
        let da1 = try XCTUnwrap(queries.range(of: "\u{1B}[c", options: .backwards))
        XCTAssertLessThan(mode.lowerBound, da1.lowerBound)
        XCTAssertLessThan(version.lowerBound, da1.lowerBound)
        var console = TerminalNegotiation(asksBackground: false)
        XCTAssertFalse(String(decoding: console.start(), as: UTF8.self).contains("\u{1B}[>q"), "no XTVERSION to the Linux console")
    }

    /// xterm 379's replies as recorded (no `CSI 16 t` answer: the cell size comes from TIOCGWINSZ).
    func testXterm379HasPixelReportsCountedFromOne() throws {
        var (negotiation, _) = try negotiate("\u{1B}[?2026;0$y\u{1B}[?1016;2$y\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\"
                                             + "\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?1;0;1024S\u{1B}[?2;0;1000;1000S\u{1B}[?64;1;2;6;9;15;16;17;18;21;22;28c")
        XCTAssertTrue(negotiation.pixelMouse)
        XCTAssertEqual(negotiation.terminalVersion, "XTerm(379)")
        XCTAssertNil(negotiation.mousePixelReports, "no cell size yet: pixels could not be placed")
        negotiation.useWindowPixels(width: 480, height: 312, columns: 80, rows: 24)
        XCTAssertEqual(negotiation.mousePixelReports, MousePixelReports(cell: CellPixelSize(width: 6, height: 13), origin: 1))
    }

    func testKitty026HasPixelReportsCountedFromZero() throws {
        let (negotiation, _) = try negotiate("\u{1B}[?2026;2$y\u{1B}[?1016;2$y\u{1B}P>|kitty(0.26.5)\u{1B}\\"
                                             + "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;20;8t\u{1B}[?0u\u{1B}[?62;c")
        XCTAssertEqual(negotiation.mousePixelReports, MousePixelReports(cell: CellPixelSize(width: 8, height: 20), origin: 0))
    }

    func testATerminalWithoutTheModeOrWithoutAnswersKeepsCells() throws {
        let (unknown, _) = try negotiate("\u{1B}[?1016;0$y\u{1B}[6;20;8t\u{1B}[?62;c")
        XCTAssertFalse(unknown.pixelMouse)
        XCTAssertNil(unknown.mousePixelReports)
        let (resetForGood, _) = try negotiate("\u{1B}[?1016;4$y\u{1B}[6;20;8t\u{1B}[?62;c")
        XCTAssertNil(resetForGood.mousePixelReports)
        let (silent, _) = try negotiate("")
        XCTAssertTrue(silent.isFinished)
        XCTAssertFalse(silent.pixelMouse)
        XCTAssertNil(silent.terminalVersion)
        XCTAssertNil(silent.mousePixelReports)
    }

    /// The headless terminal gets mode 1016 on and off as bytes, exactly once each.
    func testSwitchingPixelReportsWritesTheMode() throws {
        let terminal = try HeadlessTerminal()
        defer { terminal.restore() }
        XCTAssertTrue(terminal.setPixelMouse(true))
        XCTAssertTrue(terminal.setPixelMouse(true))
        XCTAssertFalse(terminal.setPixelMouse(false))
        let text = String(decoding: terminal.recorded, as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "\u{1B}[?1016h").count - 1, 1)
        XCTAssertEqual(text.components(separatedBy: "\u{1B}[?1016l").count - 1, 1)
    }
}
