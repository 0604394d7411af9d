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
        // Any grey maps to the nearest grey the palette has (ramp or cube diagonal), never a tint.
        let greyLevels = PaletteMatcher.cubeLevels + (0..<24).map { 8 + 10 * $0 }
        for level in 0...255 {
            let color = PaletteMatcher.color(ofIndex: PaletteMatcher.nearest256(RGBColor(red: UInt8(level), green: UInt8(level), blue: UInt8(level))))
            XCTAssertTrue(color.red == color.green && color.green == color.blue, "grey \(level) -> \(color)")
            let nearest = greyLevels.map { abs($0 - level) }.min()!
            XCTAssertEqual(abs(Int(color.red) - level), nearest, "grey \(level) -> \(color)")
        }
    }

    func testNearest256IsCloseToTheExhaustiveBest() {
        var generator = SeededGenerator(seed: 11)
        var exact = 0
        let samples = 5000
        for _ in 0..<samples {
            let color = RGBColor(rawValue: UInt32.random(in: 0...0xFF_FFFF, using: &generator))
            let chosen = PaletteMatcher.nearest256(color)
            XCTAssertTrue((16...255).contains(chosen))
            let best = (16...255).map { PaletteMatcher.distance(color, PaletteMatcher.color(ofIndex: UInt8($0))) }.min()!
            let distance = PaletteMatcher.distance(color, PaletteMatcher.color(ofIndex: chosen))
            if distance == best { exact += 1 }
            // Searching only the cube corners around the colour may miss the metric's optimum, but barely.
            XCTAssertLessThanOrEqual(distance, best + best / 8, "\(color): chose \(chosen) at \(distance), best \(best)")
        }
        XCTAssertGreaterThanOrEqual(exact * 100, samples * 99, "exact best in \(exact) of \(samples)")
    }

    func testSixteenColoursAreValidAndSensible() {
        XCTAssertEqual(PaletteMatcher.nearest16(.black), 0)
        XCTAssertEqual(PaletteMatcher.nearest16(.white), 15)
        XCTAssertEqual(PaletteMatcher.nearest16(RGBColor(rawValue: 0xFF0000)), 9)
        XCTAssertEqual(PaletteMatcher.nearest16(RGBColor(rawValue: 0x00FF00)), 10)
        // Pure blue: the palette's blues are 0000EE (4) and 5C5CFF (12); the plain one is closer.
        XCTAssertEqual(PaletteMatcher.nearest16(RGBColor(rawValue: 0x0000FF)), 4)
        XCTAssertEqual(PaletteMatcher.nearest16(RGBColor(rawValue: 0x808080)), 8)
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
