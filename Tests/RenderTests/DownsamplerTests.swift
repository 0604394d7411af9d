import TestSupport
import PhosphorKit
@testable import Render
import XCTest

final class DownsamplerTests: XCTestCase {
    private func pixel(_ canvas: CellCanvas, x: Int, y: Int) -> RGBColor {
        let cell = canvas[x, y / 2]
        if cell.character != Cell.upperHalfBlock { return cell.background }
        return y % 2 == 0 ? cell.foreground : cell.background
    }

    func testOneToOneCopiesExactColoursAndBarsTheRest() throws {
        var generator = SeededGenerator(seed: 1)
        let frame = TestFrame.random(width: 16, height: 8, paletteSize: 1000, using: &generator)
        var canvas = CellCanvas(columns: 20, rows: 6, background: .white)
        let bar = RGBColor(rawValue: 0x123456)
        try frame.withSource { source in
            let layout = Downsampler().draw(source, from: source.bounds, into: canvas.bounds, on: &canvas,
                                            options: ScalingOptions(integerScaling: true, barColor: bar))
            // 20x12 pixels hold one copy of 16x8: centred at (2, 2).
            XCTAssertEqual(layout.integerScale, 1)
            XCTAssertEqual(layout.picture, PixelRect(x: (20 - 16) / 2, y: (12 - 8) / 2, width: 16, height: 8))
            for y in 0..<12 {
                for x in 0..<20 {
                    let inside = x >= 2 && x < 18 && y >= 2 && y < 10
                    let expected = inside ? source.color(x: x - 2, y: y - 2) : bar
                    XCTAssertEqual(pixel(canvas, x: x, y: y), expected, "(\(x), \(y))")
                }
            }
        }
    }

    func testIntegerScalingReplicatesEachPixelIntoASquareBlock() throws {
        var generator = SeededGenerator(seed: 2)
        let frame = TestFrame.random(width: 10, height: 6, paletteSize: 50, using: &generator)
        var canvas = CellCanvas(columns: 33, rows: 10)
        try frame.withSource { source in
            let layout = Downsampler().draw(source, from: source.bounds, into: canvas.bounds, on: &canvas,
                                            options: ScalingOptions(aspectRatio: 4.0 / 3.0, integerScaling: true))
            let scale = min(33 / 10, 20 / 6)
            XCTAssertEqual(layout.integerScale, scale)
            XCTAssertEqual(layout.picture, PixelRect(x: (33 - 10 * scale) / 2, y: (20 - 6 * scale) / 2, width: 10 * scale, height: 6 * scale))
            for y in 0..<layout.picture.height {
                for x in 0..<layout.picture.width {
                    XCTAssertEqual(pixel(canvas, x: layout.picture.x + x, y: layout.picture.y + y), source.color(x: x / scale, y: y / scale))
                }
            }
        }
    }

    func testCheckerboardAveragesToGrey() throws {
        // 4x4 checker of two colours, drawn into 2x2 pixels: every output pixel covers two of each.
        let a: UInt32 = 0xFF_FFFF, b: UInt32 = 0x20_4060
        let colors = (0..<16).map { i in ((i % 4) + (i / 4)) % 2 == 0 ? a : b }
        var canvas = CellCanvas(columns: 2, rows: 1)
        try TestFrame(width: 4, height: 4, colors: colors).withSource { source in
            Downsampler().draw(source, from: source.bounds, into: canvas.bounds, on: &canvas,
                               options: ScalingOptions(snapsToFrameColors: false))
        }
        func mean(_ shift: UInt32) -> UInt32 { ((a >> shift & 0xFF) * 2 + (b >> shift & 0xFF) * 2 + 2) / 4 }
        let expected = RGBColor(rawValue: mean(16) << 16 | mean(8) << 8 | mean(0))
        XCTAssertEqual(canvas[0, 0], Cell(top: expected, bottom: expected))
        XCTAssertEqual(canvas[1, 0], Cell(top: expected, bottom: expected))
    }

