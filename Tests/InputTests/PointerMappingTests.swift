import PhosphorKit
import XCTest
@testable import Input

final class PointerMappingTests: XCTestCase {
    let screen = CellRect(x: 10, y: 20, columns: 64, rows: 48)

    func testCornersAndCentre() {
        let topLeft = PointerMapping.pointer(column: 10, row: 20, touchScreen: screen)!
        let bottomRight = PointerMapping.pointer(column: 73, row: 67, touchScreen: screen)!
        XCTAssertEqual(Int(topLeft.x), -63 * 0x7FFF / 64)
        XCTAssertEqual(Int(topLeft.y), -47 * 0x7FFF / 48)
        XCTAssertEqual(bottomRight.x, -topLeft.x)
        XCTAssertEqual(bottomRight.y, -topLeft.y)
        // Cell 32 of 64 starts right of the middle.
        let middle = PointerMapping.pointer(column: 42, row: 44, touchScreen: screen)!
        XCTAssertGreaterThan(middle.x, 0)
        XCTAssertEqual(Int(middle.x), 0x7FFF / 64)
    }

    func testOutsideIsNilUnlessClamped() {
        XCTAssertNil(PointerMapping.pointer(column: 9, row: 30, touchScreen: screen))
        XCTAssertNil(PointerMapping.pointer(column: 74, row: 30, touchScreen: screen))
        XCTAssertNil(PointerMapping.pointer(column: 20, row: 68, touchScreen: screen))
        let clamped = PointerMapping.pointer(column: 200, row: 0, touchScreen: screen, clamped: true)!
        let corner = PointerMapping.pointer(column: 73, row: 20, touchScreen: screen)!
        XCTAssertEqual(clamped.x, corner.x)
        XCTAssertEqual(clamped.y, corner.y)
        XCTAssertNil(PointerMapping.pointer(column: 0, row: 0, touchScreen: CellRect(x: 0, y: 0, columns: 0, rows: 5)))
    }

    func testEveryCellIsInsideTheLibretroRange() {
        let tiny = CellRect(x: 0, y: 0, columns: 1, rows: 3)
        XCTAssertEqual(PointerMapping.pointer(column: 0, row: 1, touchScreen: tiny)!.x, 0)
        XCTAssertEqual(PointerMapping.pointer(column: 0, row: 1, touchScreen: tiny)!.y, 0)
        for index in 0..<256 {
            let value = PointerMapping.axis(index, of: 256)
            XCTAssertGreaterThan(value, -0x7FFF)
            XCTAssertLessThan(value, 0x7FFF)
        }
    }
}

/// Pixel reports on a picture in real pixels: the pointer lands on the frame pixel clicked.
final class PointerPixelMappingTests: XCTestCase {
    /// A core's way back from the pointer to a pixel (desmume and RetroArch round the same way).
    private func framePixel(_ value: Int16, of count: Int) -> Int { (Int(value) + 0x7FFF) * count / 0xFFFE }

    /// The DS touch screen (256x192) as a 3x kitty placement: 96x36 cells of 8x16 pixels from
    /// cell 20,2, so the picture starts at terminal pixel 160,32.
    let kitty3x = TouchPixels(area: PixelRect(x: 160, y: 32, width: 768, height: 576), pictureWidth: 256, pictureHeight: 192)

    func testEveryTerminalPixelOfAFramePixelLandsOnIt() {
        for (frameX, frameY) in [(0, 0), (1, 0), (100, 57), (255, 191), (128, 96)] {
            for dx in 0..<3 {
                for dy in 0..<3 {
                    let pointer = PointerMapping.pointer(pixelX: 160 + frameX * 3 + dx, pixelY: 32 + frameY * 3 + dy,
                                                         touchScreen: kitty3x)!
                    XCTAssertEqual(framePixel(pointer.x, of: 256), frameX, "x \(frameX) +\(dx)")
                    XCTAssertEqual(framePixel(pointer.y, of: 192), frameY, "y \(frameY) +\(dy)")
                }
            }
        }
        XCTAssertNil(PointerMapping.pointer(pixelX: 159, pixelY: 100, touchScreen: kitty3x))
        XCTAssertNil(PointerMapping.pointer(pixelX: 160 + 768, pixelY: 100, touchScreen: kitty3x))
        XCTAssertNil(PointerMapping.pointer(pixelX: 200, pixelY: 32 + 576, touchScreen: kitty3x))
        let clamped = PointerMapping.pointer(pixelX: 5000, pixelY: 0, touchScreen: kitty3x, clamped: true)!
        XCTAssertEqual(framePixel(clamped.x, of: 256), 255)
        XCTAssertEqual(framePixel(clamped.y, of: 192), 0)
    }

    /// Half blocks: a cell is two frame pixels high at 1:1, so the top and bottom half of one
    /// cell are different pixels (a cell report could only say the cell).
    func testHalfBlocksTellTheTwoHalvesOfACell() {
        let cell = CellPixelSize(width: 8, height: 16)
        // 256x192 at 1:1 in canvas pixels from column 4, half row 10 (cell row 5).
        let touch = TouchPixels(halfBlockPicture: PixelRect(x: 4, y: 10, width: 256, height: 192), cell: cell,
                                pictureWidth: 256, pictureHeight: 192)
        XCTAssertEqual(touch.area, PixelRect(x: 32, y: 80, width: 2048, height: 1536))
        let top = PointerMapping.pointer(pixelX: 32 + 8 * 10 + 3, pixelY: 80 + 16 * 7 + 2, touchScreen: touch)!
        let bottom = PointerMapping.pointer(pixelX: 32 + 8 * 10 + 3, pixelY: 80 + 16 * 7 + 12, touchScreen: touch)!
        XCTAssertEqual(framePixel(top.x, of: 256), 10)
        XCTAssertEqual(framePixel(top.y, of: 192), 14)
        XCTAssertEqual(framePixel(bottom.y, of: 192), 15)
    }
}
