internal import CCurses

/// A rectangle of the terminal that ncurses draws (menus, lists, dialogs). Row and column are
/// relative to the window. UI thread only.
public final class CursesWindow {
    private let window: OpaquePointer
    private let owned: Bool
    public private(set) var rows: Int
    public private(set) var columns: Int
    public private(set) var top: Int
    public private(set) var left: Int

    /// The whole screen (stdscr).
    public static func screen(rows: Int, columns: Int) -> CursesWindow {
        CursesWindow(window: ccurses_screen(), owned: false, rows: rows, columns: columns, top: 0, left: 0)
    }

    private init(window: OpaquePointer, owned: Bool, rows: Int, columns: Int, top: Int, left: Int) {
        self.window = window
        self.owned = owned
        self.rows = rows
        self.columns = columns
        self.top = top
        self.left = left
    }

    /// A new window; nil when the rectangle doesn't fit the terminal.
    public convenience init?(rows: Int, columns: Int, top: Int, left: Int) {
        guard rows > 0, columns > 0, let window = ccurses_new_window(Int32(rows), Int32(columns), Int32(top), Int32(left)) else {
            return nil
        }
        self.init(window: window, owned: true, rows: rows, columns: columns, top: top, left: left)
    }

    deinit { if owned { ccurses_delete_window(window) } }

    public func clear(_ style: TextStyle = TextStyle()) { ccurses_clear(window, style.foreground, style.background) }

    /// Writes text clipped to the window (or to `width` cells). Returns the cells used.
    @discardableResult
    public func put(_ text: String, row: Int, column: Int, width: Int? = nil, style: TextStyle = TextStyle()) -> Int {
        guard row >= 0, row < rows, column >= 0, column < columns else { return 0 }
        return Int(ccurses_put(window, Int32(row), Int32(column), text, Int32(width ?? -1),
                               style.foreground, style.background, style.attributes))
    }

    /// Writes `text` padded with spaces to exactly `width` cells (list rows, highlight bars).
    public func putPadded(_ text: String, row: Int, column: Int, width: Int, style: TextStyle) {
        let used = put(text, row: row, column: column, width: width, style: style)
        if used < width {
            put(String(repeating: " ", count: width - used), row: row, column: column + used, style: style)
        }
    }

    public func box(_ style: TextStyle) { ccurses_box(window, style.foreground, style.background) }

    /// Queues the window for the next `CursesWindow.update()`.
    public func stage() { ccurses_stage(window) }

    /// Makes the next update repaint this rectangle even where ncurses thinks the screen already
    /// matches (it doesn't know about the raw-drawn game picture underneath).
    public func forceRepaint() { ccurses_repaint(window) }

    /// ncurses clears the whole terminal at the first update of a new full-screen window: a
    /// screen drawn afresh each time (the browser) would be cleared and repainted at every draw,
    /// erasing the pictures written over it. After this, the update writes only what changed.
    public func keepScreen() { ccurses_keep_screen(window) }

    public static func update() { ccurses_update() }
    /// How many updates ran so far (tests check that game frames, written raw, cost none).
    public static var updateCount: Int { Int(ccurses_update_count()) }
    /// Clears and repaints the terminal now. Not at the next update: raw pictures are written
    /// between updates, and a clear pending until then would wipe them.
    public static func repaintEverything() {
        ccurses_repaint_all()
        ccurses_update()
    }
}

extension CursesWindow {
    /// How many palette colours the terminal offers to ncurses.
    public static var paletteSize: Int { Int(ccurses_colors()) }
    /// The terminfo entry says the terminal takes 24-bit colours (the `RGB` flag, e.g. `xterm-direct`).
    public static var hasDirectColor: Bool { ccurses_has_rgb() == 1 }
    /// The terminal type ncurses draws for ("" before it started).
    public static var terminalName: String { ccurses_terminal_name().map { String(cString: $0) } ?? "" }
}

extension CursesWindow {
    /// Where ncurses believes the terminal cursor is (0-based), so raw output can put it back.
    static var cursor: (row: Int, column: Int) {
        var row: Int32 = 0
        var column: Int32 = 0
        ccurses_cursor(&row, &column)
        return (Int(row), Int(column))
    }

    /// The columns `text` takes on screen (an emoji or a CJK character takes two), as `put`
    /// counts them: right-aligned values must be placed by this, not by their character count.
    public static func displayWidth(of text: String) -> Int {
        let width = Int(ccurses_text_width(text))
        return width >= 0 ? width : text.count
    }

    /// Tells ncurses that SGR 0 was written behind its back.
    static func attributesWereReset() { ccurses_attributes_reset() }
}