    /// Box filter in Double arithmetic, the definition the integer version must match.
    private func referenceAverage(_ source: FrameSource, rect: PixelRect, outputWidth: Int, outputHeight: Int, x: Int, y: Int) -> [Double] {
        let scaleX = Double(rect.width) / Double(outputWidth), scaleY = Double(rect.height) / Double(outputHeight)
        let left = Double(x) * scaleX, right = Double(x + 1) * scaleX
        let top = Double(y) * scaleY, bottom = Double(y + 1) * scaleY
        var sums = [0.0, 0.0, 0.0], area = 0.0
        for sy in Int(top)..<min(rect.height, Int(bottom.rounded(.up))) {
            let coverY = min(bottom, Double(sy + 1)) - max(top, Double(sy))
            for sx in Int(left)..<min(rect.width, Int(right.rounded(.up))) {
                let coverX = min(right, Double(sx + 1)) - max(left, Double(sx))
                let weight = coverX * coverY
                guard weight > 0 else { continue }
                let color = source.color(x: rect.x + sx, y: rect.y + sy)
                sums[0] += weight * Double(color.red)
                sums[1] += weight * Double(color.green)
                sums[2] += weight * Double(color.blue)
                area += weight
            }
        }
        return sums.map { $0 / area }
    }

    func testAreaAverageMatchesAReferenceBoxFilterAtOddRatios() throws {
        var generator = SeededGenerator(seed: 3)
        // (source width, height, target columns, rows, display aspect): odd ratios, upscaling, and
        // one axis 1:1 while the other averages (the horizontal and vertical fast paths).
        let cases: [(Int, Int, Int, Int, Double?)] = [
            (37, 23, 16, 5, nil), (64, 48, 25, 9, nil), (13, 40, 7, 11, nil), (20, 10, 33, 8, nil),
            (16, 64, 16, 8, 1.0), (64, 16, 16, 8, 2.0), (30, 20, 30, 10, nil),
        ]
        for (width, height, columns, rows, aspect) in cases {
            let frame = TestFrame.random(width: width + 6, height: height + 4, paletteSize: 4096, using: &generator)
            var canvas = CellCanvas(columns: columns, rows: rows)
            let rect = PixelRect(x: 3, y: 2, width: width, height: height)
            try frame.withSource { source in
                let layout = Downsampler().draw(source, from: rect, into: canvas.bounds, on: &canvas, options: ScalingOptions(aspectRatio: aspect))
                let picture = layout.picture
                var worst = 0.0
                for y in 0..<picture.height {
                    for x in 0..<picture.width {
                        let reference = referenceAverage(source, rect: rect, outputWidth: picture.width, outputHeight: picture.height, x: x, y: y)
                        let drawn = pixel(canvas, x: picture.x + x, y: picture.y + y)
                        let channels = [Double(drawn.red), Double(drawn.green), Double(drawn.blue)]
                        for c in 0..<3 { worst = max(worst, abs(channels[c] - reference[c])) }
                    }
                }
                XCTAssertLessThanOrEqual(worst, 1.0, "\(width)x\(height) into \(columns)x\(rows): max channel error \(worst)")
            }
        }
    }

    func testAspectRatioIsKeptWithCellsTwoPixelsTall() {
        let target = CellRect(x: 0, y: 0, columns: 200, rows: 50)
        // 256x224 (8:7) in 200x100 pixels: height-bound.
        let snes = PictureLayout.fit(sourceWidth: 256, sourceHeight: 224, into: target, options: ScalingOptions())
        let width = Int((100.0 * 256.0 / 224.0).rounded())
        XCTAssertEqual(snes.picture, PixelRect(x: (200 - width) / 2, y: 0, width: width, height: 100))
        XCTAssertNil(snes.integerScale)
        // A caller's 4:3 display aspect overrides the pixel count.
        let nes = PictureLayout.fit(sourceWidth: 256, sourceHeight: 240, into: target, options: ScalingOptions(aspectRatio: 4.0 / 3.0))
        XCTAssertEqual(nes.picture.width, Int((100.0 * 4.0 / 3.0).rounded()))
        XCTAssertEqual(nes.picture.height, 100)
        // A wide picture in a tall target is width-bound and letterboxed, centred vertically.
        let tall = PictureLayout.fit(sourceWidth: 160, sourceHeight: 144, into: CellRect(x: 5, y: 3, columns: 40, rows: 60), options: ScalingOptions())
        let height = Int((40.0 * 144.0 / 160.0).rounded())
        XCTAssertEqual(tall.picture, PixelRect(x: 5, y: 6 + (120 - height) / 2, width: 40, height: height))
        // Too small for 1:1: integer scaling falls back to averaging.
        let small = PictureLayout.fit(sourceWidth: 256, sourceHeight: 224, into: target, options: ScalingOptions(integerScaling: true))
        XCTAssertNil(small.integerScale)
    }

