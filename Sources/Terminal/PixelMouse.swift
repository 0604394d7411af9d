/// SGR-Pixels mouse reports (DEC private mode 1016): the SGR report `CSI < b ; x ; y M` with
/// the mouse's position in pixels instead of cells, so a click on a picture drawn in real pixels
/// (or on one half of a half block) can be mapped to the pixel under it. Asked like synchronized
/// output: DECRQM `CSI ? 1016 $ p` before DA1; a terminal that knows the mode answers
/// `CSI ? 1016 ; setting $ y` (measured: xterm 379 and kitty 0.26.5 answer 2, "reset"), one that
/// does not answers 0 or nothing, and then only cell reports (mode 1006) are used.
public enum PixelMouse {
    public static let mode = 1016
    /// DECRQM for mode 1016.
    public static let query: [UInt8] = Array("\u{1B}[?1016$p".utf8)
    /// Switches pixel reports on (after 1006: the terminal reports one way or the other) / off.
    public static let on: [UInt8] = Array("\u{1B}[?1016h".utf8)
    public static let off: [UInt8] = Array("\u{1B}[?1016l".utf8)

    /// Whether a DECRPM setting means the mode can be used (1 set, 2 reset, 3 permanently set).
    public static func isSupported(setting: Int) -> Bool { (1...3).contains(setting) }
}
