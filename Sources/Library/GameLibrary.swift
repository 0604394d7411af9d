internal import CSQLite
import Foundation
import PhosphorKit
import Synchronization

/// The game library: folders, games and play statistics in one SQLite file
/// (`PhosphorPaths.database`), in WAL mode.
///
/// Threading: a `GameLibrary` belongs to one thread (the UI thread) for its whole life. A long
/// scan may instead run on a background thread with its own `GameLibrary` on the same file;
/// WAL lets the UI's instance keep reading meanwhile, and each write waits up to 2 s for a lock.
///
/// A damaged database file is never deleted: it is renamed to
/// `<name>.corrupt-<yyyyMMdd-HHmmss>` and a fresh library is created; `recoveryNote` says so.
/// Another program's SQLite file (tables of other shapes) is moved to `<name>.foreign-<…>` likewise.
public final class GameLibrary {
    /// Bump with a migration step in `migrate()` whenever the schema changes.
    public static let schemaVersion = 1

    public let url: URL
    /// Where archive entries are extracted for playing.
    public let extractionFolder: URL
    public let scanner: LibraryScanner
    /// Set when the database file was damaged and moved aside at open: one line for the user.
    public private(set) var recoveryNote: String?

    /// Set when the library could not be opened for writing (a read-only or full disk): it was
    /// opened read-only, or as an empty library in memory, and changes are not kept. One line.
    public private(set) var readOnlyNote: String?
    /// The library lives in memory only (its file could neither be written nor read).
    public private(set) var isInMemory = false
    public var isReadOnly: Bool { readOnlyNote != nil }

    private let database: SQLiteDatabase

    /// Opens (or creates) the library at `url`. `extractionFolder` defaults to
    /// `extracted/` beside the database. A disk that refuses writes does not stop it: playing
    /// needs no writes, so the library opens read-only (or empty, in memory) and says so.
    public init(url: URL, extractionFolder: URL? = nil, scanner: LibraryScanner = LibraryScanner(),
                fileSystem: LibraryFileSystem = .real) throws {
        self.url = url
        self.extractionFolder = extractionFolder ?? url.deletingLastPathComponent().appendingPathComponent("extracted")
        self.scanner = scanner
        do {
            try fileSystem.prepareFolder(url.deletingLastPathComponent())
            database = try GameLibrary.openAndMigrate(url, access: fileSystem.access)
        } catch let error as SQLiteError where error.isCorruption {
            let movedTo = try GameLibrary.moveAside(url)
            let note = "\(DisplayText.sanitized(url.lastPathComponent)): damaged (\(error.message)); "
                + "moved to \(DisplayText.sanitized(movedTo.lastPathComponent)) and started a fresh library"
            Log.warning(note)
            recoveryNote = note
            database = try GameLibrary.openAndMigrate(url)
        } catch GameLibraryError.foreignDatabase(_, let reason) {
            // Another program's database: migrating it would mix our tables into theirs (and
            // then fail on a table of the same name), so it is kept whole and set aside.
            let movedTo = try GameLibrary.moveAside(url, label: "foreign")
            let note = "\(DisplayText.sanitized(url.lastPathComponent)): not a Phosphor library (\(reason)); "
                + "moved to \(DisplayText.sanitized(movedTo.lastPathComponent)) and started a fresh library"
            Log.warning(note)
            recoveryNote = note
            database = try GameLibrary.openAndMigrate(url)
        } catch let error where Self.isUnwritable(error) {
            let name = DisplayText.sanitized(url.path)
            if FileManager.default.isReadableFile(atPath: url.path),
               let readOnly = try? GameLibrary.openAndMigrate(url, access: .immutable) {
                database = readOnly
                readOnlyNote = "\(name) is read-only: changes to the library are not kept"
            } else {
                database = try GameLibrary.openAndMigrate(url, access: .memory)
                isInMemory = true
                readOnlyNote = "\(name) cannot be written: an empty library for now, nothing is kept"
            }
            Log.warning("\(readOnlyNote!) (\(Self.reason(error)))")
        }
    }

