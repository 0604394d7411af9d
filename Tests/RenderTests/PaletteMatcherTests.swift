import TestSupport
import Render
import XCTest

final class PaletteMatcherTests: XCTestCase {
    func testPrimariesAndCubeColoursMapToThemselvesIn256() {
        for raw: UInt32 in [0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00, 0x00FFFF, 0xFF00FF, 0xFFFFFF, 0x000000] {
            let color = RGBColor(rawValue: raw)
            let index = PaletteMatcher.nearest256(color)
            XCTAssertGreaterThanOrEqual(index, 16)
            XCTAssertEqual(PaletteMatcher.color(ofIndex: index), color, "\(color) -> \(index)")
        }
        for index in UInt8(16)...UInt8(231) {
            XCTAssertEqual(PaletteMatcher.color(ofIndex: PaletteMatcher.nearest256(PaletteMatcher.color(ofIndex: index))),
                           PaletteMatcher.color(ofIndex: index))
        }
    }

    func testGreysMapToTheGreyRamp() {
        for step in 0..<24 {
            let level = UInt8(8 + 10 * step)
            let index = PaletteMatcher.nearest256(RGBColor(red: level, green: level, blue: level))
            XCTAssertEqual(Int(index), 232 + step, "grey \(level)")
        }
        // Any grey maps to the palette grey (ramp or cube diagonal) nearest in lightness, never a tint.
        let greyLevels = PaletteMatcher.cubeLevels + (0..<24).map { 8 + 10 * $0 }
        for level in 0...255 {
            let grey = RGBColor(red: UInt8(level), green: UInt8(level), blue: UInt8(level))
            let color = PaletteMatcher.color(ofIndex: PaletteMatcher.nearest256(grey))
            XCTAssertTrue(color.red == color.green && color.green == color.blue, "grey \(level) -> \(color)")
            let lightness = PaletteMatcher.lab(grey).l
            let nearest = greyLevels.map { candidate in
                abs(PaletteMatcher.lab(RGBColor(red: UInt8(candidate), green: UInt8(candidate), blue: UInt8(candidate))).l - lightness)
            }.min()!
            XCTAssertEqual(abs(PaletteMatcher.lab(color).l - lightness), nearest, accuracy: 1e-12, "grey \(level) -> \(color)")
        }
    }

    func testNearest256IsTheClosestCubeOrRampColour() {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<2000 {
            let color = RGBColor(rawValue: UInt32.random(in: 0...0xFF_FFFF, using: &generator))
            let chosen = PaletteMatcher.nearest256(color)
            XCTAssertTrue((16...255).contains(chosen))
            let chosenDistance = PaletteMatcher.distance(color, PaletteMatcher.color(ofIndex: chosen))
            for candidate in 16...255 {
                XCTAssertLessThanOrEqual(chosenDistance, PaletteMatcher.distance(color, PaletteMatcher.color(ofIndex: UInt8(candidate))), "\(color)")
            }
        }
        // The colour that looked pink under an RGB metric keeps its orange hue.
        XCTAssertEqual(PaletteMatcher.color(ofIndex: PaletteMatcher.nearest256(RGBColor(rawValue: 0xC06030))).blue, 0)
    }

    func testSixteenColoursAreValidAndSensible() {
        XCTAssertEqual(PaletteMatcher.nearest16(.black), 0)
        XCTAssertEqual(PaletteMatcher.nearest16(.white), 15)
        XCTAssertEqual(PaletteMatcher.nearest16(RGBColor(rawValue: 0xFF0000)), 9)
        XCTAssertEqual(PaletteMatcher.nearest16(RGBColor(rawValue: 0x00FF00)), 10)
        // Pure blue: the palette's blues are 0000EE (4) and 5C5CFF (12); the plain one is closer.
        XCTAssertEqual(PaletteMatcher.nearest16(RGBColor(rawValue: 0x0000FF)), 4)
        XCTAssertEqual(PaletteMatcher.nearest16(RGBColor(rawValue: 0x808080)), 8)
        // Hue survives: a dark orange-brown is red or yellow, not grey; a mid green is green.
        XCTAssertTrue([1, 3, 9, 11].contains(PaletteMatcher.nearest16(RGBColor(rawValue: 0xC06030))))
        XCTAssertTrue([2, 10].contains(PaletteMatcher.nearest16(RGBColor(rawValue: 0x38B818))))
        var generator = SeededGenerator(seed: 12)
        for _ in 0..<5000 {
            let color = RGBColor(rawValue: UInt32.random(in: 0...0xFF_FFFF, using: &generator))
            let chosen = PaletteMatcher.nearest16(color)
            XCTAssertLessThan(chosen, 16)
            let chosenDistance = PaletteMatcher.distance(color, PaletteMatcher.ansi16[Int(chosen)])
            for candidate in PaletteMatcher.ansi16 {
                XCTAssertLessThanOrEqual(chosenDistance, PaletteMatcher.distance(color, candidate), "\(color)")
            }
        }
    }
}
