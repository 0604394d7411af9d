/// Game-like test pictures, 256×224 like a SNES frame: a banded sky, parallax hills, a tiled
/// ground that scrolls two pixels a frame, and a fixed status bar, in a small palette the way
/// console graphics are. Deterministic: frame `n` is always the same picture.
enum SyntheticScene {
    static let width = 256
    static let height = 224

    static func frame(_ index: Int) -> RawFrameFile {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let groundScroll = index * 2, hillScroll = index / 2
        for y in 0..<height {
            for x in 0..<width {
                let color = pixel(x: x, y: y, groundScroll: groundScroll, hillScroll: hillScroll)
                let offset = (y * width + x) * 4
                pixels[offset] = UInt8(color & 0xFF)
                pixels[offset + 1] = UInt8((color >> 8) & 0xFF)
                pixels[offset + 2] = UInt8((color >> 16) & 0xFF)
                pixels[offset + 3] = 0
            }
        }
        return RawFrameFile(width: width, height: height, pixels: pixels)
    }

    private static func pixel(x: Int, y: Int, groundScroll: Int, hillScroll: Int) -> UInt32 {
        // Status bar: static text-like blocks.
        if y < 16 {
            if y >= 4 && y < 12 && (x / 8) % 3 != 2 && ((x ^ y) & 3) != 0 && x > 8 && x < 120 { return 0xF8F8F8 }
            return 0x102040
        }
        // Ground: 16×16 tiles with a brick pattern, scrolling.
        if y >= 176 {
            let gx = x + groundScroll, gy = y - 176
            if gy < 4 { return (gx / 4) % 2 == 0 ? 0x38B818 : 0x58D838 }
            let mortar = gy % 8 == 0 || (gx + (gy / 8 % 2) * 8) % 16 == 0
            return mortar ? 0x602010 : ((gx / 16 + gy / 16) % 3 == 0 ? 0xC06030 : 0xA04820)
        }
        // Hills: a slow parallax layer.
        let hx = x + hillScroll
        let hillTop = 130 + Int(20 * sin01(hx, period: 96)) + Int(8 * sin01(hx + 13, period: 37))
        if y >= hillTop { return (hx / 8 + y / 8) % 2 == 0 ? 0x208850 : 0x187040 }
        // Clouds drifting with the hills.
        let cx = (x + hillScroll * 2) % 128
        if y >= 40 && y < 56 && cx >= 20 && cx < 60 && (cx - 20 + 4) / 4 % 5 != 0 { return 0xF0F0F8 }
        // Sky: horizontal colour bands, as a palette gradient would give.
        let band = UInt32((y - 16) / 10)
        return (0x40 + band * 6) << 16 | (0x80 + band * 5) << 8 | (0xF8 - band * 2)
    }

    /// A cheap periodic wave in -1…1 (a triangle wave; no Foundation needed).
    private static func sin01(_ x: Int, period: Int) -> Double {
        let phase = Double(((x % period) + period) % period) / Double(period)
        return phase < 0.5 ? phase * 4 - 1 : 3 - phase * 4
    }
}
