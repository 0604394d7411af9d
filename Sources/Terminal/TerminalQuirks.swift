/// What Phosphor must know about the terminal beyond terminfo: whether it runs inside GNU screen
/// or tmux (which show fewer colours than the terminal outside them, and screen holds a lone Esc
/// back while mouse reporting is on), or on the Linux console (which prints OSC strings it does
/// not know), or whether xterm draws the cells (its `█` leaves the cell's edges open). Worked out
/// from the terminal type and the environment; no I/O.
public struct TerminalQuirks: Sendable, Equatable {
    public var isGNUScreen: Bool
    public var isTmux: Bool
    public var isLinuxConsole: Bool
    /// xterm draws the cells: it sets `XTERM_VERSION` for its children. Another terminal started
    /// from an xterm's shell inherits the variable; kitty and Ghostty say who they are in TERM, and
    /// VTE or Konsole (which say xterm-256color) then merely pay the bytes of `fullBlockFillsCell`.
    /// Inside tmux or GNU screen the variable is the one the multiplexer was started with: it
    /// repaints our cells glyph for glyph and colour for colour on the terminal outside, so xterm's
    /// outlines come through it too, and that hint is all there is (tmux answers DA2 itself).
    public var isXterm: Bool

    /// `terminalName`: the type ncurses drives (`CursesWindow.terminalName`), which is `TERM` for
    /// the real terminal.
    public init(terminalName: String, environment: [String: String]) {
        isTmux = environment["TMUX"] != nil || terminalName.hasPrefix("tmux")
        // tmux also calls itself "screen" by default: TMUX tells them apart; STY is screen's own.
        isGNUScreen = environment["STY"] != nil || (terminalName.hasPrefix("screen") && !isTmux)
        isLinuxConsole = terminalName == "linux"
        let xtermType = terminalName.hasPrefix("xterm") && !terminalName.hasPrefix("xterm-kitty")
            && !terminalName.hasPrefix("xterm-ghostty")
        isXterm = !(environment["XTERM_VERSION"] ?? "").isEmpty && (xtermType || isTmux || isGNUScreen)
    }

    /// `█` covers the whole cell (`TerminalEncoder.fullBlockFillsCell`). Not in xterm: with an Xft
    /// font (`xterm -fa Monospace`) it draws the block 1–2 pixels short of the cell's top, bottom
    /// and right edges, and the background in effect shows there as a lasting outline. Its bitmap
    /// fonts fill the cell, but nothing outside tells the two apart; spaces cost about 9% more
    /// bytes per frame on a game (BENCHMARKS.md §4c).
    public var fullBlockFillsCell: Bool { !isXterm }

    /// Each DCH and ICH (a shifted row) makes the terminal wait for its display server: xterm
    /// copies the row's pixels and then waits for the X server's answer before it goes on. In
    /// xterm under Xvfb that was 39 waits a frame for a scrolling game at 120×50, and the shifts
    /// cost xterm and the X server more CPU than the cells they saved (BENCHMARKS.md §4d).
    public var shiftedRowsWaitForTheServer: Bool { isXterm }

    /// The terminal answers OSC 11 (the background-colour query) or ignores it silently.
    public var mayAskBackground: Bool { !isLinuxConsole }

    /// Mouse reporting makes GNU screen hold a lone Esc back until the next key, so the pause
    /// menu would not open on Esc: no mouse there (the DS touch screen then needs another terminal).
    public var wantsMouse: Bool { !isGNUScreen }

    /// Said once at start when a multiplexer cut the colours down (its terminal type has fewer
    /// than 256); nil otherwise.
    public func colourAdvice(paletteSize: Int) -> String? {
        guard paletteSize < 256 else { return nil }
        if isGNUScreen { return "GNU screen shows \(paletteSize) colours: set `term screen-256color` in ~/.screenrc" }
        if isTmux { return "tmux shows \(paletteSize) colours: set -g default-terminal tmux-256color in ~/.tmux.conf" }
        return nil
    }

    /// The terminal type ncurses should drive: TERM, except that an xterm claiming 8 colours
    /// while `COLORTERM` promises 24-bit colour (VTE, Konsole and others set it and leave TERM
    /// at xterm) gets xterm-256color, so menus are not cut down to 8 colours for nothing.
    public static func cursesTerminalType(environment: [String: String]) -> String? {
        let term = environment["TERM"] ?? ""
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        guard term == "xterm" || term == "xterm-color", colorTerm == "truecolor" || colorTerm == "24bit",
              environment["STY"] == nil, environment["TMUX"] == nil else { return nil }
        return "xterm-256color"
    }
}
