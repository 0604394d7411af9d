import PhosphorKit
import Render
import XCTest

final class CellCanvasTests: XCTestCase {
    func testFillTextAndPixelsAreClippedToTheCanvas() {
        var canvas = CellCanvas(columns: 6, rows: 3, background: .black)
        let grey = RGBColor(rawValue: 0x404040)
        canvas.fill(CellRect(x: 4, y: -1, columns: 5, rows: 2), with: grey)
        XCTAssertEqual(canvas[4, 0], Cell(top: grey, bottom: grey))
        XCTAssertEqual(canvas[5, 0], Cell(top: grey, bottom: grey))
        XCTAssertEqual(canvas[3, 0], Cell(top: .black, bottom: .black))
        XCTAssertEqual(canvas[4, 1], Cell(top: .black, bottom: .black))
        let end = canvas.put(text: "Hello", column: 3, row: 2, foreground: .white, background: grey)
        XCTAssertEqual(end, 8)
        XCTAssertEqual(canvas[3, 2], Cell("H", foreground: .white, background: grey))
        XCTAssertEqual(canvas[5, 2], Cell("l", foreground: .white, background: grey))
        // A pixel written onto a text cell turns it back into a picture cell of its background.
        canvas.setPixel(x: 3, y: 5, to: .white)
        XCTAssertEqual(canvas[3, 2], Cell(top: grey, bottom: .white))
        canvas.setPixel(x: 6, y: 0, to: .white)  // outside: ignored
        canvas.setPixel(x: 0, y: 6, to: .white)
        XCTAssertEqual(canvas.cells.count, 18)
    }

    func testBlendDimsTowardAColour() {
        var canvas = CellCanvas(columns: 2, rows: 1, background: RGBColor(rawValue: 0xC86432))
        canvas.put(Cell("A", foreground: .white, background: .black), column: 1, row: 0)
        canvas.blend(CellRect(x: 0, y: 0, columns: 2, rows: 1), toward: .black, amount: 128)
        // 0xC8 * 127 / 255 rounded, and so on: each channel scaled by (255 - 128) / 255.
        func scaled(_ channel: UInt32) -> UInt32 { (channel * 127 + 127) / 255 }
        let expected = RGBColor(rawValue: scaled(0xC8) << 16 | scaled(0x64) << 8 | scaled(0x32))
        XCTAssertEqual(canvas[0, 0], Cell(top: expected, bottom: expected))
        XCTAssertEqual(canvas[1, 0].character, UInt32(("A" as Unicode.Scalar).value))
        XCTAssertEqual(canvas[1, 0].foreground, RGBColor(rawValue: scaled(0xFF) * 0x010101))
        var untouched = canvas
        untouched.blend(canvas.bounds, toward: .white, amount: 0)
        XCTAssertEqual(untouched.cells, canvas.cells)
    }

    func testRendererResetKeepsSizeAndClears() {
        let renderer = FrameRenderer(colorMode: .trueColor, synchronizedOutput: false)
        renderer.beginFrame(columns: 4, rows: 2, background: .white)
        renderer.withCanvas { $0.setPixel(x: 1, y: 1, to: .black) }
        XCTAssertEqual(renderer.canvas[1, 0], Cell(top: .white, bottom: .black))
        renderer.beginFrame(columns: 4, rows: 2, background: .white)
        XCTAssertEqual(renderer.canvas[1, 0], Cell(top: .white, bottom: .white))
        renderer.beginFrame(columns: 3, rows: 5)
        XCTAssertEqual(renderer.canvas.cells.count, 15)
        XCTAssertEqual(renderer.canvas[2, 4], Cell(top: .black, bottom: .black))
    }
}
