internal import CCurses

/// Questions to the terminfo entry ncurses was opened with (the session's or the headless
/// terminal's type). UI thread only, while a terminal is open.
enum Terminfo {
    /// Whether the entry has the string capability `name` (e.g. `rep`, repeat the last character).
    static func hasStringCapability(_ name: String) -> Bool {
        ccurses_has_string_capability(name) == 1
    }
}
