import PhosphorKit
import Render
import TestSupport
import XCTest

/// Sixel images decoded back (`SixelImage`) to the pixels they were made from.
final class SixelEncoderTests: XCTestCase {
    /// A colour after sixel's per-cent round trip (what any terminal shows for it).
    private func shown(_ color: UInt32) -> UInt32 {
        func trip(_ component: UInt32) -> UInt32 {
            let percent = (Int(component) * 100 + 127) / 255
            return UInt32((percent * 255 + 50) / 100)
        }
        return trip(color >> 16) << 16 | trip(color >> 8 & 0xFF) << 8 | trip(color & 0xFF)
    }

    private func image(width: Int, height: Int, colors: Int, seed: UInt64) throws -> PixelImage {
        var generator = SeededGenerator(seed: seed)
        return try TestFrame.random(width: width, height: height, paletteSize: colors, using: &generator)
            .withSource { PixelImage($0, region: $0.bounds) }
    }

    private func assertDecodesExactly(_ image: PixelImage, scale: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        var bytes: [UInt8] = []
        let statistics = SixelEncoder.encode(image, scale: scale, registers: 256, into: &bytes)
        XCTAssertTrue(statistics.exactColors, file: file, line: line)
        let decoded = try SixelImage.decode(bytes)
        XCTAssertEqual(decoded.width, image.width * scale, file: file, line: line)
        XCTAssertEqual(decoded.height, image.height * scale, file: file, line: line)
        var wrong = 0
        for y in 0..<decoded.height {
            for x in 0..<decoded.width where decoded.pixels[y * decoded.width + x] != shown(image.color(x: x / scale, y: y / scale)) {
                wrong += 1
            }
        }
        XCTAssertEqual(wrong, 0, "pixels that differ", file: file, line: line)
        XCTAssertEqual(decoded.overdrawn, 0, "pixels drawn twice", file: file, line: line)
    }

    /// `image` (more colours than `registers`) encoded and decoded: every register used, none
    /// of the colours exact, no pixel drawn twice.
    private func decodeQuantised(_ image: PixelImage, scale: Int, registers: Int,
                                 file: StaticString = #filePath, line: UInt = #line) throws -> SixelImage {
        var bytes: [UInt8] = []
        let statistics = SixelEncoder.encode(image, scale: scale, registers: registers, into: &bytes)
        XCTAssertFalse(statistics.exactColors, file: file, line: line)
        XCTAssertEqual(statistics.colors, registers, file: file, line: line)
        let decoded = try SixelImage.decode(bytes)
        XCTAssertEqual(decoded.overdrawn, 0, "pixels drawn twice", file: file, line: line)
        return decoded
    }

    func testFewColoursComeBackExactlyAtOneToOne() throws {
        // 23 rows: the last band is not full.
        try assertDecodesExactly(try image(width: 37, height: 23, colors: 20, seed: 1), scale: 1)
    }

    func testWholeScalesRepeatEveryPixel() throws {
        try assertDecodesExactly(try image(width: 40, height: 17, colors: 12, seed: 2), scale: 3)
        try assertDecodesExactly(try image(width: 16, height: 5, colors: 2, seed: 3), scale: 2)
    }

    func testABandWithHundredsOfColoursComesBackExactly() throws {
        // 230 colours, nearly all of them in every band: each colour's runs have gaps everywhere.
        try assertDecodesExactly(try image(width: 256, height: 12, colors: 230, seed: 4), scale: 1)
        try assertDecodesExactly(try image(width: 64, height: 6, colors: 230, seed: 5), scale: 3)
    }

    func testADoubleScreenAtThreeTimesComesBackExactly() throws {
        // A DS frame: two 256x192 screens of different pictures, one above the other.
        let top = try image(width: 256, height: 192, colors: 40, seed: 6)
        let bottom = try image(width: 256, height: 192, colors: 9, seed: 60)
        try assertDecodesExactly(PixelImage(width: 256, height: 384, rgb: top.rgb + bottom.rgb), scale: 3)
    }

    func testHeightsThatAreNotWholeBandsAndScalesThatSplitARowAcrossBands() throws {
        // Scale 4 and 5: a source row's copies fall into two bands; 7, 11 and 13 rows end mid-band.
        try assertDecodesExactly(try image(width: 9, height: 7, colors: 5, seed: 7), scale: 4)
        try assertDecodesExactly(try image(width: 13, height: 11, colors: 17, seed: 8), scale: 5)
        try assertDecodesExactly(try image(width: 1, height: 13, colors: 3, seed: 9), scale: 1)
        // Runs long enough for four-digit repeat counts.
        try assertDecodesExactly(PixelImage(width: 400, height: 1, rgb: Array(repeating: 7, count: 1200)), scale: 3)
    }

