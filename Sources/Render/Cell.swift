/// One terminal cell: a character drawn in `foreground` on `background`.
///
/// Picture cells hold the upper half block `▀`, whose foreground is the top pixel and whose
/// background is the bottom pixel. Text cells (borders, legends) hold any single-width character.
public struct Cell: Hashable, Sendable {
    /// The character's Unicode scalar value (kept as a number so cells compare as plain integers).
    public var character: UInt32
    public var foreground: RGBColor
    public var background: RGBColor

    @inlinable
    public init(character: UInt32, foreground: RGBColor, background: RGBColor) {
        self.character = character
        self.foreground = foreground
        self.background = background
    }

    /// A text cell. Characters that would not take exactly one column (controls, combining
    /// marks, wide CJK and emoji) become `?`, so text can never shift the rest of the grid.
    public init(_ scalar: Unicode.Scalar, foreground: RGBColor, background: RGBColor) {
        let value = scalar.value
        self.init(character: Cell.isSingleWidth(value) ? value : 0x3F, foreground: foreground, background: background)
    }

    /// Whether a scalar occupies exactly one terminal column (a conservative approximation of
    /// wcwidth: anything doubtful is refused).
    public static func isSingleWidth(_ value: UInt32) -> Bool {
        switch value {
        case 0..<0x20, 0x7F...0x9F: return false                       // controls
        case 0x300...0x36F, 0x200B...0x200F, 0xFE00...0xFE0F: return false  // combining, zero-width
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF,
             0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6: return false  // East Asian wide
        case 0x1F000...0x1FAFF, 0x20000...0x3FFFD: return false             // emoji, CJK extensions
        case 0xD800...0xDFFF, 0x110000...: return false
        default: return true
        }
    }

    /// A half-block picture cell: `top` pixel over `bottom` pixel.
    @inlinable
    public init(top: RGBColor, bottom: RGBColor) {
        self.init(character: Cell.upperHalfBlock, foreground: top, background: bottom)
    }

    /// `▀` U+2580.
    public static let upperHalfBlock: UInt32 = 0x2580
    /// A space: only its background shows.
    public static let space: UInt32 = 0x20
}
