/// Detecting and switching on the kitty keyboard protocol, which is the only way a terminal
/// reports key releases. The shell writes the bytes these functions return and feeds the
/// decoder's reply events back in; nothing here does I/O.
///
/// Detection: send `CSI ? u` (query the current flags) then `CSI c` (DA1). Every terminal answers
/// DA1; only one with the protocol answers the flags query first. So DA1 without a flags reply
/// means "unsupported", and we never wait for a reply that will not come.
public enum KeyboardProtocol {
    /// Flags for play: 1 disambiguate escape codes | 2 report event types (release!) | 8 report
    /// all keys as escape codes (plain letters, Enter and lone modifiers too).
    public static let gameFlags = 1 | 2 | 8

    /// `CSI ? u` then `CSI c`.
    public static let detectionQuery: [UInt8] = Array("\u{1B}[?u\u{1B}[c".utf8)
    /// `CSI > 11 u`: push the game flags on the terminal's flag stack.
    public static let pushGameFlags: [UInt8] = Array("\u{1B}[>\(gameFlags)u".utf8)
    /// `CSI < u`: pop what we pushed (on every exit path, and before leaving play mode).
    public static let popFlags: [UInt8] = Array("\u{1B}[<u".utf8)
}
