/// A direct-mapped cache of palette answers, so the encoder does the nearest-colour search
/// once per distinct colour rather than once per changed cell. Answers are exact (the full
/// colour is the tag); a collision only costs a recomputation.
struct PaletteCache {
    private static let bits = 12
    private var tags: [UInt32]
    private var indices: [UInt8]
    private let match: (RGBColor) -> UInt8

    init(match: @escaping (RGBColor) -> UInt8) {
        tags = [UInt32](repeating: 0xFFFF_FFFF, count: 1 << PaletteCache.bits)
        indices = [UInt8](repeating: 0, count: 1 << PaletteCache.bits)
        self.match = match
    }

    @inline(__always)
    mutating func index(for color: RGBColor) -> UInt8 {
        let slot = Int(truncatingIfNeeded: (color.rawValue &* 0x9E37_79B1) >> (32 - UInt32(PaletteCache.bits)))
        if tags[slot] == color.rawValue { return indices[slot] }
        let index = match(color)
        tags[slot] = color.rawValue
        indices[slot] = index
        return index
    }
}
