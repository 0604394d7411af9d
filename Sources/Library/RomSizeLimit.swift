import PhosphorKit

/// The largest archive entry accepted as a game of each system. The archive reader's
/// `defaultSizeCap` only stops absurd entries; these stop a 500 MiB file with a `.nes` name
/// from filling the extraction cache. Each is the largest real cartridge rounded up to a power
/// of two with headroom for headers, hacks and homebrew.
public enum RomSizeLimit {
    public static func bytes(for system: GameSystem) -> Int {
        switch system {
        // Largest NES boards are 1 MiB PRG + 1 MiB CHR; homebrew/NES 2.0 boards reach a few MiB.
        case .nes: 8 << 20
        // MBC5 addresses at most 8 MiB.
        case .gb, .gbc: 8 << 20
        // The biggest HuCard (Street Fighter II') is 2.5 MiB; CD images are not cartridge ROMs.
        case .pce: 8 << 20
        // ExHiROM tops out at 8 MiB (plus a 512-byte copier header); romhacks expand to 12 MiB.
        case .snes: 16 << 20
        // Official games stop at 5 MiB; the SSF2 mapper and homebrew go past 10 MiB.
        case .genesis: 16 << 20
        // The GBA cartridge bus addresses 32 MiB.
        case .gba: 32 << 20
        // The largest N64 cartridges are 64 MiB (Resident Evil 2, Conker); 64DD and hacks stay under 128.
        case .n64: 128 << 20
        // The largest DS cards are 4 Gbit (512 MiB).
        case .nds: 512 << 20
        }
    }
}
