/// Palette entries a terminal lets Phosphor redefine (`OSC 4`), so that the half-block picture
/// can send its 24-bit colours as `38;5;n` (7 bytes of parameters instead of 11–17): a game
/// frame has a few dozen colours, and each is defined once while it is on screen.
///
/// Only entries the terminal reported (it answered `OSC 4 ; n ; ?`) are listed, so every one can
/// be given back exactly as it was. Made by the terminal side at start; immutable.
public struct PaletteSlots: Equatable, Sendable {
    /// The entries that may be redefined. Never 0–15 (themes set those) nor any entry the menus
    /// or the save-state previews draw with while the picture is up.
    public let indices: [UInt8]
    /// `OSC 4` sequences that give every entry in `indices` back the colour the terminal reported.
    public let restoreBytes: [UInt8]

    public init(indices: [UInt8], restoreBytes: [UInt8]) {
        self.indices = indices
        self.restoreBytes = restoreBytes
    }

    /// The entries Phosphor asks about: the two-digit ones (`38;5;n` is a byte shorter than with
    /// three) that neither the menus (25, 88, 94, 124, 235–246, 0–15) nor the xterm cube's exact
    /// colours from 88 up need. 71 entries: a Game Boy Color frame has at most 56 colours.
    public static let candidates: [UInt8] = Array(16...24) + Array(26...87)
}
