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
