import PhosphorKit

extension ScriptedCore {
    /// A colour as three 5-bit channels (what all three pixel formats can show exactly, up to
    /// RGB565's sixth green bit).
    public struct Color5: Sendable, Equatable {
        public var red: UInt8
        public var green: UInt8
        public var blue: UInt8

        /// The background colour of a port 0 mask: bits 0–4 red, 5–9 green, 10–14 blue.
        public init(mask: ButtonMask) {
            red = UInt8(mask.rawValue & 0x1F)
            green = UInt8(mask.rawValue >> 5 & 0x1F)
            blue = UInt8(mask.rawValue >> 10 & 0x1F)
        }

        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red & 0x1F
            self.green = green & 0x1F
            self.blue = blue & 0x1F
        }

        public var inverted: Color5 { Color5(red: ~red, green: ~green, blue: ~blue) }

        /// The pixel value in `format`, as stored (little-endian).
        public func pixel(in format: PixelFormat) -> UInt32 {
            let r = UInt32(red), g = UInt32(green), b = UInt32(blue)
            switch format {
            case .rgb1555: return r << 10 | g << 5 | b
            case .rgb565: return r << 11 | (g << 1 | g >> 4) << 5 | b
            case .xrgb8888: return (r << 3 | r >> 2) << 16 | (g << 3 | g >> 2) << 8 | (b << 3 | b >> 2)
            }
        }
    }

    /// The left edge of the bar in frame `frame` (0-based) of a picture `width` pixels wide.
    public static func barX(frame: UInt64, width: Int) -> Int {
        width > 0 ? Int(frame * 2 % UInt64(width)) : 0
    }

    /// The picture of frame `frame` (0-based) with `masks` held (one per port; missing ports hold
    /// nothing), exactly as the core publishes it. Tests use it for the hash they expect.
    public static func picture(frame: UInt64, masks: [ButtonMask], script: Script) -> VideoFrame {
        var pixels: [UInt8] = []
        drawPicture(frame: frame, masks: masks, script: script, into: &pixels)
        return VideoFrame(width: script.width, height: script.height, format: script.pixelFormat, pixels: pixels,
                          sequence: frame + 1)
    }

    static func drawPicture(frame: UInt64, masks: [ButtonMask], script: Script, into pixels: inout [UInt8]) {
        let port0 = masks.first ?? [], port1 = masks.count > 1 ? masks[1] : []
        let format = script.pixelFormat, bytes = format.bytesPerPixel
        let background = Color5(mask: port0).pixel(in: format)
        let bar = (port1.isEmpty ? Color5(red: 0, green: 0, blue: 0) : Color5(mask: port1)).inverted.pixel(in: format)
        let barLeft = barX(frame: frame, width: script.width)
        let barRows = port0.contains(.of(.r3)) ? script.height / 2 : script.height
        let count = script.width * script.height * bytes
        if pixels.count != count { pixels = [UInt8](repeating: 0, count: count) }
        pixels.withUnsafeMutableBytes { raw in
            for y in 0..<script.height {
                for x in 0..<script.width {
                    let onBar = y < barRows && (x == barLeft || x == barLeft + 1)
                    let value = onBar ? bar : background
                    let offset = (y * script.width + x) * bytes
                    if bytes == 4 {
                        raw.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt32.self)
                    } else {
                        raw.storeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian, toByteOffset: offset, as: UInt16.self)
                    }
                }
            }
        }
    }

    /// Sample `position` of the tone: +amplitude for the first half of each period, −amplitude
    /// for the second.
    public static func toneSample(at position: UInt64, script: Script) -> Int16 {
        guard script.toneFrequency > 0, script.sampleRate > 0 else { return 0 }
        let halfPeriods = position * 2 * UInt64(script.toneFrequency) / UInt64(script.sampleRate)
        return halfPeriods % 2 == 0 ? script.toneAmplitude : -script.toneAmplitude
    }
}
