import PhosphorKit

/// A kind of cheat code a user types in, per console. Which ones a core really applies is in
/// `CoreCheatSupport` (measured on the Debian cores). Any thread (value type).
public enum CheatFormat: String, Sendable, CaseIterable {
    /// NES Game Genie: 6 or 8 letters of `APZLGITYEOXUKSVN` (8 = with a compare value).
    case nesGameGenie
    /// NES Pro Action Rocky: 8 hex digits (encrypted address, compare and value).
    case nesProActionRocky
    /// NES raw CPU address and value: `AAAA:VV`, or `AAAA?CC:VV` with a compare value.
    case nesRaw
    /// Game Boy Game Genie: `VVA-AAA` or `VVA-AAA-CCC` (a ROM patch).
    case gameBoyGameGenie
    /// Game Boy GameShark: `TTVVLLHH` (a RAM write).
    case gameBoyGameShark
    /// SNES Game Genie: `XXXX-XXXX` (8 scrambled hex digits).
    case snesGameGenie
    /// SNES Pro Action Replay: `AAAAAAVV` (24-bit address, value).
    case snesProActionReplay
    /// SNES raw address and value: `AAAAAA:VV`.
    case snesRaw
    /// GBA GameShark / Action Replay (v1–v3, encrypted or not): lines of `XXXXXXXX YYYYYYYY`.
    case gbaGameSharkOrActionReplay
    /// GBA CodeBreaker: lines of `XXXXXXXX YYYY`.
    case gbaCodeBreaker
    /// Nintendo DS Action Replay: lines of `XXXXXXXX YYYYYYYY`.
    case dsActionReplay

    /// The name users know the format by.
    public var displayName: String {
        switch self {
        case .nesGameGenie, .gameBoyGameGenie, .snesGameGenie: "Game Genie"
        case .nesProActionRocky: "Pro Action Rocky"
        case .nesRaw, .snesRaw: "raw address:value"
        case .gameBoyGameShark: "GameShark"
        case .snesProActionReplay: "Pro Action Replay"
        case .gbaGameSharkOrActionReplay: "GameShark / Action Replay"
        case .gbaCodeBreaker: "CodeBreaker"
        case .dsActionReplay: "Action Replay"
        }
    }

    /// What the format looks like, for help lines and error messages.
    public var pattern: String {
        switch self {
        case .nesGameGenie: "6 or 8 letters, e.g. ZAZKAP"
        case .nesProActionRocky: "8 hex digits"
        case .nesRaw: "AAAA:VV or AAAA?CC:VV"
        case .gameBoyGameGenie: "ABC-DEF or ABC-DEF-GHI"
        case .gameBoyGameShark: "01VVLLHH"
        case .snesGameGenie: "XXXX-XXXX"
        case .snesProActionReplay: "AAAAAAVV"
        case .snesRaw: "AAAAAA:VV"
        case .gbaGameSharkOrActionReplay, .dsActionReplay: "XXXXXXXX YYYYYYYY per line"
        case .gbaCodeBreaker: "XXXXXXXX YYYY per line"
        }
    }

    /// The formats Phosphor reads for a console (empty: none known).
    public static func formats(for system: GameSystem) -> [CheatFormat] {
        switch system {
        case .nes: [.nesGameGenie, .nesProActionRocky, .nesRaw]
        case .gb, .gbc: [.gameBoyGameGenie, .gameBoyGameShark]
        case .snes: [.snesGameGenie, .snesProActionReplay, .snesRaw]
        case .gba: [.gbaGameSharkOrActionReplay, .gbaCodeBreaker]
        case .nds: [.dsActionReplay]
        case .pce, .genesis, .n64: []
        }
    }
}
