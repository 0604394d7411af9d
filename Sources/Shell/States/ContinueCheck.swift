import Foundation
import PhosphorKit

/// Whether Continue may load the automatic state without rolling the battery save back.
///
/// The `.srm` is written every few seconds while a game runs, the automatic state only on a clean
/// quit. After a SIGKILL or a core crash the `.srm` on disk is newer than the automatic state;
/// loading the state would put its older save RAM into the core, and the next periodic write
/// would make that the `.srm` (a boot-counting cartridge went 2 → 1).
///
/// When the `.srm` is newer, the automatic state is SKIPPED (with a one-line notice) rather than
/// loaded with the newer save RAM put back: a game keeps copies of its save data in work RAM, so
/// a state's picture of the game plus another session's save RAM is a mix the game never was in
/// (a menu showing one save while the cartridge holds another). Booting from the newest `.srm` is
/// what the cartridge itself would do and keeps every bit of saved progress; what is lost is only
/// the position the crashed session had reached, which the state did not hold anyway.
///
/// UI thread (reads the `.srm` once when a game starts).
enum ContinueCheck {
    /// An `.srm` more than this much newer than a state without a recorded checksum (a sidecar
    /// from before checksums were recorded) was written by a later session: a clean quit writes
    /// the `.srm` right after the automatic state.
    static let legacyTolerance: TimeInterval = 5

    /// Nil when the automatic state (described by `metadata`) may be loaded; otherwise the reason
    /// to skip it, as the one line the player sees. `batterySave` is the game's `.srm` (nil when
    /// the game has no battery RAM).
    static func reasonToSkip(_ metadata: StateMetadata?, batterySave: URL?) -> String? {
        guard let metadata, let batterySave else { return nil }
        let current = checksum(of: batterySave)
        let skip = "the battery save is newer than the automatic state (the last session did not end cleanly); started from the battery save"
        if let recorded = metadata.batterySaveChecksum {
            // Any change since the state was taken, including a removed .srm (the player reset
            // the save on purpose): the state's save RAM would bring the old one back.
            return recorded == current ? nil : skip
        }
        guard current != nil,
              let modified = (try? FileManager.default.attributesOfItem(atPath: batterySave.path))?[.modificationDate] as? Date
        else { return nil }
        return modified.timeIntervalSince(metadata.created) > legacyTolerance ? skip : nil
    }

    /// FNV-1a 64 of the file, nil when it does not exist or cannot be read.
    static func checksum(of file: URL) -> String? {
        guard let bytes = try? [UInt8](Data(contentsOf: file)) else { return nil }
        return StateMetadata.checksum(of: bytes)
    }
}
