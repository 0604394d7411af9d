/// The pixel layouts a libretro core may emit. Raw values match `RETRO_PIXEL_FORMAT_*`, so
/// `PixelFormat(rawValue: Int(format))` converts a core's choice directly. The one pixel format of
/// the app: the core host sets it, frames carry it, Render decodes it. Any thread (value type).
public enum PixelFormat: Int, Sendable, CaseIterable {
    /// 0RGB1555, little-endian 16-bit: the libretro default.
    case rgb1555 = 0
    /// XRGB8888, little-endian 32-bit; the X byte is ignored.
    case xrgb8888 = 1
    /// RGB565, little-endian 16-bit.
    case rgb565 = 2

    public var bytesPerPixel: Int { self == .xrgb8888 ? 4 : 2 }

    /// One pixel value (as stored, little-endian) to 0x00RRGGBB. Five- and six-bit channels are
    /// widened by bit replication, so full intensity stays 0xFF and zero stays 0x00. Inlinable:
    /// Render calls it for every pixel it decodes.
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
}