    func testUnusableAspectRatiosFallBackOrClamp() {
        let target = CellRect(x: 0, y: 0, columns: 40, rows: 10)
        let square = PictureLayout.fit(sourceWidth: 20, sourceHeight: 20, into: target, options: ScalingOptions())
        for bad in [0.0, -1.0, .nan, .infinity] {
            XCTAssertEqual(PictureLayout.fit(sourceWidth: 20, sourceHeight: 20, into: target, options: ScalingOptions(aspectRatio: bad)), square, "\(bad)")
        }
        let thin = PictureLayout.fit(sourceWidth: 20, sourceHeight: 20, into: target, options: ScalingOptions(aspectRatio: 1e-300))
        XCTAssertEqual(thin.picture.height, 20)
        XCTAssertEqual(thin.picture.width, 1)
        let wide = PictureLayout.fit(sourceWidth: 20, sourceHeight: 20, into: target, options: ScalingOptions(aspectRatio: 1e300))
        XCTAssertEqual(wide.picture.width, 40)
        XCTAssertEqual(wide.picture.height, 1)
    }

    func testTwoPlacementsOfOneFrameComposeSideBySide() throws {
        // A DS-shaped frame: top half red, bottom half blue, drawn as two screens side by side.
        let width = 8, height = 12
        let colors = (0..<(width * height)).map { $0 / width < height / 2 ? UInt32(0xFF0000) : UInt32(0x0000FF) }
        var canvas = CellCanvas(columns: 16, rows: 3)
        try TestFrame(width: width, height: height, colors: colors).withSource { source in
            let downsampler = Downsampler()
            downsampler.draw(source, from: PixelRect(x: 0, y: 0, width: 8, height: 6), into: CellRect(x: 0, y: 0, columns: 8, rows: 3), on: &canvas, options: ScalingOptions(integerScaling: true))
            downsampler.draw(source, from: PixelRect(x: 0, y: 6, width: 8, height: 6), into: CellRect(x: 8, y: 0, columns: 8, rows: 3), on: &canvas, options: ScalingOptions(integerScaling: true))
        }
        for row in 0..<3 {
            for column in 0..<16 {
                let expected = RGBColor(rawValue: column < 8 ? 0xFF0000 : 0x0000FF)
                XCTAssertEqual(canvas[column, row], Cell(top: expected, bottom: expected), "(\(column), \(row))")
            }
        }
    }

    func testOddPictureOffsetSharesACellWithTheBar() throws {
        // 4x3 pixels 1:1 in 4x2 cells (4x4 pixels): centred at y = 0 ((4-3)/2 = 0), last half row is bar.
        let colors = [UInt32](repeating: 0x00FF00, count: 12)
        var canvas = CellCanvas(columns: 4, rows: 2)
        try TestFrame(width: 4, height: 3, colors: colors).withSource { source in
            Downsampler().draw(source, from: source.bounds, into: canvas.bounds, on: &canvas,
                               options: ScalingOptions(integerScaling: true, barColor: RGBColor(rawValue: 0x101010)))
        }
        XCTAssertEqual(canvas[0, 1], Cell(top: RGBColor(rawValue: 0x00FF00), bottom: RGBColor(rawValue: 0x101010)))
        XCTAssertEqual(canvas[3, 0], Cell(top: RGBColor(rawValue: 0x00FF00), bottom: RGBColor(rawValue: 0x00FF00)))
    }
}

final class FrameColorSnappingTests: XCTestCase {
    /// Distinct colours in the picture cells of a canvas.
    private func colors(in canvas: CellCanvas) -> Set<RGBColor> {
        Set(canvas.cells.flatMap { [$0.foreground, $0.background] })
    }