    func testMoreColoursThanRegistersAtThreeTimesAreQuantisedInEveryCopy() throws {
        var generator = SeededGenerator(seed: 10)
        let frame = TestFrame.random(width: 31, height: 17, paletteSize: 40, using: &generator)
        let decoded = try decodeQuantised(try frame.withSource { PixelImage($0, region: $0.bounds) }, scale: 3, registers: 16)
        // Every copy of a source pixel has that pixel's one register colour, and at most 16 appear.
        var shownColors = Set<UInt32>()
        for y in 0..<decoded.height {
            for x in 0..<decoded.width {
                let pixel = try XCTUnwrap(decoded.pixels[y * decoded.width + x], "(\(x), \(y)) not drawn")
                XCTAssertEqual(pixel, decoded.pixels[(y / 3 * 3) * decoded.width + x / 3 * 3], "(\(x), \(y))")
                shownColors.insert(pixel)
            }
        }
        XCTAssertLessThanOrEqual(shownColors.count, 16)
    }

    func testMoreColoursThanRegistersKeepTheMostUsedAndTakeTheNearest() throws {
        // 12 strong colours cover nearly everything; 8 rare ones sit next to one of them.
        var colors: [UInt32] = []
        let strong: [UInt32] = (0..<12).map { UInt32($0) * 0x151515 + 0x100000 }
        for index in 0..<(48 * 12) { colors.append(strong[index % 12]) }
        for rare in 0..<8 { colors[rare * 7] = strong[rare] + 0x000002 }
        let frame = TestFrame(width: 48, height: 12, colors: colors)
        let decoded = try decodeQuantised(try frame.withSource { PixelImage($0, region: $0.bounds) }, scale: 1, registers: 12)
        for index in decoded.pixels.indices {
            let source = colors[index]
            let nearest = strong.min { abs(Int($0) - Int(source)) < abs(Int($1) - Int(source)) }!
            XCTAssertEqual(decoded.pixels[index], shown(nearest), "pixel \(index)")
        }
    }

    func testThousandsOfColoursFallBackToTheGridWithinItsStep() throws {
        var colors: [UInt32] = []
        for y in 0..<128 {
            for x in 0..<256 { colors.append(UInt32(x) << 16 | UInt32(y * 2) << 8 | UInt32((x + y) & 0xFF)) }
        }
        let picture = try TestFrame(width: 256, height: 128, colors: colors).withSource { PixelImage($0, region: $0.bounds) }
        var bytes: [UInt8] = []
        let statistics = SixelEncoder.encode(picture, scale: 1, registers: 256, into: &bytes)
        XCTAssertFalse(statistics.exactColors)
        XCTAssertLessThanOrEqual(statistics.colors, 256)
        let decoded = try SixelImage.decode(bytes)
        var worst = 0
        for (index, pixel) in decoded.pixels.enumerated() {
            let got = try XCTUnwrap(pixel)
            for shift in [16, 8, 0] as [UInt32] {
                worst = max(worst, abs(Int(got >> shift & 0xFF) - Int(colors[index] >> shift & 0xFF)))
            }
        }
        // 3-3-2 bits: blue has 4 levels, 85 apart, so no component is more than half that off.
        XCTAssertLessThanOrEqual(worst, 45)
    }

    func testPlacementScalesByWholeMultiplesAndCentres() {
        let cell = CellPixelSize(width: 10, height: 20)
        let nes = PixelPlacement(pictureWidth: 256, height: 240, into: CellRect(x: 0, y: 0, columns: 80, rows: 30), cell: cell,
                                 aspectRatio: nil, integerScale: true)
        XCTAssertEqual(nes.pixelWidth, 512)
        XCTAssertEqual(nes.pixelHeight, 480)
        XCTAssertEqual(nes.cells, CellRect(x: 14, y: 3, columns: 52, rows: 24))

        let stretched = PixelPlacement(pictureWidth: 256, height: 240, into: CellRect(x: 0, y: 0, columns: 80, rows: 30),
                                       cell: cell, aspectRatio: 4.0 / 3.0, integerScale: false)
        XCTAssertEqual(stretched.cells, CellRect(x: 0, y: 0, columns: 80, rows: 30))
        XCTAssertEqual(stretched.pixelWidth, 800)
    }
}
