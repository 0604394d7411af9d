import Terminal

/// One set of menu styles. ncurses silently drops a colour the terminal lacks (≥ `COLORS`), which
/// turns a menu into a black box, so every depth has its own set using only colours it has, and
/// monochrome uses attributes only (reverse video, bold, underline, dim).
///
/// Styles with their own background (selection bars, dialogs) read the same on any terminal
/// background. Text drawn on the terminal's default background (the browser's headings and
/// hints) is coloured for the background OSC 11 reported; when it is unknown, that text keeps
/// the default colour and is told apart by bold and underline instead. Every text colour here
/// has at least 4.5:1 contrast (WCAG) against its background in xterm's palette
/// (`ThemeContrastInProcessTests` checks it on screen), also where xterm shows bold text in
/// colours 0–7 as the bright colour 8–15 (its default `boldColors`): so no bold on black text,
/// and none on red or magenta over a light background.
struct MenuPalette: Equatable {
    /// How many colours ncurses can send (`CursesWindow.paletteSize`).
    enum Depth: Equatable {
        case monochrome, eight, sixteen, extended

        init(paletteSize: Int, noColor: Bool = false) {
            if noColor { self = .monochrome; return }
            switch paletteSize {
            case 256...: self = .extended
            case 16...: self = .sixteen
            case 8...: self = .eight
            default: self = .monochrome
            }
        }
    }

    var text = TextStyle()
    var dimText = TextStyle(dim: true)
    var title = TextStyle(bold: true)
    var accent = TextStyle(bold: true)
    var selected = TextStyle(bold: true, reverse: true)
    var selectedInactive = TextStyle(reverse: true)
    var border = TextStyle()
    var helpKey = TextStyle(bold: true)
    var help = TextStyle()
    var warning = TextStyle(bold: true, underline: true)
    var unavailable = TextStyle(dim: true)
    var dialog = TextStyle()
    var dialogBorder = TextStyle(bold: true)
    var dialogSelected = TextStyle(bold: true, reverse: true)
    var dialogDim = TextStyle(dim: true)
    var dialogWarning = TextStyle(bold: true, underline: true)

    init(depth: Depth, background: TerminalBackground) {
        switch depth {
        case .monochrome: return  // the attribute-only defaults above
        case .eight: setBoxes8()
        case .sixteen: setBoxes16()
        case .extended: setBoxes256()
        }
        switch (depth, background) {
        case (_, .unknown), (.monochrome, _): break
        case (.eight, .dark): setText(dim: 7, title: 6, accent: 3, border: 6, helpKey: 3, help: 7, unavailable: 7)
        case (.eight, .light): setText(dim: -1, title: 4, accent: 5, border: 4, helpKey: 4, help: -1, unavailable: -1, boldAccent: false)
        case (.sixteen, .dark): setText(dim: 8, title: 14, accent: 11, border: 6, helpKey: 11, help: 7, unavailable: 8)
        case (.sixteen, .light): setText(dim: 4, title: 4, accent: 5, border: 4, helpKey: 1, help: -1, unavailable: 12, boldAccent: false)
        case (.extended, .dark): setText(dim: 8, title: 14, accent: 11, border: 6, helpKey: 11, help: 7, unavailable: 8)
        case (.extended, .light): setText(dim: 240, title: 25, accent: 94, border: 25, helpKey: 88, help: 238, unavailable: 242)
        }
    }

    /// Text on the terminal's own background, for a known background.
    private mutating func setText(dim: Int32, title: Int32, accent: Int32, border: Int32, helpKey: Int32,
                                  help: Int32, unavailable: Int32, boldAccent: Bool = true) {
        dimText = TextStyle(foreground: dim, dim: dim == -1)
        self.title = TextStyle(foreground: title, bold: true)
        self.accent = TextStyle(foreground: accent, bold: boldAccent, underline: !boldAccent)
        self.border = TextStyle(foreground: border)
        self.helpKey = TextStyle(foreground: helpKey, bold: boldAccent, underline: !boldAccent)
        self.help = TextStyle(foreground: help)
        self.unavailable = TextStyle(foreground: unavailable, dim: true)
    }

    /// 256 colours: the grey dialog and cyan bars.
    private mutating func setBoxes256() {
        selected = TextStyle(foreground: 0, background: 14)
        selectedInactive = TextStyle(foreground: 0, background: 7)
        warning = TextStyle(foreground: 15, background: 124, bold: true)
        dialog = TextStyle(foreground: 15, background: 235)
        dialogBorder = TextStyle(foreground: 14, background: 235)
        dialogSelected = TextStyle(foreground: 0, background: 14)
        dialogDim = TextStyle(foreground: 246, background: 235)
        dialogWarning = TextStyle(foreground: 11, background: 235, bold: true)
    }

    /// 16 colours: no greys beyond 0, 7, 8 and 15, so dialogs are blue (readable on any
    /// terminal background, as Midnight Commander's are).
    private mutating func setBoxes16() {
        selected = TextStyle(foreground: 0, background: 14)
        selectedInactive = TextStyle(foreground: 0, background: 7)
        warning = TextStyle(foreground: 15, background: 1, bold: true)
        dialog = TextStyle(foreground: 15, background: 4)
        dialogBorder = TextStyle(foreground: 14, background: 4)
        dialogSelected = TextStyle(foreground: 0, background: 14)
        dialogDim = TextStyle(foreground: 7, background: 4)
        dialogWarning = TextStyle(foreground: 11, background: 4, bold: true)
    }

    /// 8 colours (Debian's xterm with TERM=xterm, mlterm, GNU screen): colours 0–7 only.
    private mutating func setBoxes8() {
        selected = TextStyle(foreground: 0, background: 6)
        selectedInactive = TextStyle(foreground: 0, background: 7)
        warning = TextStyle(foreground: 7, background: 1, bold: true)
        dialog = TextStyle(foreground: 7, background: 4)
        dialogBorder = TextStyle(foreground: 6, background: 4, bold: true)
        dialogSelected = TextStyle(foreground: 0, background: 6)
        dialogDim = TextStyle(foreground: 3, background: 4)
        dialogWarning = TextStyle(foreground: 3, background: 4, bold: true)
    }
}
