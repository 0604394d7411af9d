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

    /// The two cube levels (indices 0…5) around one channel value.
    @inline(__always)
    static func cubeNeighbours(_ value: Int) -> (Int, Int) {
        var upper = 0
        while upper < 5 && cubeLevels[upper] < value { upper += 1 }
        return (max(0, upper - 1), upper)
    }

    /// The closest xterm 256-colour index among the cube (16…231) and the grey ramp (232…255).
    /// The theme-dependent 16 base colours are never chosen. Tries the 8 cube corners around the
    /// colour and the 2 ramp greys around its mean, which finds the metric's best in practice.
    public static func nearest256(_ color: RGBColor) -> UInt8 {
        let r = Int(color.red), g = Int(color.green), b = Int(color.blue)
        var best = 0, bestDistance = Int.max
        let (r0, r1) = cubeNeighbours(r), (g0, g1) = cubeNeighbours(g), (b0, b1) = cubeNeighbours(b)
        for ri in [r0, r1] {
            for gi in [g0, g1] {
                for bi in [b0, b1] {
                    let index = 16 + 36 * ri + 6 * gi + bi
                    let d = distance(color, self.color(ofIndex: UInt8(index)))
                    if d < bestDistance { best = index; bestDistance = d }
                }
            }
        }
        let average = (r + g + b) / 3
        let lowerGrey = max(0, min(23, (average - 8) / 10))
        for step in [lowerGrey, min(23, lowerGrey + 1)] {
            let d = distance(color, self.color(ofIndex: UInt8(232 + step)))
            if d < bestDistance { best = 232 + step; bestDistance = d }
        }
        return UInt8(best)
    }

    /// The closest of the 16 ANSI colours (exhaustive; the encoder caches answers).
    public static func nearest16(_ color: RGBColor) -> UInt8 {
        var best = 0, bestDistance = Int.max
        for (index, candidate) in ansi16.enumerated() {
            let d = distance(color, candidate)
            if d < bestDistance { best = index; bestDistance = d }
        }
        return UInt8(best)
    }
}
