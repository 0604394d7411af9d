/// A console Phosphor knows how to present: key maps, skins and library tabs are per system.
/// Raw values are the stable ids used in config files, skins and the library database.
public enum GameSystem: String, CaseIterable, Sendable, Codable, Comparable {
    case nes, snes, gb, gbc, gba, nds, genesis, pce, n64

    public var displayName: String {
        switch self {
        case .nes: "NES"
        case .snes: "SNES"
        case .gb: "Game Boy"
        case .gbc: "Game Boy Color"
        case .gba: "Game Boy Advance"
        case .nds: "Nintendo DS"
        case .genesis: "Genesis"
        case .pce: "PC Engine"
        case .n64: "Nintendo 64"
        }
    }

    /// Short label for tabs and the status bar.
    public var shortName: String {
        switch self {
        case .nes: "NES"
        case .snes: "SNES"
        case .gb: "GB"
        case .gbc: "GBC"
        case .gba: "GBA"
        case .nds: "DS"
        case .genesis: "MD"
        case .pce: "PCE"
        case .n64: "N64"
        }
    }

    /// File extensions (lower case, no dot) that usually mean this system.
    public var fileExtensions: [String] {
        switch self {
        case .nes: ["nes", "unf", "unif", "fds"]
        case .snes: ["sfc", "smc", "swc", "fig"]
        case .gb: ["gb", "dmg"]
        case .gbc: ["gbc", "cgb"]
        case .gba: ["gba", "agb"]
        case .nds: ["nds"]
        case .genesis: ["md", "gen", "smd", "68k"]
        case .pce: ["pce", "sgx"]
        // Big-endian (.z64), byte-swapped (.v64) and little-endian (.n64) dumps.
        case .n64: ["z64", "v64", "n64"]
        }
    }

    /// The system a file extension suggests, before looking at the bytes.
    public static func guess(fromExtension fileExtension: String) -> GameSystem? {
        let lowered = fileExtension.lowercased()
        return allCases.first { $0.fileExtensions.contains(lowered) }
    }

    /// The names libretro `.info` files use in their `database` field for this system.
    public var databaseNames: [String] {
        switch self {
        case .nes: ["Nintendo - Nintendo Entertainment System", "Nintendo - Family Computer Disk System"]
        case .snes: ["Nintendo - Super Nintendo Entertainment System"]
        case .gb: ["Nintendo - Game Boy"]
        case .gbc: ["Nintendo - Game Boy Color"]
        case .gba: ["Nintendo - Game Boy Advance"]
        case .nds: ["Nintendo - Nintendo DS"]
        case .genesis: ["Sega - Mega Drive - Genesis"]
        case .pce: ["NEC - PC Engine - TurboGrafx 16"]
        case .n64: ["Nintendo - Nintendo 64"]
        }
    }

    /// The RetroPad buttons this console really has (for hold-button menus and key maps).
    public var buttons: [JoypadButton] {
        switch self {
        case .nes, .gb, .gbc: [.up, .down, .left, .right, .a, .b, .select, .start]
        case .pce: [.up, .down, .left, .right, .a, .b, .select, .start]
        case .gba: [.up, .down, .left, .right, .a, .b, .l, .r, .select, .start]
        case .snes, .nds: [.up, .down, .left, .right, .a, .b, .x, .y, .l, .r, .select, .start]
        case .genesis: [.up, .down, .left, .right, .a, .b, .y, .x, .l, .r, .start, .select]
        // As mupen64plus-next and parallel-n64 read the RetroPad: A on B, B on Y, Z on L2; the
        // C buttons are the right stick (see `StickDirection`).
        case .n64: [.up, .down, .left, .right, .b, .y, .l2, .l, .r, .start]
        }
    }

    /// What the console calls a RetroPad button (Genesis A/B/C sit on RetroPad Y/B/A).
    public func label(for button: JoypadButton) -> String {
        switch (self, button) {
        case (.genesis, .y): "A"
        case (.genesis, .b): "B"
        case (.genesis, .a): "C"
        case (.genesis, .start): "Start"
        case (.genesis, .select): "Mode"
        case (.pce, .a): "I"
        case (.pce, .b): "II"
        case (.pce, .select): "Select"
        case (.pce, .start): "Run"
        case (.n64, .b): "A"
        case (.n64, .y): "B"
        case (.n64, .l2): "Z"
        case (_, .select): "Select"
        case (_, .start): "Start"
        case (_, .up): "Up"
        case (_, .down): "Down"
        case (_, .left): "Left"
        case (_, .right): "Right"
        default: button.name.uppercased()
        }
    }

    /// Whether the console's pad has analog sticks the key map binds (the N64's stick, and its C
    /// buttons as the right stick). Cores of other systems still get a gamepad's sticks.
    public var hasAnalogStick: Bool { self == .n64 }

    public static func < (lhs: GameSystem, rhs: GameSystem) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
