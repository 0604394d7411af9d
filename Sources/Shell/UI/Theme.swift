import Terminal

/// The colours of Phosphor's menus, as the screens name them (`Theme.title`, `Theme.selected`,
/// …). They come from `Theme.current`, a `MenuPalette` made for the terminal's colour depth and
/// background once the start-up negotiation knows them (`Theme.adopt`).
///
/// UI thread only: `current` is set and read there (start-up, a late OSC 11 answer, drawing), so
/// it is not guarded.
enum Theme {
    nonisolated(unsafe) static var current = MenuPalette(depth: .extended, background: .dark)

    /// Chooses the palette for this terminal. Returns true when it changed (redraw everything).
    @discardableResult
    static func adopt(depth: MenuPalette.Depth, background: TerminalBackground) -> Bool {
        let palette = MenuPalette(depth: depth, background: background)
        guard palette != current else { return false }
        current = palette
        return true
    }

    static var text: TextStyle { current.text }
    static var dimText: TextStyle { current.dimText }
    static var title: TextStyle { current.title }
    static var accent: TextStyle { current.accent }
    static var selected: TextStyle { current.selected }
    static var selectedInactive: TextStyle { current.selectedInactive }
    static var border: TextStyle { current.border }
    static var helpKey: TextStyle { current.helpKey }
    static var help: TextStyle { current.help }
    static var warning: TextStyle { current.warning }
    static var unavailable: TextStyle { current.unavailable }
    static var dialog: TextStyle { current.dialog }
    static var dialogBorder: TextStyle { current.dialogBorder }
    static var dialogSelected: TextStyle { current.dialogSelected }
    static var dialogDim: TextStyle { current.dialogDim }
    static var dialogWarning: TextStyle { current.dialogWarning }
}
