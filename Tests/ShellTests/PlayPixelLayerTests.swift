import Input
import PhosphorKit
import Render
import TestSupport
import XCTest
@testable import Shell

/// The pixel layer on its own: two DS screens, their placements, and the touch screen's pixels.
final class PlayPixelLayerTests: XCTestCase {
    private func dsFrame() -> VideoFrame {
        // Top screen red, bottom screen blue (XRGB8888, 256x384).
        var pixels = [UInt8](repeating: 0, count: 256 * 384 * 4)
        for y in 0..<384 {
            for x in 0..<256 {
                let offset = (y * 256 + x) * 4
                if y < 192 { pixels[offset + 2] = 0xFF } else { pixels[offset] = 0xFF }
            }
        }
        return VideoFrame(width: 256, height: 384, format: .xrgb8888, pixels: pixels, sequence: 1)
    }

    private let screens = [
        PlayPixelLayer.Screen(source: PixelRect(x: 0, y: 0, width: 256, height: 192), cells: CellRect(x: 0, y: 0, columns: 60, rows: 20), aspectRatio: nil),
        PlayPixelLayer.Screen(source: PixelRect(x: 0, y: 192, width: 256, height: 192), cells: CellRect(x: 60, y: 0, columns: 60, rows: 20), aspectRatio: nil),
    ]

    func testTwoScreensAreTwoImagesAndAnUnchangedFrameSendsNothing() throws {
        let layer = PlayPixelLayer(output: .kitty(files: false, cell: CellPixelSize(width: 8, height: 16)))
        let frame = dsFrame()
        let commands = try KittyCommand.parse(layer.render(frame, screens: screens, integerScale: false, terminalRows: 30))
        XCTAssertEqual(commands.map { $0.keys["i"] }, ["7100", "7101"])
        let bottom = try Zlib.uncompress(commands[1].payload, maximumLength: 256 * 192 * 3)
        XCTAssertEqual(Array(bottom.prefix(3)), [0, 0, 0xFF], "the second image is the bottom screen")
        XCTAssertTrue(layer.render(frame, screens: screens, integerScale: false, terminalRows: 30).isEmpty)
        // One screen only now (a DS layout switch): the other image is deleted.
        let single = try KittyCommand.parse(layer.render(frame, screens: [screens[0]], integerScale: false, terminalRows: 30))
        XCTAssertEqual(single.map { $0.keys["a"] }, ["d"])
        XCTAssertEqual(single.first?.keys["i"], "7101")
    }

    func testTouchScreenClicksMapThroughThePlacement() throws {
        let layer = PlayPixelLayer(output: .sixel(registers: 256, cell: CellPixelSize(width: 8, height: 16)))
        _ = layer.render(dsFrame(), screens: screens, integerScale: true, terminalRows: 30)
        // 60x20 cells of 8x16 px = 480x320 px: the 256x192 screen fits once (256x192 px = 32x12 cells), centred.
        let placement = try XCTUnwrap(layer.placement(ofScreen: 1))
        XCTAssertEqual(placement.cells, CellRect(x: 74, y: 4, columns: 32, rows: 12))
        // A click in the placement's top-left cell is near the touch screen's top-left pixel,
        // its centre cell near the centre; outside the picture is no touch.
        let corner = try XCTUnwrap(PointerMapping.pointer(column: 74, row: 4, touchScreen: placement.cells))
        XCTAssertLessThan(corner.x, -0x7000)
        let centre = try XCTUnwrap(PointerMapping.pointer(column: 90, row: 10, touchScreen: placement.cells))
        XCTAssertLessThan(abs(Int(centre.x)), 0x800)
        XCTAssertNil(PointerMapping.pointer(column: 70, row: 10, touchScreen: placement.cells))
    }

    /// The fallback follows the link's measured rate (the pacer's), not how long the local
    /// write blocked: 20 KB pictures are fine at 1 MB/s and too slow at 100 KB/s.
    func testPicturesTooBigForTheMeasuredLinkFallBackAfterThreeInARow() {
        var monitor = PixelLinkMonitor()
        monitor.recordPicture(bytes: 20_000, deliveryRate: nil)
        XCTAssertEqual(monitor.slowPicturesInARow, 0, "an unmeasured link counts as fast enough")
        monitor.recordPicture(bytes: 20_000, deliveryRate: 1_000_000)
        XCTAssertEqual(monitor.slowPicturesInARow, 0, "20 ms at 1 MB/s")
        for _ in 0..<2 { monitor.recordPicture(bytes: 20_000, deliveryRate: 100_000) }
        XCTAssertFalse(monitor.shouldFallBack)
        monitor.recordPicture(bytes: 2_000, deliveryRate: 100_000)
        XCTAssertEqual(monitor.slowPicturesInARow, 0, "a small picture (20 ms) starts the count again")
        for _ in 0..<3 { monitor.recordPicture(bytes: 20_000, deliveryRate: 100_000) }
        XCTAssertTrue(monitor.shouldFallBack, "three pictures over 100 ms in a row")
    }
}