    func testAFewColourFrameScaledBy094KeepsItsColoursAndHardEdges() throws {
        // Pixel art: 8x8 tiles of four colours, as a GBC frame.
        let palette: [UInt32] = [0x0F380F, 0x306230, 0x8BAC0F, 0x9BBC0F]
        var colors160: [UInt32] = []
        for y in 0..<144 {
            for x in 0..<160 {
                let tile: Int = x / 8 + (y / 8) * 3
                colors160.append(palette[tile % 4])
            }
        }
        let frame = TestFrame(width: 160, height: 144, colors: colors160)
        func draw(snapping: Bool) throws -> CellCanvas {
            var canvas = CellCanvas(columns: 151, rows: 77)
            try frame.withSource { source in
                let layout = Downsampler().draw(source, from: source.bounds, into: canvas.bounds, on: &canvas,
                                                options: ScalingOptions(barColor: RGBColor(rawValue: palette[0]), snapsToFrameColors: snapping))
                XCTAssertNil(layout.integerScale)
            }
            return canvas
        }
        let snapped = colors(in: try draw(snapping: true))
        XCTAssertTrue(snapped.isSubset(of: Set(palette.map { RGBColor(rawValue: $0) })), "\(snapped.count) colours")
        XCTAssertGreaterThan(colors(in: try draw(snapping: false)).count, 8, "averaging blends neighbours")
    }

    func testBelowHalfSizeAManyColourFrameIsAveragedAsBefore() throws {
        var generator = SeededGenerator(seed: 3)
        let frame = TestFrame.random(width: 64, height: 64, paletteSize: 200, using: &generator)
        XCTAssertEqual(try draw(frame, columns: 24, rows: 12, snapping: true).cells,
                       try draw(frame, columns: 24, rows: 12, snapping: false).cells)
    }

    /// The whole frame drawn on a fresh canvas of this size.
    private func draw(_ frame: TestFrame, columns: Int, rows: Int, snapping: Bool) throws -> CellCanvas {
        var canvas = CellCanvas(columns: columns, rows: rows)
        try frame.withSource { source in
            Downsampler().draw(source, from: source.bounds, into: canvas.bounds, on: &canvas,
                               options: ScalingOptions(snapsToFrameColors: snapping))
        }
        return canvas
    }

    /// Nearest sampling counts colours as it draws: a frame whose last rows bring the colours
    /// over the limit is averaged after all, every pixel of it (none left from the nearest pass).
    func testColoursOverTheLimitInTheLastRowsStillMeanAveraging() throws {
        var generator = SeededGenerator(seed: 5)
        let palette = (0..<16).map { _ in UInt32.random(in: 0...0xFF_FFFF, using: &generator) }
        var values = (0..<(40 * 30)).map { _ in palette[Int.random(in: 0..<16, using: &generator)] }
        for i in 0..<80 { values[28 * 40 + i] = 0x10_0000 + UInt32(i) * 0x0103 }  // 16 + 80 colours: over 64
        let frame = TestFrame(width: 40, height: 30, colors: values)
        let averaged = try draw(frame, columns: 30, rows: 12, snapping: false)
        XCTAssertEqual(try draw(frame, columns: 30, rows: 12, snapping: true).cells, averaged.cells)
        // Not what nearest sampling shows (the 16 colours and 60 of the new ones at most): blends.
        XCTAssertGreaterThan(colors(in: averaged).count, 76)
    }

    /// The colours are counted on every `recountInterval`-th frame of a placement: a cut from
    /// pixel art to a many-coloured scene is still sampled for the frames in between, then averaged.
    func testTheFilterFollowsACutToManyColoursAtTheNextCount() throws {
        var generator = SeededGenerator(seed: 6)
        let few = TestFrame.random(width: 40, height: 30, paletteSize: 16, using: &generator)
        let manyColors = randomColors(count: 40 * 30, paletteSize: 200, using: &generator)
        let many = TestFrame(width: 40, height: 30, colors: manyColors)
        let shownColors = Set(manyColors.map { RGBColor(rawValue: $0) } + [ScalingOptions().barColor])
        let downsampler = Downsampler()
        func drawn(_ frame: TestFrame) throws -> CellCanvas {
            var canvas = CellCanvas(columns: 30, rows: 12)
            try frame.withSource { source in
                downsampler.draw(source, from: source.bounds, into: canvas.bounds, on: &canvas,
                                 options: ScalingOptions(snapsToFrameColors: true))
            }
            return canvas
        }
        let averaged = try draw(many, columns: 30, rows: 12, snapping: false)
        XCTAssertEqual(try drawn(few).cells, try draw(few, columns: 30, rows: 12, snapping: true).cells)
        for frame in 1..<Downsampler.recountInterval {
            let canvas = try drawn(many)
            XCTAssertNotEqual(canvas.cells, averaged.cells, "frame \(frame) reuses the count: nearest sampling")
            XCTAssertTrue(colors(in: canvas).isSubset(of: shownColors), "frame \(frame): only the frame's own colours")
        }
        XCTAssertEqual(try drawn(many).cells, averaged.cells, "the next count finds too many colours")
        XCTAssertEqual(try drawn(many).cells, averaged.cells)
    }

