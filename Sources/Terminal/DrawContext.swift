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
    /// caller's last copy does not copy a whole frame. Returns the buffer emptied, its capacity
    /// kept, for the caller's next frame (one allocation for the whole game, not ~10 a frame).
    @discardableResult
    public func writeRaw(_ bytes: consuming [UInt8]) -> [UInt8] {
        var output = bytes
        guard !output.isEmpty else { return output }
        let cursor = CursesWindow.cursor
        output.append(contentsOf: "\u{1B}[0m\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H".utf8)
        terminal.write(output)
        CursesWindow.attributesWereReset()
        output.removeAll(keepingCapacity: true)
        return output
    }
}
