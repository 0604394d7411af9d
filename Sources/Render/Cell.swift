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

    /// A text cell. Control characters become `?` so they can never move the terminal's cursor.
    public init(_ scalar: Unicode.Scalar, foreground: RGBColor, background: RGBColor) {
        let value = scalar.value
        let printable = value >= 0x20 && value != 0x7F && !(0x80...0x9F).contains(value)
        self.init(character: printable ? value : 0x3F, foreground: foreground, background: background)
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
