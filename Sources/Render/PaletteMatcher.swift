/// Nearest-colour matching for the 256- and 16-colour palettes.
///
/// Distances use the "redmean" weighted Euclidean metric: cheap integer maths that tracks
/// perceived difference much better than plain RGB distance (greens weigh most, and the
/// red/blue weights shift with the average red level).
public enum PaletteMatcher {
    /// The six channel levels of the xterm 6x6x6 cube (indices 16…231).
    public static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The 16 ANSI colours as xterm draws them by default (index 0…15).
    public static let ansi16: [RGBColor] = [
        0x000000, 0xCD0000, 0x00CD00, 0xCDCD00, 0x0000EE, 0xCD00CD, 0x00CDCD, 0xE5E5E5,
        0x7F7F7F, 0xFF0000, 0x00FF00, 0xFFFF00, 0x5C5CFF, 0xFF00FF, 0x00FFFF, 0xFFFFFF,
    ].map { RGBColor(rawValue: $0) }

    /// The colour xterm shows for palette index `index` (0…255).
    public static func color(ofIndex index: UInt8) -> RGBColor {
        switch index {
        case 0..<16:
            return ansi16[Int(index)]
        case 16..<232:
            let n = Int(index) - 16
            return RGBColor(red: UInt8(cubeLevels[n / 36]), green: UInt8(cubeLevels[(n / 6) % 6]), blue: UInt8(cubeLevels[n % 6]))
        default:
            let level = UInt8(8 + 10 * (Int(index) - 232))
            return RGBColor(red: level, green: level, blue: level)
        }
    }

    /// Perceptual-ish squared distance ("redmean"). Only comparisons matter, so no square root.
    @inlinable
    public static func distance(_ a: RGBColor, _ b: RGBColor) -> Int {
        let r1 = Int(a.red), r2 = Int(b.red)
        let dr = r1 - r2, dg = Int(a.green) - Int(b.green), db = Int(a.blue) - Int(b.blue)
        let redMean: Int = (r1 + r2) >> 1
        let redTerm: Int = ((512 + redMean) * dr * dr) >> 8
        let greenTerm: Int = 4 * dg * dg
        let blueTerm: Int = ((767 - redMean) * db * db) >> 8
        return redTerm + greenTerm + blueTerm
    }

    /// Nearest cube level index (0…5) for one channel value: midpoints between the levels.
    @inlinable
    static func cubeStep(_ value: Int) -> Int {
        if value < 48 { return 0 }
        if value < 115 { return 1 }
        return min(5, (value - 35) / 40)
    }

    /// The closest xterm 256-colour index among the cube (16…231) and the grey ramp (232…255).
    /// The theme-dependent 16 base colours are never chosen.
    public static func nearest256(_ color: RGBColor) -> UInt8 {
        let r = Int(color.red), g = Int(color.green), b = Int(color.blue)
        let cubeIndex = 16 + 36 * cubeStep(r) + 6 * cubeStep(g) + cubeStep(b)
        let average = (r + g + b) / 3
        let greyStep = max(0, min(23, (average - 3) / 10))
        let greyIndex = 232 + greyStep
        let cubeDistance = distance(color, self.color(ofIndex: UInt8(cubeIndex)))
        let greyDistance = distance(color, self.color(ofIndex: UInt8(greyIndex)))
        return UInt8(greyDistance < cubeDistance ? greyIndex : cubeIndex)
    }

    /// The closest of the 16 ANSI colours, by exhaustive search (callers cache through `nearest16Table`).
    public static func nearest16Exhaustive(_ color: RGBColor) -> UInt8 {
        var best = 0, bestDistance = Int.max
        for (index, candidate) in ansi16.enumerated() {
            let d = distance(color, candidate)
            if d < bestDistance { best = index; bestDistance = d }
        }
        return UInt8(best)
    }

    /// The closest of the 16 ANSI colours, via a 32768-entry table over 5-bit channels
    /// (built once, on first use, thread-safely as a global).
    @inlinable
    public static func nearest16(_ color: RGBColor) -> UInt8 {
        let v: UInt32 = color.rawValue
        let r5: UInt32 = (v >> 9) & 0x7C00
        let g5: UInt32 = (v >> 6) & 0x03E0
        let b5: UInt32 = (v >> 3) & 0x001F
        let key = Int(r5 | g5 | b5)
        return nearest16Table[key]
    }

    /// Index = r5 << 10 | g5 << 5 | b5; each 5-bit channel stands for the centre of its 8-value bucket.
    public static let nearest16Table: [UInt8] = (0..<32768).map { (key: Int) -> UInt8 in
        let r5: Int = key >> 10, g5: Int = (key >> 5) & 31, b5: Int = key & 31
        let r = UInt8(r5 << 3 | 4), g = UInt8(g5 << 3 | 4), b = UInt8(b5 << 3 | 4)
        return nearest16Exhaustive(RGBColor(red: r, green: g, blue: b))
    }
}
