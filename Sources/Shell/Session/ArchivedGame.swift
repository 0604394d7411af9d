import Foundation
import Library
import PhosphorKit

/// A game played from inside a `.zip` or `.7z`. The core gets the entry extracted into
/// `data/extracted/`; the game's files are named after the archive when it is the archive's only
/// game (`Game.zip` → `Game.srm`, `Game.state1`), as RetroArch names them, so the two programs
/// share them. An archive holding several games names each after its own entry, as before.
struct ArchivedGame: Equatable {
    var archive: URL
    var entry: String
    /// The archive holds this game only: its files are named after the archive.
    var isOnlyGame: Bool

    /// Whether `url` is an archive Phosphor opens (by extension, like the scanner).
    static func isArchive(_ url: URL) -> Bool {
        ArchiveReader.archiveExtensions.contains(url.pathExtension.lowercased())
    }

    /// What the command line plays for `archive`: its one game, extracted. An archive with no
    /// game, or with several, is a one-line error naming it. UI thread (or the headless run's).
    static func open(_ archive: URL, paths: PhosphorPaths) throws -> (rom: URL, system: GameSystem, game: ArchivedGame) {
        let name = DisplayText.sanitized(archive.lastPathComponent)
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: archive.path)
        } catch {
            throw RomCheck.Failure(description: "\(name): \(ErrorText.line(error))")
        }
        let candidate = ScanCandidate(path: archive.standardizedFileURL.path,
                                      size: (attributes[.size] as? NSNumber)?.intValue ?? 0,
                                      modified: (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)
        let scanned = LibraryScanner().read(candidate)
        guard let only = scanned.roms.first, let entry = only.archiveEntry else {
            let reason = scanned.problems.first.map { " (\($0.message))" } ?? ""
            throw RomCheck.Failure(description: "\(name): no game inside\(reason)")
        }
        guard scanned.roms.count == 1 else {
            throw RomCheck.Failure(description: "\(name) holds \(scanned.roms.count) games; add its folder to the library (phosphor add DIR) and pick one in the browser")
        }
        let rom = try ExtractionCache(folder: extractionFolder(paths))
            .file(entry: entry, in: archive, system: only.system)
        return (rom, only.system, ArchivedGame(archive: archive, entry: entry, isOnlyGame: true))
    }

    /// Where games are extracted: the library's folder (`GameLibrary`'s default beside its database).
    static func extractionFolder(_ paths: PhosphorPaths) -> URL {
        paths.database.deletingLastPathComponent().appendingPathComponent("extracted")
    }

    /// The battery save (and clock) of a game named after its inner file before archives were
    /// named after themselves, moved to the archive's name so RetroArch finds it. Nothing is
    /// overwritten: when both names have a file, both stay and the archive's is used.
    static func moveFormerSaves(named former: String, to current: String, in folder: URL) {
        guard former != current else { return }
        for fileExtension in ["srm", "rtc"] {
            let old = folder.appendingPathComponent("\(former).\(fileExtension)")
            let new = folder.appendingPathComponent("\(current).\(fileExtension)")
            let manager = FileManager.default
            guard manager.fileExists(atPath: old.path) else { continue }
            if manager.fileExists(atPath: new.path) {
                Log.warning("\(old.lastPathComponent) and \(new.lastPathComponent) both exist; using \(new.lastPathComponent), the other is kept as it is")
                continue
            }
            do {
                try manager.moveItem(at: old, to: new)
                Log.info("renamed \(old.lastPathComponent) to \(new.lastPathComponent) (games in archives are named after the archive)")
            } catch {
                Log.warning("cannot rename \(old.lastPathComponent) to \(new.lastPathComponent): \(ErrorText.line(error)); using \(new.lastPathComponent)")
            }
        }
    }
}
