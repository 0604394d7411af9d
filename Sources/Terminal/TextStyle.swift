internal import CCurses

/// Text styles for menu drawing.
public struct TextStyle: Equatable, Sendable {
    /// xterm palette indices; -1 = the terminal's default colour.
    public var foreground: Int32 = -1
    public var background: Int32 = -1
    public var bold = false
    public var reverse = false
    public var dim = false
    public var underline = false

    public init(foreground: Int32 = -1, background: Int32 = -1, bold: Bool = false, reverse: Bool = false,
                dim: Bool = false, underline: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.reverse = reverse
        self.dim = dim
        self.underline = underline
    }

    var attributes: Int32 {
        (bold ? Int32(CCURSES_BOLD) : 0) | (reverse ? Int32(CCURSES_REVERSE) : 0)
            | (dim ? Int32(CCURSES_DIM) : 0) | (underline ? Int32(CCURSES_UNDERLINE) : 0)
    }
}
