#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nearest-colour matching for the 256- and 16-colour palettes.
///
/// Distances are Euclidean in the OKLab colour space (Björn Ottosson's published transform),
/// where equal distances look about equally different: hue and lightness are kept far better
/// than by RGB distance (an orange-brown stays orange instead of turning pink). The maths is
/// floating point, so callers on the hot path cache answers per colour (see `PaletteCache`).
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

    /// The xterm palette index 16…255 whose colour is exactly `color`, or nil. (0…15 are left
    /// out: users and themes recolour them.) Integer work only: safe on the hot path.
    @inline(__always)
    public static func exactIndex256(_ color: RGBColor) -> Int? {
        @inline(__always) func cubeStep(_ value: UInt8) -> Int? {
            switch value {
            case 0: 0
            case 95: 1
            case 135: 2
            case 175: 3
            case 215: 4
            case 255: 5
            default: nil
            }
        }
        if let r = cubeStep(color.red), let g = cubeStep(color.green), let b = cubeStep(color.blue) {
            return 16 + 36 * r + 6 * g + b
        }
        let level = Int(color.red)
        if color.green == color.red, color.blue == color.red, level >= 8, level <= 238, (level - 8) % 10 == 0 {
            return 232 + (level - 8) / 10
        }
        return nil
    }

    /// A colour in OKLab: lightness `l`, green–red `a`, blue–yellow `b`.
    public struct Lab: Sendable {
        public var l: Double
        public var a: Double
        public var b: Double
    }

    /// sRGB channel value to linear light.
    private static let linearTable: [Double] = (0..<256).map { value in
        let c = Double(value) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// OKLab coordinates of an sRGB colour.
    public static func lab(_ color: RGBColor) -> Lab {
        let r = linearTable[Int(color.red)], g = linearTable[Int(color.green)], b = linearTable[Int(color.blue)]
        let l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
        let m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
        let s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
        return Lab(l: 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
                   a: 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
                   b: 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)
    }

    @inline(__always)
    static func squaredDistance(_ x: Lab, _ y: Lab) -> Double {
        let dl = x.l - y.l, da = x.a - y.a, db = x.b - y.b
        return dl * dl + da * da + db * db
    }

    /// Perceptual squared distance between two colours (OKLab). Only comparisons matter.
    public static func distance(_ x: RGBColor, _ y: RGBColor) -> Double {
        squaredDistance(lab(x), lab(y))
    }

    /// OKLab of every palette index, computed once.
    private static let paletteLab: [Lab] = (0...255).map { lab(color(ofIndex: UInt8($0))) }

    /// The closest xterm 256-colour index among the cube (16…231) and the grey ramp (232…255),
    /// by exhaustive search (about half a microsecond; the encoder caches answers). The
    /// theme-dependent 16 base colours are never chosen: their real colours are unknown.
    public static func nearest256(_ color: RGBColor) -> UInt8 {
        let target = lab(color)
        var best = 16, bestDistance = Double.infinity
        paletteLab.withUnsafeBufferPointer { palette in
            for index in 16..<256 {
                let d = squaredDistance(target, palette[index])
                if d < bestDistance { best = index; bestDistance = d }
            }
        }
        return UInt8(best)
    }

    /// The closest of the 16 ANSI colours (exhaustive; the encoder caches answers).
    public static func nearest16(_ color: RGBColor) -> UInt8 {
        let target = lab(color)
        var best = 0, bestDistance = Double.infinity
        for index in 0..<16 {
            let d = squaredDistance(target, paletteLab[index])
            if d < bestDistance { best = index; bestDistance = d }
        }
        return UInt8(best)
    }
}
