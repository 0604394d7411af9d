import PhosphorKit

/// The skins compiled into the program: the same values as the files in `Skins/` (a test checks
/// that they match), used when those files cannot be found or are broken, so Phosphor always has
/// a skin for every system. Any thread.
public enum BuiltInSkins {
    public static func skin(for system: GameSystem) -> Skin {
        switch system {
        case .nds: nintendoDS
        default: singleScreen(system)
        }
    }

    /// Border colour per system: a hint of the console's own colours.
    private static func accent(for system: GameSystem) -> SkinColor {
        switch system {
        case .nes: SkinColor(red: 0xC8, green: 0x3C, blue: 0x3C)
        case .snes: SkinColor(red: 0x7A, green: 0x6C, blue: 0xC8)
        case .gb: SkinColor(red: 0x8B, green: 0xAC, blue: 0x0F)
        case .gbc: SkinColor(red: 0xB0, green: 0x5C, blue: 0xD0)
        case .gba: SkinColor(red: 0x5A, green: 0x4F, blue: 0xCF)
        case .nds: SkinColor(red: 0x9A, green: 0xA4, blue: 0xB4)
        case .genesis: SkinColor(red: 0x3C, green: 0x6E, blue: 0xD8)
        case .pce: SkinColor(red: 0xE0, green: 0x8A, blue: 0x2C)
        case .n64: SkinColor(red: 0x2E, green: 0x9E, blue: 0x4A)
        }
    }

    private static let black = SkinColor(red: 0, green: 0, blue: 0)
    private static let legendText = SkinColor(red: 0xA8, green: 0xA8, blue: 0xA8)
    private static let legendKey = SkinColor(red: 0xFF, green: 0xD7, blue: 0x5F)

    private static func singleScreen(_ system: GameSystem) -> Skin {
        Skin(system: system, name: system.displayName, minimumSize: CellSize(columns: 24, rows: 10),
             background: black, border: SkinBorder(style: .rounded, color: accent(for: system)),
             legend: SkinLegend(position: .right, size: 16, buttons: system.buttons,
                                textColor: legendText, keyColor: legendKey),
             layouts: [SkinArrangement(name: "screen", direction: .single, screens: [SkinScreen(name: "screen")])])
    }

    private static var nintendoDS: Skin {
        let top = PixelRect(x: 0, y: 0, width: 256, height: 192)
        let bottom = PixelRect(x: 0, y: 192, width: 256, height: 192)
        return Skin(
            system: .nds, name: GameSystem.nds.displayName, frame: FrameSize(width: 256, height: 384),
            minimumSize: CellSize(columns: 24, rows: 12), background: black,
            border: SkinBorder(style: .rounded, color: accent(for: .nds)),
            legend: SkinLegend(position: .right, size: 16, buttons: GameSystem.nds.buttons,
                               textColor: legendText, keyColor: legendKey),
            layouts: [
                SkinArrangement(name: "stacked", direction: .vertical, screens: [
                    SkinScreen(name: "top", source: top, alignment: .bottom),
                    SkinScreen(name: "bottom", source: bottom, alignment: .top),
                ]),
                SkinArrangement(name: "side-by-side", direction: .horizontal, gap: 1, screens: [
                    SkinScreen(name: "top", source: top, alignment: .right),
                    SkinScreen(name: "bottom", source: bottom, alignment: .left),
                ]),
                SkinArrangement(name: "single-screen", direction: .single, screens: [
                    SkinScreen(name: "top", source: top),
                    SkinScreen(name: "bottom", source: bottom),
                ]),
            ])
    }
}
