import Foundation
import PhosphorKit

/// Decides whether a save state may be handed to the core, BEFORE `retro_unserialize` sees it:
/// several cores accept a state of another game or a truncated one, and bsnes-mercury then
/// crashes in the next frame. Used by the slot store (`StateStore.load`) and by
/// `run --headless --state-in`. Any thread (pure functions over bytes already read).
///
/// The rules:
/// - A state with a sidecar that describes it (size and checksum match) is checked against the
///   sidecar's identity: the same game key, ROM (CRC, else size) and core.
/// - A state without such a sidecar (none, or a stale one left by a save that was killed after
///   the sidecar and before the state) is accepted only when its size is the core's
///   `serialize_size()`: the one check left that tells a truncated or foreign file from a whole one.
enum StateCheck {
    /// Throws a one-line `StateStoreError` when `bytes` must not be loaded; returns the notes worth
    /// logging. `paired` is the sidecar known to describe `bytes` (nil when there is none);
    /// `expectedSize` is the core's `serialize_size()` (nil or 0 when the core cannot tell).
    static func verify(_ bytes: [UInt8], paired: StateMetadata?, game: GameIdentity, expectedSize: Int?,
                       file: URL) throws -> [String] {
        guard !bytes.isEmpty else {
            throw StateStoreError(.damaged, file: file, "is empty (0 bytes); refusing to load it")
        }
        var notes: [String] = []
        if let paired {
            try checkIdentity(paired, game: game, file: file)
            if paired.coreVersion != game.coreVersion {
                notes.append("\(file.lastPathComponent) was saved with \(paired.coreName) \(paired.coreVersion); running \(game.coreVersion)")
            }
        }
        // With a paired sidecar the state is whole (checksum) and this game's (identity); its size
        // is not compared, because some cores' states vary in size with what the game is doing
        // (nestopia). Without one, the size is all there is to go on.
        if paired == nil {
            guard let expectedSize, expectedSize > 0 else {
                throw StateStoreError(.damaged, file: file,
                                      "has no metadata that matches it and \(game.coreName) does not tell its state size, so it cannot be checked; refusing to load it")
            }
            guard bytes.count == expectedSize else {
                throw StateStoreError(.wrongSize, file: file,
                                      "is \(bytes.count) bytes but \(game.coreName) expects \(expectedSize) and no metadata says which game it belongs to (truncated, or another game's or core's state); refusing to load it")
            }
            notes.append("\(file.lastPathComponent) has no matching metadata; loaded because its size is what \(game.coreName) expects")
        }
        return notes
    }

    /// The sidecar's game and core against the running ones.
    static func checkIdentity(_ metadata: StateMetadata, game: GameIdentity, file: URL) throws {
        if metadata.game != game.key {
            throw StateStoreError(.wrongGame, file: file, "belongs to \"\(metadata.game)\", not \"\(game.key)\"; refusing to load it")
        }
        if let theirs = metadata.romCRC32, let ours = game.romCRC32, theirs != ours {
            throw StateStoreError(.wrongGame, file: file,
                                  "was saved with another ROM (CRC \(hex(theirs)), this one is \(hex(ours))); refusing to load it")
        } else if metadata.romCRC32 == nil || game.romCRC32 == nil,
                  let theirs = metadata.romSize, let ours = game.romSize, theirs != ours {
            throw StateStoreError(.wrongGame, file: file,
                                  "was saved with another ROM (\(theirs) bytes, this one is \(ours)); refusing to load it")
        }
        if metadata.coreName != game.coreName {
            throw StateStoreError(.wrongCore, file: file,
                                  "was saved by \(metadata.coreName), not \(game.coreName); cores cannot read each other's states")
        }
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
