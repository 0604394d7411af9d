/// The pixel layouts a libretro core may emit. Raw values match `RETRO_PIXEL_FORMAT_*`, so
/// `PixelFormat(rawValue: Int(format))` converts a core's choice directly.
public enum PixelFormat: Int, Sendable, CaseIterable {
    /// 0RGB1555, little-endian 16-bit: the libretro default.
    case rgb1555 = 0
    /// XRGB8888, little-endian 32-bit; the X byte is ignored.
    case xrgb8888 = 1
    /// RGB565, little-endian 16-bit.
    case rgb565 = 2

    public var bytesPerPixel: Int { self == .xrgb8888 ? 4 : 2 }

    /// One pixel value (as stored, little-endian) to 0x00RRGGBB. Five- and six-bit channels are
    /// widened by bit replication, so full intensity stays 0xFF and zero stays 0x00.
    @inlinable
    public func rgb(fromPixel value: UInt32) -> UInt32 {
        switch self {
        case .xrgb8888:
            return value & 0xFF_FFFF
        case .rgb565:
            let r = (value >> 11) & 0x1F, g = (value >> 5) & 0x3F, b = value & 0x1F
            return (r << 3 | r >> 2) << 16 | (g << 2 | g >> 4) << 8 | (b << 3 | b >> 2)
        case .rgb1555:
            let r = (value >> 10) & 0x1F, g = (value >> 5) & 0x1F, b = value & 0x1F
            return (r << 3 | r >> 2) << 16 | (g << 3 | g >> 2) << 8 | (b << 3 | b >> 2)
        }
    }

    /// Decodes `count` pixels starting at byte `offset` of `bytes` into `output` as 0x00RRGGBB.
    /// The format switch happens once per row, not once per pixel.
    @inlinable
    func decodeRow(_ bytes: UnsafeRawBufferPointer, offset: Int, count: Int, into output: UnsafeMutablePointer<UInt32>) {
        guard let base = bytes.baseAddress else { return }
        let start = base + offset
        switch self {
        case .xrgb8888:
            for i in 0..<count {
                output[i] = UInt32(littleEndian: start.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)) & 0xFF_FFFF
            }
        case .rgb565:
            for i in 0..<count {
                let value = UInt32(UInt16(littleEndian: start.loadUnaligned(fromByteOffset: i &* 2, as: UInt16.self)))
                output[i] = PixelFormat.rgb565.rgb(fromPixel: value)
            }
        case .rgb1555:
            for i in 0..<count {
                let value = UInt32(UInt16(littleEndian: start.loadUnaligned(fromByteOffset: i &* 2, as: UInt16.self)))
                output[i] = PixelFormat.rgb1555.rgb(fromPixel: value)
            }
        }
    }
}
