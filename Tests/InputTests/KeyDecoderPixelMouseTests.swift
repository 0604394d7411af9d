import PhosphorKit
import XCTest
@testable import Input

/// SGR-Pixels mouse reports (mode 1016) and the replies that tell whether a terminal has them,
/// as xterm 379 and kitty 0.26.5 sent them under Xvfb (xdotool clicks at known window pixels).
final class KeyDecoderPixelMouseTests: XCTestCase {
    private func decodePixels(_ text: String, cell: CellPixelSize, origin: Int) -> [InputEvent] {
        var decoder = KeyDecoder()
        decoder.mousePixels = MousePixelReports(cell: cell, origin: origin)
        return decoder.decode(Array(text.utf8), now: .now) + decoder.flush(now: .now + .seconds(10))
    }

    func testTheModeReportAndTheVersionReplyOfXtermAndKitty() {
        // xterm 379: `CSI ? 1016 $ p` then `CSI > q`, answered before its DA1.
        XCTAssertEqual(decode("\u{1B}[?1016;2$y\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?64;1;2;6c"),
                       [.modeReport(mode: 1016, setting: 2), .terminalVersion("XTerm(379)"), .deviceAttributes([64, 1, 2, 6])])
        XCTAssertEqual(decode("\u{1B}[?1016;2$y\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}[?62;c"),
                       [.modeReport(mode: 1016, setting: 2), .terminalVersion("kitty(0.26.5)"), .deviceAttributes([62, 0])])
        XCTAssertEqual(decode("\u{1B}[?1016;0$y"), [.modeReport(mode: 1016, setting: 0)])
        XCTAssertEqual(decode("\u{1B}Pq#0;2;0;0;0\u{1B}\\x"), [press(.character("x"))], "other DCS strings are skipped")
    }

    /// xterm counts pixels from 1 (a click on the window's first text pixel is `1;1`).
    func testXtermPixelReportsBecomePixelsAndCells() {
        let cell = CellPixelSize(width: 6, height: 13)
        let events = decodePixels("\u{1B}[<0;99;49M\u{1B}[<32;29;39M\u{1B}[<0;29;39m", cell: cell, origin: 1)
        XCTAssertEqual(events, [
            .mouse(MouseEvent(kind: .press, button: .left, column: 16, row: 3, pixel: .init(x: 98, y: 48))),
            .mouse(MouseEvent(kind: .drag, button: .left, column: 4, row: 2, pixel: .init(x: 28, y: 38))),
            .mouse(MouseEvent(kind: .release, button: .left, column: 4, row: 2, pixel: .init(x: 28, y: 38))),
        ])
        // Its border reports 0 and -1 (measured: a click at window pixel 0,0): the first pixel,
        // and never typed keys (`-` is an intermediate byte elsewhere).
        let corner = MouseEvent.Pixel(x: 0, y: 0)
        XCTAssertEqual(decodePixels("\u{1B}[<0;0;0M\u{1B}[<0;-1;-1M\u{1B}[<32;-1;50M", cell: cell, origin: 1), [
            .mouse(MouseEvent(kind: .press, button: .left, column: 0, row: 0, pixel: corner)),
            .mouse(MouseEvent(kind: .press, button: .left, column: 0, row: 0, pixel: corner)),
            .mouse(MouseEvent(kind: .drag, button: .left, column: 0, row: 3, pixel: .init(x: 0, y: 49))),
        ])
        XCTAssertEqual(decode("\u{1B}[<0;-1;-1Mx"), [.mouse(MouseEvent(kind: .press, button: .left, column: 0, row: 0)), press(.character("x"))])
    }

    /// kitty counts from 0 (a click at window pixel 5,3 is `5;3`; it has no border by default).
    func testKittyPixelReportsCountFromZero() {
        let cell = CellPixelSize(width: 8, height: 20)
        XCTAssertEqual(decodePixels("\u{1B}[<0;8;20M\u{1B}[<0;7;19m", cell: cell, origin: 0), [
            .mouse(MouseEvent(kind: .press, button: .left, column: 1, row: 1, pixel: .init(x: 8, y: 20))),
            .mouse(MouseEvent(kind: .release, button: .left, column: 0, row: 0, pixel: .init(x: 7, y: 19))),
        ])
        XCTAssertEqual(MousePixelReports.origin(terminalVersion: "kitty(0.26.5)"), 0)
        XCTAssertEqual(MousePixelReports.origin(terminalVersion: "XTerm(379)"), 1)
        XCTAssertEqual(MousePixelReports.origin(terminalVersion: nil), 1)
    }

    func testWithoutPixelReportsTheSameBytesAreCells() {
        XCTAssertEqual(decode("\u{1B}[<0;99;49M\u{1B}[<0;0;0M"), [
            .mouse(MouseEvent(kind: .press, button: .left, column: 98, row: 48)),
            .mouse(MouseEvent(kind: .press, button: .left, column: 0, row: 0)),
        ])
    }
}
