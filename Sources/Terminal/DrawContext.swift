/// What a screen draws with: the terminal size, the ncurses screen, and raw output for pictures.
/// UI thread only.
public final class DrawContext {
    public let terminal: any TerminalDevice
    public var rows: Int { terminal.rows }
    public var columns: Int { terminal.columns }

    public init(terminal: any TerminalDevice) { self.terminal = terminal }

    /// Writes raw bytes (a rendered picture) over whatever ncurses drew, then puts the cursor and
    /// attributes back where ncurses believes they are, so its next update lands correctly.
    /// ncurses is not updated here: what it shows did not change (its next update, after a menu
    /// or dialog changed, writes only that). `bytes` is consumed: appending the reset to the
    /// caller's last copy does not copy a whole frame.
    public func writeRaw(_ bytes: consuming [UInt8]) {
        guard !bytes.isEmpty else { return }
        let cursor = CursesWindow.cursor
        var output = bytes
        output.append(contentsOf: "\u{1B}[0m\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H".utf8)
        terminal.write(output)
        CursesWindow.attributesWereReset()
    }
}
