/// Synchronized output (DEC private mode 2026) lets a terminal show a whole frame at once
/// instead of painting it as the bytes arrive. Not every terminal knows the mode, so Phosphor
/// asks first: DECRQM `CSI ? 2026 $ p`, sent just before the DA1 query of the keyboard-protocol
/// detection. A terminal that knows the mode answers `CSI ? 2026 ; setting $ y` before its DA1
/// reply; one that doesn't answers "0" or stays silent, and then no 2026 sequence is ever sent.
public enum SynchronizedOutput {
    public static let mode = 2026
    /// DECRQM for mode 2026.
    public static let query: [UInt8] = Array("\u{1B}[?2026$p".utf8)

    /// Whether a DECRPM setting means the mode can be used: 1 (set), 2 (reset) or
    /// 3 (permanently set). 0 is "unknown mode", 4 "permanently reset".
    public static func isSupported(setting: Int) -> Bool { (1...3).contains(setting) }
}