    private func randomColors(count: Int, paletteSize: Int, using generator: inout SeededGenerator) -> [UInt32] {
        let palette = (0..<paletteSize).map { _ in UInt32.random(in: 0...0xFF_FFFF, using: &generator) }
        return (0..<count).map { _ in palette[Int.random(in: 0..<paletteSize, using: &generator)] }
    }

    /// Two placements (a DS frame's screens) keep their own counts: drawn in turn, each is drawn
    /// as a fresh downsampler draws it.
    func testEachPlacementKeepsItsOwnFilter() throws {
        var generator = SeededGenerator(seed: 7)
        let top = randomColors(count: 40 * 30, paletteSize: 16, using: &generator)
        let bottom = randomColors(count: 40 * 30, paletteSize: 200, using: &generator)
        let frame = TestFrame(width: 40, height: 60, colors: top + bottom)
        let halves = [PixelRect(x: 0, y: 0, width: 40, height: 30), PixelRect(x: 0, y: 30, width: 40, height: 30)]
        func drawn(_ half: PixelRect, by downsampler: Downsampler) throws -> CellCanvas {
            var canvas = CellCanvas(columns: 30, rows: 12)
            try frame.withSource { source in
                downsampler.draw(source, from: half, into: canvas.bounds, on: &canvas, options: ScalingOptions(snapsToFrameColors: true))
            }
            return canvas
        }
        let expected = try halves.map { try drawn($0, by: Downsampler()) }
        XCTAssertNotEqual(expected[0].cells, expected[1].cells)
        let downsampler = Downsampler()
        for turn in 0..<(2 * Downsampler.recountInterval + 1) {
            for (index, half) in halves.enumerated() {
                XCTAssertEqual(try drawn(half, by: downsampler).cells, expected[index].cells, "turn \(turn), screen \(index)")
            }
        }
    }

    func testDownToHalfSizeEachPixelIsTheSourcePixelUnderItsCentre() throws {
        // Pixel art (16 colours); a frame of many colours is averaged instead (the test above).
        var generator = SeededGenerator(seed: 4)
        let frame = TestFrame.random(width: 40, height: 30, paletteSize: 16, using: &generator)
        var canvas = CellCanvas(columns: 30, rows: 12)
        try frame.withSource { source in
            let layout = Downsampler().draw(source, from: source.bounds, into: canvas.bounds, on: &canvas)
            XCTAssertEqual(layout.picture.width, 30)
            for y in 0..<layout.picture.height {
                for x in 0..<layout.picture.width {
                    let cell = canvas[layout.picture.x + x, (layout.picture.y + y) / 2]
                    let shown = (layout.picture.y + y) % 2 == 0 ? cell.foreground : cell.background
                    let sourceX = (2 * x + 1) * 40 / (2 * layout.picture.width), sourceY = (2 * y + 1) * 30 / (2 * layout.picture.height)
                    XCTAssertEqual(shown, source.color(x: sourceX, y: sourceY))
                }
            }
        }
    }

    func testJustAboveAWholeScaleIsDrawnAtTheWholeScale() {
        // 168x154 pixels for a 160x144 frame: 1.05x would blend, 1x leaves thin bars.
        let layout = PictureLayout.fit(sourceWidth: 160, sourceHeight: 144, into: CellRect(x: 0, y: 0, columns: 168, rows: 77),
                                       options: ScalingOptions())
        XCTAssertEqual(layout.integerScale, 1)
        XCTAssertEqual(layout.picture, PixelRect(x: 4, y: 5, width: 160, height: 144))
        // A non-square pixel aspect (NES 4:3) keeps its fitted size.
        let nes = PictureLayout.fit(sourceWidth: 256, sourceHeight: 240, into: CellRect(x: 0, y: 0, columns: 330, rows: 125),
                                    options: ScalingOptions(aspectRatio: 4.0 / 3.0))
        XCTAssertNil(nes.integerScale)
    }
}
