/// The colour registers a sixel image uses: every distinct colour of the picture when it has no
/// more than the terminal's registers (retro frames nearly always do: exact colours), else a
/// fixed RGB grid that fits them (3-3-2 bits for 256 registers). Built once per frame. Any thread.
public struct SixelPalette {
    /// Register n's colour as 0x00RRGGBB.
    public private(set) var colors: [UInt32] = []
    /// Whether `colors` are the picture's own (false: the grid, colours approximated).
    public private(set) var isExact = true
    /// Each pixel's register, row by row.
    public private(set) var indices: [UInt16]

    /// Open-addressing table from colour to register: faster than a Dictionary per pixel.
    private static let tableSize = 1 << 14

    public init(_ image: PixelImage, registers: Int) {
        let count = image.width * image.height
        indices = [UInt16](repeating: 0, count: count)
        let limit = max(2, min(registers, 65_535))
        if !mapExactly(image, limit: limit) {
            mapToGrid(image, registers: limit)
        }
    }

    /// Gives every distinct colour a register; false when there are more than `limit`.
    private mutating func mapExactly(_ image: PixelImage, limit: Int) -> Bool {
        var keys = [UInt32](repeating: UInt32.max, count: Self.tableSize)
        var values = [UInt16](repeating: 0, count: Self.tableSize)
        var found: [UInt32] = []
        let count = image.width * image.height
        let mask = Self.tableSize - 1
        let fits: Bool = image.rgb.withUnsafeBufferPointer { rgb in
            indices.withUnsafeMutableBufferPointer { indices in
                var lastColor = UInt32.max
                var lastIndex: UInt16 = 0
                for pixel in 0..<count {
                    let at = pixel &* 3
                    let color = UInt32(rgb[at]) << 16 | UInt32(rgb[at + 1]) << 8 | UInt32(rgb[at + 2])
                    if color != lastColor {
                        var slot = Int((color &* 2_654_435_761) >> 18) & mask
                        while true {
                            if keys[slot] == color { lastIndex = values[slot]; break }
                            if keys[slot] == UInt32.max {
                                // A table more than half full would slow down; that many colours
                                // need the grid anyway at any usual register count.
                                guard found.count < limit, found.count < Self.tableSize / 2 else { return false }
                                keys[slot] = color
                                values[slot] = UInt16(found.count)
                                lastIndex = UInt16(found.count)
                                found.append(color)
                                break
                            }
                            slot = (slot + 1) & mask
                        }
                        lastColor = color
                    }
                    indices[pixel] = lastIndex
                }
                return true
            }
        }
        guard fits else { return false }
        colors = found
        isExact = true
        return true
    }

    /// Too many colours: a grid of red, green and blue levels with as many cells as fit.
    private mutating func mapToGrid(_ image: PixelImage, registers: Int) {
        var bits = 0
        while 1 << (bits + 1) <= registers, bits < 24 { bits += 1 }
        // Green gets the most levels, blue the fewest (how eyes weigh them).
        let greenBits = (bits + 2) / 3
        let redBits = (bits + 1) / 3
        let blueBits = bits / 3
        let levels = (red: 1 << redBits, green: 1 << greenBits, blue: 1 << blueBits)
        func centre(_ level: Int, of total: Int) -> UInt32 {
            total == 1 ? 128 : UInt32((level * 255 + (total - 1) / 2) / (total - 1))
        }
        colors = []
        for red in 0..<levels.red {
            for green in 0..<levels.green {
                for blue in 0..<levels.blue {
                    colors.append(centre(red, of: levels.red) << 16 | centre(green, of: levels.green) << 8 | centre(blue, of: levels.blue))
                }
            }
        }
        isExact = false
        let count = image.width * image.height
        image.rgb.withUnsafeBufferPointer { rgb in
            indices.withUnsafeMutableBufferPointer { indices in
                for pixel in 0..<count {
                    let at = pixel &* 3
                    let red = (Int(rgb[at]) * (levels.red - 1) + 127) / 255
                    let green = (Int(rgb[at + 1]) * (levels.green - 1) + 127) / 255
                    let blue = (Int(rgb[at + 2]) * (levels.blue - 1) + 127) / 255
                    indices[pixel] = UInt16((red * levels.green + green) * levels.blue + blue)
                }
            }
        }
    }
}
