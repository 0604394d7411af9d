import TestSupport
import PhosphorKit
import Render
import XCTest


/// An owned frame buffer in any pixel format, with optional row padding.
struct TestFrame {
    var width: Int
    var height: Int
    var pitch: Int
    var format: PixelFormat
    var bytes: [UInt8]

    /// XRGB8888 frame from 0x00RRGGBB colours, rows `padding` bytes longer than needed.
    init(width: Int, height: Int, colors: [UInt32], padding: Int = 0) {
        precondition(colors.count == width * height)
        self.init(width: width, height: height, format: .xrgb8888, padding: padding, values: colors)
    }

    /// A frame from raw pixel values as the format stores them (16-bit values for 1555/565).
    init(width: Int, height: Int, format: PixelFormat, padding: Int = 0, values: [UInt32]) {
        self.width = width
        self.height = height
        self.format = format
        pitch = width * format.bytesPerPixel + padding
        bytes = [UInt8](repeating: 0xAB, count: pitch * height)
        for y in 0..<height {
            for x in 0..<width {
                setRaw(x: x, y: y, values[y * width + x])
            }
        }
    }

    mutating func setRaw(x: Int, y: Int, _ value: UInt32) {
        let offset = y * pitch + x * format.bytesPerPixel
        for i in 0..<format.bytesPerPixel {
            bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * i))
        }
    }

    @discardableResult
    func withSource<R>(_ body: (FrameSource) throws -> R) throws -> R {
        try FrameSource.withPixels(bytes, width: width, height: height, pitch: pitch, format: format, body)
    }

    static func random(width: Int, height: Int, paletteSize: Int, using generator: inout SeededGenerator) -> TestFrame {
        let palette = (0..<paletteSize).map { _ in UInt32.random(in: 0...0xFF_FFFF, using: &generator) }
        let colors = (0..<(width * height)).map { _ in palette[Int.random(in: 0..<paletteSize, using: &generator)] }
        return TestFrame(width: width, height: height, colors: colors)
    }
}
