import TestSupport
import PhosphorKit
@testable import Render
import XCTest

final class PixelDecoderTests: XCTestCase {
    /// The two-byte tables rest on every output bit copying one input bit: checked on every value.
    func testTableDecodingEqualsTheFormatsDecodingForEverySixteenBitValue() {
        for format in [PixelFormat.rgb565, .rgb1555] {
            let decoder = PixelDecoder(format: format)
            var stored = [UInt8](repeating: 0, count: 65536 * 2)
            for value in 0..<65536 {
                stored[2 * value] = UInt8(value & 0xFF)
                stored[2 * value + 1] = UInt8(value >> 8)
            }
            var decoded = [UInt32](repeating: 0xDEAD_BEEF, count: 65536)
            stored.withUnsafeBytes { raw in
                decoded.withUnsafeMutableBufferPointer { decoder.decode(raw.baseAddress!, count: 65536, into: $0.baseAddress!) }
            }
            for value in 0..<65536 where decoded[value] != format.rgb(fromPixel: UInt32(value)) {
                XCTFail("\(format) \(String(value, radix: 16)): \(String(decoded[value], radix: 16))")
                break
            }
        }
    }

    func testSampledColumnsDecodeTheirOwnPixels() {
        var generator = SeededGenerator(seed: 21)
        for format in PixelFormat.allCases {
            let decoder = PixelDecoder(format: format)
            let values = (0..<37).map { _ in UInt32.random(in: 0...UInt32.max, using: &generator) }
            let frame = TestFrame(width: 37, height: 1, format: format, values: values)
            let columns: [Int32] = [0, 0, 5, 36, 17, 2]
            var decoded = [UInt32](repeating: 0, count: columns.count)
            frame.bytes.withUnsafeBytes { raw in
                columns.withUnsafeBufferPointer { map in
                    decoder.decode(raw.baseAddress!, columns: map.baseAddress!, count: columns.count) { decoded[$0] = $1 }
                }
            }
            let bytesPerPixel = format.bytesPerPixel
            let expected = columns.map { format.rgb(fromPixel: values[Int($0)] & (bytesPerPixel == 2 ? 0xFFFF : UInt32.max)) }
            XCTAssertEqual(decoded, expected, "\(format)")
        }
    }

    /// Counting on raw values (a bit per 16-bit value, words equal to one of the two before skipped; a hash for XRGB) finds what counting the
    /// decoded colours finds: the same number of colours, and over the limit on the same row.
    func testRawColourCountEqualsTheDecodedColourCountOnRandomFrames() {
        var generator = SeededGenerator(seed: 22)
        for format in PixelFormat.allCases {
            let decoder = PixelDecoder(format: format)
            for trial in 0..<60 {
                let width = Int.random(in: 1...41, using: &generator), height = Int.random(in: 1...12, using: &generator)
                // Around the limit; runs of one value, and stored bits the colour ignores set at random.
                let paletteSize = Int.random(in: 50...80, using: &generator)
                let palette = (0..<paletteSize).map { _ in UInt32.random(in: 0...UInt32.max, using: &generator) & decoder.valueMask }
                var values: [UInt32] = []
                while values.count < width * height {
                    let value = palette[Int.random(in: 0..<paletteSize, using: &generator)]
                    for _ in 0..<Int.random(in: 1...9, using: &generator) where values.count < width * height {
                        let ignored = UInt32.random(in: 0...UInt32.max, using: &generator) & ~decoder.valueMask
                        values.append(value | (format == .rgb565 ? 0 : ignored & (format == .rgb1555 ? 0x8000 : 0xFF00_0000)))
                    }
                }
                let frame = TestFrame(width: width, height: height, format: format, values: values)
                var raw = DistinctValues(limit: FramePalette.limit)
                var decoded = FramePalette()
                var previous = UInt32.max
                frame.bytes.withUnsafeBytes { bytes in
                    for y in 0..<height {
                        decoder.noteColors(bytes.baseAddress! + y * frame.pitch, count: width, previous: &previous, in: &raw)
                        for x in 0..<width { decoded.insert(format.rgb(fromPixel: values[y * width + x])) }
                        XCTAssertEqual(raw.isOverLimit, decoded.isOverLimit, "\(format) trial \(trial) row \(y)")
                    }
                }
                if !raw.isOverLimit { XCTAssertEqual(raw.count, decoded.colors.count, "\(format) trial \(trial)") }
            }
        }
    }

