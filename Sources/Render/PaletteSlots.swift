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
}
