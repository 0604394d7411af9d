import Foundation
import PhosphorKit
#if canImport(Glibc)
import Glibc
#endif

/// Gives every ROM file its own names for its battery save, states, cheats and key maps, while
/// keeping RetroArch's names wherever they are unambiguous.
///
/// The plain key (`GameIdentity.key(forROM:)`, the file name without folder and extension) is the
/// same for `a/Game.gbc` and `b/Game.gbc`, and for names that differ only in `/\:*?"<>|` or after
/// byte 180. The first ROM that comes (per console) keeps the plain names; the index
/// (`<data>/game-keys.json`) remembers who that is and which key every ROM got. Another ROM whose
/// plain key is taken gets `Game [1a2b3c4d]`, a hash of its path, for good. An existing user's
/// files keep their names: the first run after this change claims the plain key for the ROM that
/// already uses it. A plain name whose ROM file no longer exists (moved or deleted) is taken over
/// by the next new ROM of that name, so a moved ROM keeps its saves.
///
/// UI thread (or the headless run's main thread); the index is read and written under an flock
/// so two starting copies never both claim one name.
enum GameKeyIndex {
    /// A game's names.
    struct Names: Equatable {
        /// States, cheats, key maps and locks.
        var key: String
        /// The `.srm` file name: the ROM's own base name (RetroArch's) for the plain key, else `key`.
        var batterySave: String
        /// For a game in an archive: the `.srm` name it had when it was named after its inner
        /// file (to move it to `batterySave`); nil otherwise.
        var formerBatterySave: String? = nil
    }

    /// The names of the only game inside `archive`, extracted to `extracted` under
    /// `extractionFolder`: named after the archive (RetroArch's naming). A game that was played
    /// before, when it was named after its inner file, keeps that key for its states, cheats and
    /// key maps (their sidecars name it, so renaming them would make them another game's), and
    /// reports its old battery save name so the caller can move the `.srm` to the archive's name.
    static func names(forArchive archive: URL, extracted: URL, extractionFolder: URL, console: String,
                      data: URL) -> Names {
        var names = names(forROM: archive, console: console, data: data)
        guard let former = formerKey(ofExtracted: extracted, extractionFolder: extractionFolder, console: console, data: data),
              former.key != names.key else { return names }
        names.key = former.key
        names.formerBatterySave = former.batterySave
        return names
    }

    /// The key an extracted archive entry got when it was named after its inner file: any
    /// extraction of the same entry (the folder `<entry hash>-<archive version>` changes when the
    /// archive does). Read only: nothing is registered.
    private static func formerKey(ofExtracted extracted: URL, extractionFolder: URL, console: String,
                                  data: URL) -> (key: String, batterySave: String)? {
        let folder = extractionFolder.standardizedFileURL.resolvingSymlinksInPath().path
        let path = extracted.standardizedFileURL.resolvingSymlinksInPath().path
        guard path.hasPrefix(folder + "/") else { return nil }
        let relative = path.dropFirst(folder.count + 1).split(separator: "/", maxSplits: 1)
        guard relative.count == 2, let dash = relative[0].firstIndex(of: "-") else { return nil }
        let entryHash = relative[0][..<dash]
        let inner = relative[1]
        guard let index = try? JSONDecoder().decode(Index.self, from: Data(contentsOf: file(data: data))) else { return nil }
        let prefix = "\(console)/\(folder)/\(entryHash)-"
        let matches = index.keys.filter { rom, _ in
            guard rom.hasPrefix(prefix) else { return false }
            let rest = rom.dropFirst(prefix.count).split(separator: "/", maxSplits: 1)
            return rest.count == 2 && rest[1] == inner
        }
        guard let match = matches["\(console)/\(path)"].map({ ("\(console)/\(path)", $0) })
                ?? matches.sorted(by: { $0.key < $1.key }).first.map({ ($0.key, $0.value) }) else { return nil }
        let plain = GameIdentity.key(forROM: extracted)
        let raw = extracted.deletingPathExtension().lastPathComponent
        return (match.1, match.1 == plain ? raw : match.1)
    }

    static func file(data: URL) -> URL { data.appendingPathComponent("game-keys.json") }

    static func names(forROM rom: URL, console: String, data: URL) -> Names {
        let plain = GameIdentity.key(forROM: rom)
        let raw = rom.deletingPathExtension().lastPathComponent
        let path = rom.standardizedFileURL.resolvingSymlinksInPath().path
        let entry = "\(console)/\(plain)"
        let indexFile = file(data: data)
        try? FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let lock = open(indexFile.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if lock >= 0 {
            while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
        }
        defer { if lock >= 0 { close(lock) } }
        var index = (try? JSONDecoder().decode(Index.self, from: Data(contentsOf: indexFile))) ?? Index()
        let rom = "\(console)/\(path)"
        if let key = index.keys[rom] {
            return Names(key: key, batterySave: key == plain ? raw : key)
        }
        let key: String
        if let owner = index.owners[entry], owner != path, FileManager.default.fileExists(atPath: owner) {
            key = suffixed(plain, path: path)
        } else {
            key = plain
            index.owners[entry] = path
        }
        // Every ROM's key is kept, so a suffixed game keeps its names even after the plain
        // name's owner is gone and another ROM takes the plain name over.
        index.keys[rom] = key
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if let bytes = try? encoder.encode(index) { try? AtomicFile.write(bytes, to: indexFile) }
        return Names(key: key, batterySave: key == plain ? raw : key)
    }

    /// The file's contents.
    struct Index: Codable {
        /// `console/plain key` → the ROM path that has the plain names.
        var owners: [String: String] = [:]
        /// `console/ROM path` → the key it was given.
        var keys: [String: String] = [:]
    }

    /// `plain [8 hex digits of the path's FNV-1a]`, cut so it stays within the file name limit.
    static func suffixed(_ plain: String, path: String) -> String {
        var hasher = FNV1a64()
        Array(path.utf8).withUnsafeBytes { hasher.combine($0) }
        let suffix = " [\(hasher.hexDigits.prefix(8))]"
        var base = plain
        while base.utf8.count + suffix.utf8.count > FileNameSanitizer.maximumBytes { base.removeLast() }
        return base + suffix
    }
}
