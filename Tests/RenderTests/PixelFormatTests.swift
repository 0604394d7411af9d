import TestSupport
import PhosphorKit
import Render
import XCTest

final class PixelFormatTests: XCTestCase {
    /// Decodes one raw pixel through a real FrameSource, the path the renderer reads.
    private func decode(_ value: UInt32, _ format: PixelFormat) throws -> RGBColor {
        try TestFrame(width: 1, height: 1, format: format, values: [value]).withSource { $0.color(x: 0, y: 0) }
    }

    /// Draws a 1×2 frame 1:1 into one cell: the renderer's own row decoder.
    private func drawnColors(_ top: UInt32, _ bottom: UInt32, _ format: PixelFormat) throws -> (RGBColor, RGBColor) {
        var canvas = CellCanvas(columns: 1, rows: 1)
        try TestFrame(width: 1, height: 2, format: format, values: [top, bottom]).withSource { source in
            Downsampler().draw(source, from: source.bounds, into: canvas.bounds, on: &canvas,
                               options: ScalingOptions(integerScaling: true))
        }
        return (canvas[0, 0].foreground, canvas[0, 0].background)
    }

    func testWhiteStaysWhiteAndBlackStaysBlackInEveryFormat() throws {
        let white: [PixelFormat: UInt32] = [.xrgb8888: 0xFF_FFFF, .rgb565: 0xFFFF, .rgb1555: 0x7FFF]
        for (format, value) in white {
            XCTAssertEqual(try decode(value, format), .white, "\(format)")
            let drawn = try drawnColors(value, 0, format)
            XCTAssertEqual(drawn.0, .white, "\(format) drawn")
            XCTAssertEqual(drawn.1, .black, "\(format) drawn")
        }
    }

    func testPrimariesAndKnownValues() throws {
        // RGB565: 5-bit red, 6-bit green, 5-bit blue; widened by repeating the top bits.
        XCTAssertEqual(try decode(0xF800, .rgb565), RGBColor(rawValue: 0xFF0000))
        XCTAssertEqual(try decode(0x07E0, .rgb565), RGBColor(rawValue: 0x00FF00))
        XCTAssertEqual(try decode(0x001F, .rgb565), RGBColor(rawValue: 0x0000FF))
        // red 0b10000 -> 0b10000100, green 0b100000 -> 0b10000010, blue 0b00001 -> 0b00001000
        XCTAssertEqual(try decode(0b10000_100000_00001, .rgb565), RGBColor(red: 0b1000_0100, green: 0b1000_0010, blue: 0b0000_1000))
        // 0RGB1555: the top bit is ignored.
        XCTAssertEqual(try decode(0x7C00, .rgb1555), RGBColor(rawValue: 0xFF0000))
        XCTAssertEqual(try decode(0x03E0, .rgb1555), RGBColor(rawValue: 0x00FF00))
        XCTAssertEqual(try decode(0x801F, .rgb1555), RGBColor(rawValue: 0x0000FF))
        XCTAssertEqual(try decode(0b0_10000_00001_11110, .rgb1555), RGBColor(red: 0b1000_0100, green: 0b0000_1000, blue: 0b1111_0111))
        // XRGB8888: the X byte is ignored.
        XCTAssertEqual(try decode(0xFF12_3456, .xrgb8888), RGBColor(rawValue: 0x123456))
    }

    func testEveryPixelOfEveryFormatDecodesTheSameThroughTheRowPath() throws {
        var generator = SeededGenerator(seed: 7)
        for format in PixelFormat.allCases {
            let mask: UInt32 = format == .xrgb8888 ? 0xFFFF_FFFF : 0xFFFF
            let values = (0..<64).map { _ in UInt32.random(in: 0...UInt32.max, using: &generator) & mask }
            let frame = TestFrame(width: 8, height: 8, format: format, padding: 6, values: values)
            var canvas = CellCanvas(columns: 8, rows: 4)
            try frame.withSource { source in
                Downsampler().draw(source, from: source.bounds, into: canvas.bounds, on: &canvas, options: ScalingOptions(integerScaling: true))
                for y in 0..<8 {
                    for x in 0..<8 {
                        let cell = canvas[x, y / 2]
                        let drawn = y % 2 == 0 ? cell.foreground : cell.background
                        XCTAssertEqual(drawn, source.color(x: x, y: y), "\(format) (\(x), \(y))")
                        XCTAssertEqual(drawn.rawValue, format.rgb(fromPixel: values[y * 8 + x]))
                    }
                }
            }
        }
    }

    func testFrameSourceRejectsShortBuffersAndBadPitch() throws {
        let bytes = [UInt8](repeating: 0, count: 10)
        try bytes.withUnsafeBytes { raw in
            XCTAssertThrowsError(try FrameSource(bytes: raw, width: 2, height: 2, pitch: 8, format: .xrgb8888)) { error in
                XCTAssertEqual(error as? RenderError, .frameBufferTooSmall(width: 2, height: 2, pitch: 8, needed: 16, byteCount: 10))
                XCTAssertTrue("\(error)".contains("needs 16 bytes, got 10"), "\(error)")
            }
            XCTAssertThrowsError(try FrameSource(bytes: raw, width: 4, height: 1, pitch: 4, format: .rgb565))
            // The last row may end right after its last pixel.
            XCTAssertNoThrow(try FrameSource(bytes: raw, width: 1, height: 2, pitch: 6, format: .rgb565))
        }
    }
}
