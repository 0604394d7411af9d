/// The colour registers a sixel image uses: every distinct colour of the picture when it has no
/// more than the terminal's registers (retro frames nearly always do: exact colours); else the
/// most used colours, the rest mapped to the nearest of them (up to 8192 distinct colours); else
/// a fixed RGB grid that fits the registers (3-3-2 bits for 256). Built once per frame. Any thread.
public struct SixelPalette {
    /// Register n's colour as 0x00RRGGBB.
    public private(set) var colors: [UInt32] = []
    /// Whether every pixel got its own colour (false: some were approximated).
    public private(set) var isExact = true
    /// Each pixel's register, row by row.
    public private(set) var indices: [UInt16]

    /// Open-addressing table from colour to register: faster than a Dictionary per pixel.
    private static let tableSize = 1 << 14

    public init(_ image: PixelImage, registers: Int) {
        let count = image.width * image.height
        indices = [UInt16](repeating: 0, count: count)
        let limit = max(2, min(registers, 65_535))
        guard let distinct = mapDistinctColors(image) else {
            mapToGrid(image, registers: limit)
            return
        }
        if distinct.colors.count <= limit {
            colors = distinct.colors
        } else {
            keepMostUsed(distinct, registers: limit)
        }
    }

    /// Gives every distinct colour its own number in `indices` and counts its pixels; nil when
    /// there are more than half the table's size (then only the grid is fast enough).
    private mutating func mapDistinctColors(_ image: PixelImage) -> (colors: [UInt32], counts: [Int])? {
        var keys = [UInt32](repeating: UInt32.max, count: Self.tableSize)
        var values = [UInt16](repeating: 0, count: Self.tableSize)
        var found: [UInt32] = []
        var counts: [Int] = []
        let count = image.width * image.height
        let mask = Self.tableSize - 1
        let fits: Bool = image.rgb.withUnsafeBufferPointer { rgb in
            indices.withUnsafeMutableBufferPointer { indices in
                var lastColor = UInt32.max
                var lastIndex: UInt16 = 0
                // Pixels counted a run at a time (retro frames are long runs of one colour).
                var runStart = 0
                for pixel in 0..<count {
                    let at = pixel &* 3
                    let color = UInt32(rgb[at]) << 16 | UInt32(rgb[at + 1]) << 8 | UInt32(rgb[at + 2])
                    if color != lastColor {
                        if pixel > 0 { counts[Int(lastIndex)] += pixel - runStart }
                        runStart = pixel
                        var slot = Int((color &* 2_654_435_761) >> 18) & mask
                        while true {
                            if keys[slot] == color { lastIndex = values[slot]; break }
                            if keys[slot] == UInt32.max {
                                // A table more than half full would slow down.
                                guard found.count < Self.tableSize / 2 else { return false }
                                keys[slot] = color
                                values[slot] = UInt16(found.count)
                                lastIndex = UInt16(found.count)
                                found.append(color)
                                counts.append(0)
                                break
                            }
                            slot = (slot + 1) & mask
                        }
                        lastColor = color
                    }
                    indices[pixel] = lastIndex
                }
                if count > 0 { counts[Int(lastIndex)] += count - runStart }
                return true
            }
        }
        return fits ? (found, counts) : nil
    }

    /// More colours than registers, but not many more: the most used colours get registers and
    /// every other colour takes the nearest of them (retro frames lose little this way).
    private mutating func keepMostUsed(_ distinct: (colors: [UInt32], counts: [Int]), registers: Int) {
        let order = distinct.colors.indices.sorted { distinct.counts[$0] > distinct.counts[$1] }
        colors = order.prefix(registers).map { distinct.colors[$0] }
        isExact = false
        var remap = [UInt16](repeating: 0, count: distinct.colors.count)
        for (register, original) in order.prefix(registers).enumerated() { remap[original] = UInt16(register) }
        for original in order.dropFirst(registers) {
            let color = distinct.colors[original]
            var best = 0
            var bestDistance = Int.max
            for (register, candidate) in colors.enumerated() {
                let red = Int(color >> 16) - Int(candidate >> 16)
                let green = Int(color >> 8 & 0xFF) - Int(candidate >> 8 & 0xFF)
                let blue = Int(color & 0xFF) - Int(candidate & 0xFF)
                let distance = 2 * red * red + 4 * green * green + 3 * blue * blue
                if distance < bestDistance { bestDistance = distance; best = register }
            }
            remap[original] = UInt16(best)
        }
        indices.withUnsafeMutableBufferPointer { indices in
            for pixel in indices.indices { indices[pixel] = remap[Int(indices[pixel])] }
        }
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