    private static func isUnwritable(_ error: Error) -> Bool {
        if let error = error as? SQLiteError { return SQLiteDatabase.isUnwritable(error.code) }
        if let error = error as? CocoaError { return [.fileWriteNoPermission, .fileWriteVolumeReadOnly, .fileWriteOutOfSpace, .fileWriteUnknown].contains(error.code) }
        if let error = error as? SystemError { return [EROFS, ENOSPC, EACCES, EPERM, EDQUOT].contains(error.code) }
        return false
    }

    private static func reason(_ error: Error) -> String {
        if let error = error as? SQLiteError { return error.message }
        if let error = error as? SystemError { return String(cString: strerror(error.code)) }
        return "read-only or full disk"
    }

    // MARK: - Opening

    private static func openAndMigrate(_ url: URL, access: SQLiteDatabase.Access = .readWrite) throws -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: url.path, access: access)
        if access == .immutable {
            // Nothing may be written: no journal switch, no migration. A file from an older
            // schema has nothing to show yet.
            let version = Int(try database.query("PRAGMA user_version") { $0.integer(0) }.first ?? 0)
            guard version == schemaVersion else {
                throw GameLibraryError.newerSchema(database: url.path, version: version, supported: schemaVersion)
            }
            return database
        }
        // Before anything is written (even the journal mode, which lives in the file's header).
        let version = Int(try database.query("PRAGMA user_version") { $0.integer(0) }.first ?? 0)
        if version <= schemaVersion { try checkSchema(database, version: version, at: url) }
        if access == .readWrite {
            let mode = try database.query("PRAGMA journal_mode=WAL") { $0.text(0) }.first ?? ""
            if mode.lowercased() != "wal" { Log.warning("\(url.lastPathComponent): journal mode is \(mode), not WAL") }
        }
        let check = try database.query("PRAGMA quick_check") { $0.text(0) }
        guard check == ["ok"] else {
            throw SQLiteError(function: "PRAGMA quick_check", code: SQLITE_CORRUPT,
                              message: check.prefix(2).joined(separator: "; "))
        }
        try database.run("PRAGMA foreign_keys=ON")
        try database.run("PRAGMA synchronous=NORMAL")
        try migrate(database, at: url)
        return database
    }

    private static func migrate(_ database: SQLiteDatabase, at url: URL) throws {
        let version = Int(try database.query("PRAGMA user_version") { $0.integer(0) }.first ?? 0)
        if version > schemaVersion {
            throw GameLibraryError.newerSchema(database: url.path, version: version, supported: schemaVersion)
        }
        if version < 1 {
            try database.transaction {
                try database.run("""
                    CREATE TABLE folder (
                        id INTEGER PRIMARY KEY,
                        path TEXT NOT NULL UNIQUE)
                    """)
                // Every candidate file the scanner looked at, with the stamp that makes rescans
                // incremental and the problems it had (so bad files are not re-read either).
                try database.run("""
                    CREATE TABLE file (
                        id INTEGER PRIMARY KEY,
                        folder_id INTEGER NOT NULL REFERENCES folder(id) ON DELETE CASCADE,
                        path TEXT NOT NULL UNIQUE,
                        size INTEGER NOT NULL,
                        mtime REAL NOT NULL,
                        problems TEXT NOT NULL DEFAULT '')
                    """)
                // archive_entry is '' for plain files so UNIQUE(path, archive_entry) holds.
                try database.run("""
                    CREATE TABLE game (
                        id INTEGER PRIMARY KEY,
                        file_id INTEGER NOT NULL REFERENCES file(id) ON DELETE CASCADE,
                        system TEXT NOT NULL,
                        path TEXT NOT NULL,
                        archive_entry TEXT NOT NULL DEFAULT '',
                        title TEXT NOT NULL,
                        search_key TEXT NOT NULL,
                        size INTEGER NOT NULL,
                        crc32 INTEGER NOT NULL,
                        last_played REAL,
                        play_time INTEGER NOT NULL DEFAULT 0,
                        play_count INTEGER NOT NULL DEFAULT 0,
                        favourite INTEGER NOT NULL DEFAULT 0,
                        UNIQUE (path, archive_entry))
                    """)
                try database.run("CREATE INDEX game_file ON game(file_id)")
                try database.run("CREATE INDEX game_system_key ON game(system, search_key)")
                try database.run("CREATE INDEX game_last_played ON game(last_played)")
                try database.run("PRAGMA user_version = 1")
            }
        }
    }

    /// The columns each table of schema 1 must have (more are tolerated, fewer are not).
    private static let expectedColumns: [String: Set<String>] = [
        "folder": ["id", "path"],
        "file": ["id", "folder_id", "path", "size", "mtime", "problems"],
        "game": ["id", "file_id", "system", "path", "archive_entry", "title", "search_key", "size", "crc32",
                 "last_played", "play_time", "play_count", "favourite"],
    ]

    /// Throws `foreignDatabase` for a file Phosphor did not make, before anything is written:
    /// tables in a file without a schema version, or a table of ours with other columns.
    private static func checkSchema(_ database: SQLiteDatabase, version: Int, at url: URL) throws {
        let tables = try database.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name") { $0.text(0) }
        if version == 0 {
            guard tables.isEmpty else {
                let shown = tables.prefix(3).joined(separator: ", ") + (tables.count > 3 ? ", …" : "")
                throw GameLibraryError.foreignDatabase(database: url.path, reason: "it holds tables \(shown) and no library version")
            }
            return
        }
        for (table, expected) in expectedColumns.sorted(by: { $0.key < $1.key }) {
            guard tables.contains(table) else {
                throw GameLibraryError.foreignDatabase(database: url.path, reason: "it has no \(table) table")
            }
            let columns = Set(try database.query("PRAGMA table_info(\(table))") { $0.text(1) })
            let missing = expected.subtracting(columns)
            guard missing.isEmpty else {
                throw GameLibraryError.foreignDatabase(
                    database: url.path, reason: "its \(table) table has another shape: no \(missing.sorted().joined(separator: ", "))")
            }
        }
    }

    /// Renames the database (and its -wal/-shm companions) to `<name>.<label>-<timestamp>`.
    private static func moveAside(_ url: URL, label: String = "corrupt") throws -> URL {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        var destination = URL(fileURLWithPath: url.path + ".\(label)-" + formatter.string(from: Date()))
        var counter = 1
        while FileManager.default.fileExists(atPath: destination.path) {
            counter += 1
            destination = URL(fileURLWithPath: url.path + ".\(label)-" + formatter.string(from: Date()) + "-\(counter)")
        }
        try systemCall("rename(\(url.lastPathComponent))") { rename(url.path, destination.path) }
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: url.path + suffix) {
            try systemCall("rename(\(url.lastPathComponent)\(suffix))") {
                rename(url.path + suffix, destination.path + suffix)
            }
        }
        return destination
    }

    // MARK: - Folders

    /// Adds a library folder (idempotent). Its games appear at the next `scan`.
    @discardableResult
    public func addFolder(_ folder: URL) throws -> LibraryFolder {
        try Self.checkFolder(folder)
        let path = folder.standardizedFileURL.path
        try database.run("INSERT INTO folder(path) VALUES (?) ON CONFLICT(path) DO NOTHING", [.text(path)])
        let id = try database.query("SELECT id FROM folder WHERE path = ?", [.text(path)]) { $0.integer(0) }.first ?? 0
        return LibraryFolder(id: id, url: URL(fileURLWithPath: path, isDirectory: true))
    }

    /// Throws `notADirectory` unless `folder` is a directory that exists (the browser's dialog
    /// asks this before it sends the folder on).
    public static func checkFolder(_ folder: URL) throws {
        let path = folder.standardizedFileURL.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw GameLibraryError.notADirectory(path)
        }
    }

    /// Removes a folder and every game found in it (play statistics of those games go too).
    public func removeFolder(_ folder: URL) throws {
        try database.run("DELETE FROM folder WHERE path = ?", [.text(folder.standardizedFileURL.path)])
    }

    public func folders() throws -> [LibraryFolder] {
        try database.query("SELECT id, path FROM folder ORDER BY path") {
            LibraryFolder(id: $0.integer(0), url: URL(fileURLWithPath: $0.text(1), isDirectory: true))
        }
    }

    // MARK: - Scanning

    /// Scans every folder. Incremental: a file whose size and mtime are unchanged is not opened;
    /// files that vanished lose their rows; a changed file is re-read and its games updated in
    /// place (play statistics kept). A folder that is missing (an unplugged drive) or has an
    /// unreadable subfolder is reported and keeps all its games.
    ///
    /// The new and changed files are read on every core while the folders are still being
    /// walked, `readBatch` at a time, each batch written in one transaction while the next one is
    /// read (`LibraryScan` says how). `progress` is called on the calling thread: while walking
    /// (`totalGuess` 0, `filesSeen` counts the files found), then before each file stored after
    /// the walk (`filesSeen` of `totalGuess`, unchanged files counted at once), and once at the
    /// end. `isCancelled` is asked between folders and batches (any thread may flip what it
    /// reads): a cancelled scan keeps every batch written so far, removes nothing, and says so in
    /// `ScanReport.wasCancelled`. `ScanReport.filesRead` is in the walk's order.
    @discardableResult
    public func scan(progress: (ScanProgress) -> Void = { _ in }, isCancelled: () -> Bool = { false }) throws -> ScanReport {
        try withoutActuallyEscaping(progress) { progress in
            try withoutActuallyEscaping(isCancelled) { isCancelled in
                try LibraryScan(library: self, progress: progress, isCancelled: isCancelled).run()
            }
        }
    }

    /// Files read (on every core) and then written in one transaction.
    static let readBatch = 128

    /// Every file the library holds, with its stamp, for a scan to compare against.
    func storedFiles() throws -> StoredFiles {
        var entries: [String: StoredFiles.Entry] = [:]
        _ = try database.query("SELECT id, path, size, mtime, folder_id FROM file") { row in
            entries[row.text(1)] = StoredFiles.Entry(id: row.integer(0), folderID: row.integer(4),
                                                     size: Int(row.integer(2)), modified: row.real(3))
        }
        return StoredFiles(entries)
    }

    /// Runs `body` in one transaction (a batch of stored files).
    func inTransaction(_ body: () throws -> Void) throws {
        try database.transaction(body)
    }

    /// Deletes files (they vanished) with their games; returns how many games went.
    func removeFiles(_ ids: [Int64]) throws -> Int {
        var gamesRemoved = 0
        try database.transaction {
            for id in ids {
                gamesRemoved += try database.query("SELECT count(*) FROM game WHERE file_id = ?",
                                                   [.integer(id)]) { Int($0.integer(0)) }.first ?? 0
                try database.run("DELETE FROM file WHERE id = ?", [.integer(id)])
            }
        }
        return gamesRemoved
    }

    /// Writes one file read by a scan and its games (updated in place, stale ones deleted).
    func store(_ roms: [ScannedRom], problems: [ScanProblem], for candidate: ScanCandidate,
                       folderID: Int64, report: inout ScanReport) throws {
        let fileID = try database.query("""
            INSERT INTO file(folder_id, path, size, mtime, problems) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(path) DO UPDATE SET folder_id = excluded.folder_id, size = excluded.size,
                mtime = excluded.mtime, problems = excluded.problems
            RETURNING id
            """, [.integer(folderID), .text(candidate.path), .integer(Int64(candidate.size)),
                  .real(candidate.modified), .text(problems.map(\.message).joined(separator: "\n"))]) { $0.integer(0) }.first ?? 0
        let before = Set(try database.query("SELECT id FROM game WHERE file_id = ?", [.integer(fileID)]) { $0.integer(0) })
        var kept = Set<Int64>()
        for rom in roms {
            let fileTitle = LibraryScanner.title(fromFileName: rom.archiveEntry ?? rom.path)
            let id = try database.query("""
                INSERT INTO game(file_id, system, path, archive_entry, title, search_key, size, crc32)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(path, archive_entry) DO UPDATE SET file_id = excluded.file_id,
                    system = excluded.system, title = excluded.title, search_key = excluded.search_key,
                    size = excluded.size, crc32 = excluded.crc32
                RETURNING id
                """, [.integer(fileID), .text(rom.system.rawValue), .text(rom.path), .text(rom.archiveEntry ?? ""),
                      .text(rom.title), .text(GameLibrary.searchKey(title: rom.title, fileTitle: fileTitle)),
                      .integer(Int64(rom.size)), .integer(Int64(rom.crc32))]) { $0.integer(0) }.first ?? 0
            kept.insert(id)
            if before.contains(id) { report.gamesUpdated += 1 } else { report.gamesAdded += 1 }
        }
        for stale in before.subtracting(kept) {
            try database.run("DELETE FROM game WHERE id = ?", [.integer(stale)])
            report.gamesRemoved += 1
        }
    }

    /// Problems stored from every scan so far, one line each, for a "skipped files" screen.
    public func problems() throws -> [ScanProblem] {
        try database.query("SELECT path, problems FROM file WHERE problems != '' ORDER BY path") { row in
            row.text(1).split(separator: "\n").map { ScanProblem(path: row.text(0), message: String($0)) }
        }.flatMap { $0 }
    }

    // MARK: - Search folding

    /// Lower-case, accent-free text for matching: "Pokémon" → "pokemon".
    public static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The stored `search_key`: the folded title, then the folded file-name title when it adds
    /// something (header titles are often terse: "SUPER MARIOWORLD").
    public static func searchKey(title: String, fileTitle: String) -> String {
        let foldedTitle = folded(title)
        let foldedFile = folded(fileTitle)
        return foldedFile == foldedTitle ? foldedTitle : foldedTitle + " \u{1F} " + foldedFile
    }

    // MARK: - Queries

    private static let gameColumns = """
        id, system, path, archive_entry, title, size, crc32, last_played, play_time, play_count, favourite
        """

    private static func game(from row: SQLiteStatement) -> Game? {
        guard let system = GameSystem(rawValue: row.text(1)) else { return nil }
        let entry = row.text(3)
        return Game(id: row.integer(0), system: system, path: row.text(2), archiveEntry: entry.isEmpty ? nil : entry,
                    title: row.text(4), size: Int(row.integer(5)), crc32: UInt32(truncatingIfNeeded: row.integer(6)),
                    lastPlayed: row.isNull(7) ? nil : Date(timeIntervalSince1970: row.real(7)),
                    playTime: Int(row.integer(8)), playCount: Int(row.integer(9)), favourite: row.integer(10) != 0)
    }

    /// Games, filtered and sorted. `search` matches every whitespace-separated word anywhere in
    /// the title or file name, ignoring case and accents (cheap enough to call per keystroke).
    public func games(system: GameSystem? = nil, search: String = "", sort: GameSort = .title,
                      favouritesOnly: Bool = false) throws -> [Game] {
        var conditions: [String] = []
        var values: [SQLiteValue] = []
        if let system {
            conditions.append("system = ?")
            values.append(.text(system.rawValue))
        }
        for word in GameLibrary.folded(search).split(whereSeparator: { $0.isWhitespace }) {
            conditions.append("instr(search_key, ?) > 0")
            values.append(.text(String(word)))
        }
        if favouritesOnly { conditions.append("favourite = 1") }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let order = switch sort {
        case .title: "search_key, id"
        case .recent: "last_played IS NULL, last_played DESC, search_key, id"
        case .mostPlayed: "play_time DESC, play_count DESC, search_key, id"
        }
        return try database.query("SELECT \(GameLibrary.gameColumns) FROM game \(filter) ORDER BY \(order)", values) {
            GameLibrary.game(from: $0)
        }.compactMap { $0 }
    }

    /// How many games have their file (or archive) under `prefix` (a folder path ending in "/").
    public func gameCount(under prefix: String) throws -> Int {
        // substr, not LIKE: a folder name may hold % or _.
        Int(try database.query("SELECT count(*) FROM game WHERE substr(path, 1, ?) = ?",
                               [.integer(Int64(prefix.unicodeScalars.count)), .text(prefix)]) { $0.integer(0) }.first ?? 0)
    }

    /// Every game with its stored `search_key`, in title order (the browser loads this once and
    /// searches it in memory; folding 20 000 titles again would take longer than the query).
    /// Two arrays of the same order, each allocated once at its final size: at 20 000 games an
    /// array of pairs, grown by appending and then copied apart, was a third of the browser's peak.
    public func gamesWithSearchKeys() throws -> (games: [Game], searchKeys: [String]) {
        let count = Int(try database.query("SELECT count(*) FROM game") { $0.integer(0) }.first ?? 0)
        var games: [Game] = []
        var keys: [String] = []
        games.reserveCapacity(count)
        keys.reserveCapacity(count)
        _ = try database.query("SELECT \(GameLibrary.gameColumns), search_key FROM game ORDER BY search_key, id") { row in
            guard let game = GameLibrary.game(from: row) else { return }
            games.append(game)
            keys.append(row.text(11))
        }
        return (games, keys)
    }

    /// How many games each system has (systems with none are absent).
    public func systemCounts() throws -> [GameSystem: Int] {
        var counts: [GameSystem: Int] = [:]
        for (system, count) in try database.query("SELECT system, count(*) FROM game GROUP BY system", row: {
            (GameSystem(rawValue: $0.text(0)), Int($0.integer(1)))
        }) {
            if let system { counts[system] = count }
        }
        return counts
    }

    /// "Continue": games played at least once, most recent first.
    public func recentlyPlayed(limit: Int = 10) throws -> [Game] {
        try database.query("""
            SELECT \(GameLibrary.gameColumns) FROM game WHERE last_played IS NOT NULL
            ORDER BY last_played DESC, id LIMIT ?
            """, [.integer(Int64(limit))]) { GameLibrary.game(from: $0) }.compactMap { $0 }
    }

    public func game(id: Int64) throws -> Game? {
        try database.query("SELECT \(GameLibrary.gameColumns) FROM game WHERE id = ?", [.integer(id)]) {
            GameLibrary.game(from: $0)
        }.first ?? nil
    }

    // MARK: - Play statistics and favourites

    /// Call when a game starts: it becomes the most recent and its play count goes up by one.
    public func recordPlayStart(gameID: Int64, at date: Date = Date()) throws {
        try database.run("UPDATE game SET last_played = ?, play_count = play_count + 1 WHERE id = ?",
                         [.real(date.timeIntervalSince1970), .integer(gameID)])
    }

    /// Call when a game stops: adds the seconds played and marks it played now.
    public func recordPlayStop(gameID: Int64, seconds: Int, at date: Date = Date()) throws {
        try database.run("UPDATE game SET last_played = ?, play_time = play_time + ? WHERE id = ?",
                         [.real(date.timeIntervalSince1970), .integer(Int64(max(0, seconds))), .integer(gameID)])
    }

    public func setFavourite(gameID: Int64, _ favourite: Bool) throws {
        try database.run("UPDATE game SET favourite = ? WHERE id = ?", [.integer(favourite ? 1 : 0), .integer(gameID)])
    }

    /// Flips the favourite flag and returns the new value.
    @discardableResult
    public func toggleFavourite(gameID: Int64) throws -> Bool {
        try database.run("UPDATE game SET favourite = 1 - favourite WHERE id = ?", [.integer(gameID)])
        return try game(id: gameID)?.favourite ?? false
    }

    // MARK: - Playing

    /// The file a core should load: the ROM itself, or the archive entry extracted into
    /// `extractionFolder` (once; later calls reuse the copy). The cache is kept to its size cap.
    public func playableFile(for game: Game) throws -> URL {
        guard let entry = game.archiveEntry else { return URL(fileURLWithPath: game.path) }
        return try ExtractionCache(folder: extractionFolder)
            .file(entry: entry, in: URL(fileURLWithPath: game.path), system: game.system, sizeCap: scanner.sizeCap)
    }
}
