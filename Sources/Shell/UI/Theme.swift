import Terminal

/// The colours of Phosphor's menus (xterm palette indices, readable on 16-colour terminals too:
/// every colour used here is one of the first 16 or falls back to one).
enum Theme {
    static let text = TextStyle()
    static let dimText = TextStyle(foreground: 8)
    static let title = TextStyle(foreground: 14, bold: true)
    static let accent = TextStyle(foreground: 11, bold: true)
    static let selected = TextStyle(foreground: 0, background: 14, bold: true)
    static let selectedInactive = TextStyle(foreground: 0, background: 7)
    static let border = TextStyle(foreground: 6)
    static let helpKey = TextStyle(foreground: 11, bold: true)
    static let help = TextStyle(foreground: 7)
    static let warning = TextStyle(foreground: 9, bold: true)
    static let unavailable = TextStyle(foreground: 8, dim: true)
    static let dialog = TextStyle(foreground: 15, background: 235)
    static let dialogBorder = TextStyle(foreground: 14, background: 235)
    static let dialogSelected = TextStyle(foreground: 0, background: 14, bold: true)
    static let dialogDim = TextStyle(foreground: 245, background: 235)
}
