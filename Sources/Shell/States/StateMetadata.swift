import Foundation
import PhosphorKit

/// The game and core a save state belongs to. States of another game or another core are
/// refused on load. Any thread.
public struct GameIdentity: Sendable, Equatable {
    /// The stable game key: the ROM file's base name (`Super Mario Land (World)`), used in file names.
    public var key: String
    public var system: GameSystem
    /// CRC-32 of the ROM, when the library knows it.
    public var romCRC32: UInt32?
    /// ROM size in bytes, when known.
    public var romSize: Int?
    /// `retro_system_info.library_name` and `library_version`.
    public var coreName: String
    public var coreVersion: String

    public init(key: String, system: GameSystem, romCRC32: UInt32? = nil, romSize: Int? = nil,
                coreName: String, coreVersion: String) {
        self.key = key
        self.system = system
        self.romCRC32 = romCRC32
        self.romSize = romSize
        self.coreName = coreName
        self.coreVersion = coreVersion
    }

    /// The game key for a ROM file: its name without folder and extension, made safe as a file
    /// name (unchanged for ordinary names, so it matches RetroArch's state names).
    public static func key(forROM rom: URL) -> String {
        FileNameSanitizer.sanitized(rom.deletingPathExtension().lastPathComponent)
    }
}

/// The JSON sidecar of a save state (`<game>.state3.json`). Lets the pause menu show what a slot
/// holds without loading it, and lets a load check that the state is whole and belongs here.
public struct StateMetadata: Codable, Sendable, Equatable {
    public static let formatVersion = 1

    public var format: Int
    public var game: String
    /// `StateSlot.identifier`.
    public var slot: String
    public var created: Date
    public var coreName: String
    public var coreVersion: String
    public var system: GameSystem
    public var romCRC32: UInt32?
    public var romSize: Int?
    /// Length of the state file in bytes.
    public var stateSize: Int
    /// FNV-1a 64 of the state bytes (16 hex digits): a state that does not match its sidecar
    /// (torn copy, interrupted save, edited file) is detected before the core sees it.
    public var stateChecksum: String
    /// FNV-1a 64 of the PNG preview written with this state; nil for sidecars written before
    /// previews were paired (their preview is shown as it is). A preview is shown only beside
    /// the state it was taken with: after a save killed between the preview and the state, the
    /// new preview would otherwise sit beside the old state.
    public var previewChecksum: String?
    /// FNV-1a 64 of the battery save (`.srm`) on disk when this state was taken, nil when the game
    /// had none. Continue compares it with the `.srm` now: a battery save written after the state
    /// (a session that was killed or crashed) must not be rolled back by loading the state.
    public var batterySaveChecksum: String?

    public init(game: GameIdentity, slot: StateSlot, created: Date, state: [UInt8], preview: [UInt8]? = nil,
                batterySaveChecksum: String? = nil) {
        format = Self.formatVersion
        self.game = game.key
        self.slot = slot.identifier
        self.created = created
        coreName = game.coreName
        coreVersion = game.coreVersion
        system = game.system
        romCRC32 = game.romCRC32
        romSize = game.romSize
        stateSize = state.count
        stateChecksum = Self.checksum(of: state)
        previewChecksum = preview.map(Self.checksum(of:))
        self.batterySaveChecksum = batterySaveChecksum
    }

    /// Whether `bytes` are the state this sidecar was written for (size and checksum).
    public func describes(_ bytes: [UInt8]) -> Bool {
        bytes.count == stateSize && Self.checksum(of: bytes) == stateChecksum
    }

    public static func checksum(of state: [UInt8]) -> String {
        var hasher = FNV1a64()
        state.withUnsafeBytes { hasher.combine($0) }
        return hasher.hexDigits
    }

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