    /// XRGB rows are counted a pair of pixels at a time while they repeat the last colour, and a
    /// colour equal to the one before the last is not looked up: rows of runs (odd and even
    /// lengths), two colours alternating, and rows that start with the last colour of the row
    /// before count each colour once, and a new colour among the alternation is still found.
    func testXRGBRowsOfRunsAndAlternationsCountEveryColourOnce() {
        let decoder = PixelDecoder(format: .xrgb8888)
        let a: UInt32 = 0x11_2233, b: UInt32 = 0xFF_0000, c: UInt32 = 0x00_00FF, d: UInt32 = 0x12_3456
        let rows: [[UInt32]] = [
            [a, a, a, b, b, a],
            [a, b, a, b, a, b, a],            // starts with the last colour of the row before
            [b, a, b, a, c, a, c, b, b, b],   // c appears inside an alternation
            [b],
            [b, b, b, b, b, b, b, d],         // a new colour after an even run
            [d, d, d, c, a],
        ]
        var raw = DistinctValues(limit: FramePalette.limit)
        var previous = UInt32.max
        var seen = Set<UInt32>()
        for (index, row) in rows.enumerated() {
            // The stored X byte is ignored: give each pixel a different one.
            let stored = row.enumerated().map { $0.element | UInt32(truncatingIfNeeded: $0.offset &* 37) << 24 }
            stored.withUnsafeBytes { bytes in
                decoder.noteColors(bytes.baseAddress!, count: row.count, previous: &previous, in: &raw)
            }
            seen.formUnion(row)
            XCTAssertEqual(raw.count, seen.count, "after row \(index)")
            XCTAssertEqual(previous, row.last, "the last colour is carried to the next row")
        }
        XCTAssertEqual(raw.count, 4)
    }

    /// Nearest sampling of a 16-bit frame (colours counted raw, only sampled pixels decoded) draws
    /// what the same picture handed over as XRGB8888 draws: under the limit nearest pixels, one
    /// colour over it area averaging, for both.
    func testSixteenBitFramesDrawAsTheirThirtyTwoBitEquivalents() throws {
        var generator = SeededGenerator(seed: 23)
        for format in [PixelFormat.rgb565, .rgb1555] {
            for colorCount in [1, 63, 64, 65, 300] {
                let mask: UInt32 = format == .rgb565 ? 0xFFFF : 0x7FFF
                var palette = Set<UInt32>()
                while palette.count < colorCount { palette.insert(UInt32.random(in: 0...mask, using: &generator)) }
                let colors = Array(palette)
                var values = (0..<(43 * 31)).map { _ in colors[Int.random(in: 0..<colorCount, using: &generator)] }
                for (index, color) in colors.enumerated() { values[index] = color }  // every colour present
                if format == .rgb1555 { values = values.map { $0 | (Bool.random(using: &generator) ? 0x8000 : 0) } }
                let sixteen = TestFrame(width: 43, height: 31, format: format, values: values)
                let thirtyTwo = TestFrame(width: 43, height: 31, colors: values.map { format.rgb(fromPixel: $0) })
                for (columns, rows) in [(30, 12), (50, 20), (20, 6)] {
                    let drawn = try draw(sixteen, columns: columns, rows: rows)
                    XCTAssertEqual(drawn.cells, try draw(thirtyTwo, columns: columns, rows: rows).cells,
                                   "\(format), \(colorCount) colours, \(columns)x\(rows)")
                    if columns == 30 && colorCount > FramePalette.limit {
                        // Over the limit: averaged, so blends the source does not have appear.
                        let shown = Set(drawn.cells.flatMap { [$0.foreground, $0.background] }).subtracting([ScalingOptions().barColor])
                        XCTAssertFalse(shown.isSubset(of: Set(values.map { RGBColor(rawValue: format.rgb(fromPixel: $0)) })))
                    }
                }
            }
        }
    }

    private func draw(_ frame: TestFrame, columns: Int, rows: Int) throws -> CellCanvas {
        var canvas = CellCanvas(columns: columns, rows: rows)
        try frame.withSource { source in
            // From the second column: rows that do not start on an eight-byte boundary.
            let rect = PixelRect(x: 1, y: 0, width: source.width - 1, height: source.height)
            Downsampler().draw(source, from: rect, into: canvas.bounds, on: &canvas, options: ScalingOptions(snapsToFrameColors: true))
        }
        return canvas
    }
}
