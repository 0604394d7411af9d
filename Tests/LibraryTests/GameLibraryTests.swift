import Foundation
import XCTest
@testable import Library
@testable import PhosphorKit

final class GameLibraryTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var roms: URL { folder.url.appendingPathComponent("roms") }

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder = nil
    }

    private func openLibrary(sizeCap: Int = ArchiveReader.defaultSizeCap) throws -> GameLibrary {
        try GameLibrary(url: folder.url.appendingPathComponent("data/library.sqlite"),
                        scanner: LibraryScanner(sizeCap: sizeCap))
    }

    /// A tree with nested folders, a zip and a 7z, and files that must be skipped or reported.
    private func buildTree() throws {
        try folder.write("roms/nes/Super Game (USA).nes", TestRom.nes())
        try folder.write("roms/gb/deep/er/Tetris DX.gb", TestRom.gameBoy(title: "TETRIS", color: false))
        try folder.write("roms/misc/mystery.bin", TestRom.gba(title: "MYSTERY"))
        try folder.write("roms/misc/readme.txt", Array("not a rom".utf8))
        try folder.write("roms/misc/broken.nes", TestRom.noise(count: 4096, seed: 1))
        try folder.write("roms/.hidden/secret.nes", TestRom.nes())
        try folder.write("staging/zip/colour.gbc", TestRom.gameBoy(title: "COLOURFUL", color: true))
        try folder.write("staging/zip/sub/dir/Other_Game.nes", TestRom.nes(filler: 1))
        try folder.write("staging/zip/notes.txt", Array("hello".utf8))
        try folder.write("staging/inner/inner.nes", TestRom.nes(filler: 2))
        try FileManager.default.createDirectory(at: roms.appendingPathComponent("archives"), withIntermediateDirectories: true)
        try runTool(["zip", "-q", "../zip/inner.zip", "inner.nes"], in: folder.url.appendingPathComponent("staging/inner"))
        try runTool(["zip", "-q", "-r", "../../roms/archives/pack.zip", "."], in: folder.url.appendingPathComponent("staging/zip"))
        try folder.write("staging/7z/Advance.gba", TestRom.gba(title: "ADVANCE"))
        try folder.write("staging/7z/Bonk.pce", [UInt8](repeating: 3, count: 16384 + 512))
        try runTool(["7z", "a", "-bd", "-y", "../../roms/archives/pack.7z", "."], in: folder.url.appendingPathComponent("staging/7z"))
    }

    func testScanFindsRomsInNestedFoldersAndArchives() throws {
        try buildTree()
        let library = try openLibrary()
        try library.addFolder(roms)
        try library.addFolder(roms)   // idempotent
        XCTAssertEqual(try library.folders().map(\.url.path), [roms.path])

        var progress: [ScanProgress] = []
        let report = try library.scan { progress.append($0) }

        let games = try library.games()
        let summary = games.map { "\($0.system.rawValue)|\($0.title)|\($0.fileName)|\($0.archiveEntry ?? "-")" }
        XCTAssertEqual(Set(summary), [
            "nes|Super Game (USA)|Super Game (USA).nes|-",
            "gb|TETRIS|Tetris DX.gb|-",
            "gba|MYSTERY|mystery.bin|-",
            "gbc|COLOURFUL|colour.gbc|colour.gbc",
            "nes|Other Game|Other_Game.nes|sub/dir/Other_Game.nes",
            "gba|ADVANCE|Advance.gba|Advance.gba",
            "pce|Bonk|Bonk.pce|Bonk.pce",
        ])
        XCTAssertEqual(report.gamesAdded, 7)
        XCTAssertEqual(try library.systemCounts(), [.nes: 2, .gb: 1, .gba: 2, .gbc: 1, .pce: 1])

        // CRC-32 of the data, after the PC Engine copier header.
        let bonk = try XCTUnwrap(games.first { $0.system == .pce })
        XCTAssertEqual(bonk.crc32, CRC32.checksum([UInt8](repeating: 3, count: 16384)))
        XCTAssertEqual(bonk.size, 16384 + 512)
        let tetris = try XCTUnwrap(games.first { $0.system == .gb })
        XCTAssertEqual(tetris.crc32, CRC32.checksum(TestRom.gameBoy(title: "TETRIS", color: false)))

        // Only the broken ROM is a problem; the txt files, the hidden folder and the nested zip are skipped quietly.
        XCTAssertEqual(report.problems.map(\.message),
                       ["\(roms.path)/misc/broken.nes: not an NES ROM: no iNES header"])
        XCTAssertEqual(try library.problems(), report.problems)
        XCTAssertEqual(report.filesRead.count, 6)   // 4 plain candidates + 2 archives

        XCTAssertEqual(progress.last, ScanProgress(filesSeen: 6, totalGuess: 6, currentFile: "", gamesFound: 7, skipped: 1))
        // While walking, the count of candidates found so far and the folder entered.
        let walking = progress.filter(\.isWalking)
        XCTAssertEqual(walking.first?.currentFolder, roms.path)
        XCTAssertTrue(walking.contains { $0.currentFolder == roms.appendingPathComponent("misc").path })
        XCTAssertEqual(progress.filter { !$0.isWalking }.map(\.filesSeen), Array(0...6))

        // Playing an archived game extracts it once into the cache.
        let colour = try XCTUnwrap(games.first { $0.system == .gbc })
        let file = try library.playableFile(for: colour)
        XCTAssertEqual(Array(try Data(contentsOf: file)), TestRom.gameBoy(title: "COLOURFUL", color: true))
        XCTAssertTrue(file.path.hasPrefix(library.extractionFolder.path + "/"))
        XCTAssertEqual(try library.playableFile(for: tetris).path, tetris.path)
    }

    func testArchiveSafetyProblemsAreOneLineEachAndTheRestStillScans() throws {
        try writeStoredZip([("../escape.nes", TestRom.nes()), ("/etc/abs.nes", TestRom.nes()),
                            ("good.nes", TestRom.nes())], to: try folder.write("roms/slip.zip", []))
        try folder.write("staging/big.nes", TestRom.nes() + [UInt8](repeating: 0, count: 2 << 20))
        try folder.write("staging/locked.nes", TestRom.nes(filler: 9))
        try runTool(["zip", "-q", "../roms/big.zip", "big.nes"], in: folder.url.appendingPathComponent("staging"))
        try runTool(["zip", "-q", "-P", "pw", "../roms/locked.zip", "locked.nes"], in: folder.url.appendingPathComponent("staging"))
        try folder.write("roms/fake.7z", Array("garbage".utf8))

        let library = try openLibrary(sizeCap: 1 << 20)
        try library.addFolder(roms)
        let report = try library.scan()
        XCTAssertEqual(try library.games().map { $0.archiveEntry ?? "" }, ["good.nes"])
        let messages = report.problems.map(\.message)
        XCTAssertEqual(messages.count, 5, messages.joined(separator: "\n"))
        for message in messages { XCTAssertFalse(message.contains("\n")) }
        XCTAssertTrue(messages.contains("\(roms.path)/big.zip: refused entry \"big.nes\": larger than the 1 MiB limit"))
        XCTAssertTrue(messages.contains("\(roms.path)/locked.zip: refused entry \"locked.nes\": encrypted (password-protected)"))
        XCTAssertTrue(messages.contains("\(roms.path)/slip.zip: refused entry \"../escape.nes\": path leaves the archive folder"))
        XCTAssertTrue(messages.contains("\(roms.path)/slip.zip: refused entry \"/etc/abs.nes\": path leaves the archive folder"))
        XCTAssertTrue(messages.contains { $0.hasPrefix("\(roms.path)/fake.7z: archive_read_") }, messages.joined(separator: "\n"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("escape.nes").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/etc/abs.nes"))
    }

    /// A file whose name is not UTF-8 (a Latin-1 "café.nes") can't be opened through Foundation's
    /// String paths: the scan names it in one line instead of leaving it out without a word.
    func testFileNameThatIsNotUTF8IsReportedNotSilentlySkipped() throws {
        try folder.write("roms/good.nes", TestRom.nes())
        let bad = Array(roms.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".nes".utf8) + [0]
        let descriptor = bad.withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT, 0o644)
        }
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        close(descriptor)

        let library = try openLibrary()
        try library.addFolder(roms)
        let report = try library.scan()
        XCTAssertEqual(try library.games().map(\.fileName), ["good.nes"])
        XCTAssertEqual(report.problems.map(\.message), ["\(roms.path)/caf\u{FFFD}.nes: the file name is not valid UTF-8 (rename the file to add it)"])
    }

    func testRescanIsIncremental() throws {
        try folder.write("roms/a.nes", TestRom.nes(filler: 1))
        try folder.write("roms/b/b.gb", TestRom.gameBoy(title: "BEE", color: false))
        try folder.write("roms/c.gba", TestRom.gba(title: "SEA"))
        try folder.write("roms/bad.nes", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17])
        let library = try openLibrary()
        try library.addFolder(roms)
        let first = try library.scan()
        XCTAssertEqual(first.filesRead.count, 4)
        XCTAssertEqual(first.gamesAdded, 3)

        // Nothing changed: nothing is read, not even the bad file.
        let second = try library.scan()
        XCTAssertEqual(second.filesRead, [])
        XCTAssertEqual(second.filesUnchanged, 4)
        XCTAssertEqual(second.problems, [])

        // Change one file (content and mtime): only it is read, and its statistics survive.
        let bee = try XCTUnwrap(try library.games(system: .gb).first)
        try library.recordPlayStart(gameID: bee.id)
        try library.recordPlayStop(gameID: bee.id, seconds: 90)
        let beeFile = roms.appendingPathComponent("b/b.gb")
        try Data(TestRom.gameBoy(title: "BEE DELUXE", color: true)).write(to: beeFile)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 100)], ofItemAtPath: beeFile.path)
        let third = try library.scan()
        XCTAssertEqual(third.filesRead, [beeFile.path])
        XCTAssertEqual(third.gamesUpdated, 1)
        XCTAssertEqual(third.gamesAdded, 0)
        let updated = try XCTUnwrap(try library.game(id: bee.id))
        XCTAssertEqual(updated.title, "BEE DELUXE")
        XCTAssertEqual(updated.system, .gbc)
        XCTAssertEqual(updated.playTime, 90)
        XCTAssertEqual(updated.playCount, 1)

        // Delete one: its row goes, nothing is read.
        try FileManager.default.removeItem(at: roms.appendingPathComponent("c.gba"))
        let fourth = try library.scan()
        XCTAssertEqual(fourth.filesRead, [])
        XCTAssertEqual(fourth.gamesRemoved, 1)
        XCTAssertEqual(try library.games().map(\.fileName).sorted(), ["a.nes", "b.gb"])

        // Move one: it is a new row (statistics stay with the old path, which is gone).
        try FileManager.default.moveItem(at: beeFile, to: roms.appendingPathComponent("moved.gb"))
        let fifth = try library.scan()
        XCTAssertEqual(fifth.filesRead, [roms.appendingPathComponent("moved.gb").path])
        XCTAssertEqual(fifth.gamesAdded, 1)
        XCTAssertEqual(fifth.gamesRemoved, 1)
        XCTAssertNil(try library.game(id: bee.id))

        // Reopening the file keeps everything.
        let reopened = try openLibrary()
        XCTAssertEqual(try reopened.games().count, 2)
        XCTAssertEqual(try reopened.scan().filesRead, [])
    }

    func testSymbolicLinksToFilesAreFollowedAndLinkLoopsAreNot() throws {
        let target = try folder.write("elsewhere/Linked.gba", TestRom.gba(title: "LINKED"))
        try FileManager.default.createDirectory(at: roms.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: roms.appendingPathComponent("sub/Linked.gba"), withDestinationURL: target)
        try FileManager.default.createSymbolicLink(at: roms.appendingPathComponent("sub/loop"), withDestinationURL: roms)
        let library = try openLibrary()
        try library.addFolder(roms)
        let report = try library.scan()
        XCTAssertEqual(report.filesRead, [roms.appendingPathComponent("sub/Linked.gba").path])
        XCTAssertEqual(try library.games().map(\.title), ["LINKED"])
    }

    func testArchiveThatBecomesUnreadableKeepsItsGames() throws {
        try folder.write("staging/a.nes", TestRom.nes())
        try FileManager.default.createDirectory(at: roms, withIntermediateDirectories: true)
        try runTool(["zip", "-q", "../roms/pack.zip", "a.nes"], in: folder.url.appendingPathComponent("staging"))
        let library = try openLibrary()
        try library.addFolder(roms)
        try library.scan()
        let game = try XCTUnwrap(try library.games().first)
        try library.recordPlayStart(gameID: game.id)
        // Damage the archive (a half-copied file, say): its game and statistics stay.
        let pack = roms.appendingPathComponent("pack.zip")
        try Data(Array("PK broken".utf8)).write(to: pack)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: pack.path)
        let report = try library.scan()
        XCTAssertEqual(report.problems.count, 1)
        XCTAssertEqual(try library.game(id: game.id)?.playCount, 1)
        // It is retried at the next scan, and dropped only once it reads as an archive without that ROM.
        XCTAssertEqual(try library.scan().filesRead, [pack.path])
        try FileManager.default.removeItem(at: pack)
        try writeStoredZip([("other.nes", TestRom.nes(filler: 5))], to: pack)
        let fixed = try library.scan()
        XCTAssertEqual(fixed.gamesRemoved, 1)
        XCTAssertEqual(fixed.gamesAdded, 1)
        XCTAssertEqual(try library.games().map(\.fileName), ["other.nes"])
    }

    func testMissingFolderKeepsItsGamesAndRemovedFolderDropsThem() throws {
        try folder.write("roms/a.nes", TestRom.nes())
        let library = try openLibrary()
        try library.addFolder(roms)
        try library.scan()
        try FileManager.default.moveItem(at: roms, to: folder.url.appendingPathComponent("unplugged"))
        let report = try library.scan()
        XCTAssertEqual(report.problems.map(\.message), ["\(roms.path): folder not found; its games are kept"])
        XCTAssertEqual(try library.games().count, 1)
        try library.removeFolder(roms)
        XCTAssertEqual(try library.games().count, 0)
        XCTAssertEqual(try library.folders(), [])
        XCTAssertThrowsError(try library.addFolder(roms)) { error in
            XCTAssertEqual("\(error)", "\(roms.path): not a folder")
        }
    }

    func testSearchFoldsCaseAndAccentsAndMatchesFileNames() throws {
        try folder.write("roms/Pokémon Rouge (France).nes", TestRom.nes(filler: 1))
        try folder.write("roms/Zelda.nes", TestRom.nes(filler: 2))
        try folder.write("roms/Tetris DX.gbc", TestRom.gameBoy(title: "TETRIS DX", color: true))
        try folder.write("roms/Super Mario World (USA).gb", TestRom.gameBoy(title: "SUPER MARIOLAND", color: false))
        let library = try openLibrary()
        try library.addFolder(roms)
        try library.scan()
        func titles(_ query: String, system: GameSystem? = nil) throws -> [String] {
            try library.games(system: system, search: query).map(\.title)
        }
        XCTAssertEqual(try titles("pokemon"), ["Pokémon Rouge (France)"])
        XCTAssertEqual(try titles("POKÉMON rouge"), ["Pokémon Rouge (France)"])
        XCTAssertEqual(try titles("poke"), ["Pokémon Rouge (France)"])
        XCTAssertEqual(try titles("pokemon bleu"), [])
        XCTAssertEqual(try titles("dx"), ["TETRIS DX"])
        XCTAssertEqual(try titles("world"), ["SUPER MARIOLAND"], "the file name is searchable too")
        XCTAssertEqual(try titles("", system: .nes), ["Pokémon Rouge (France)", "Zelda"])
        XCTAssertEqual(try titles("zelda", system: .gb), [])
        XCTAssertEqual(try titles("%"), [])
    }

    func testSortOrdersFavouritesAndContinue() throws {
        try folder.write("roms/Éclair.nes", TestRom.nes(filler: 1))
        try folder.write("roms/dune.nes", TestRom.nes(filler: 2))
        try folder.write("roms/Fox.nes", TestRom.nes(filler: 3))
        try folder.write("roms/apple.nes", TestRom.nes(filler: 4))
        let library = try openLibrary()
        try library.addFolder(roms)
        try library.scan()
        XCTAssertEqual(try library.games(sort: .title).map(\.title), ["apple", "dune", "Éclair", "Fox"])

        let byTitle = Dictionary(uniqueKeysWithValues: try library.games().map { ($0.title, $0.id) })
        let base = Date(timeIntervalSince1970: 1_800_000_000)
        try library.recordPlayStart(gameID: byTitle["Fox"]!, at: base)
        try library.recordPlayStop(gameID: byTitle["Fox"]!, seconds: 30, at: base.addingTimeInterval(30))
        try library.recordPlayStart(gameID: byTitle["dune"]!, at: base.addingTimeInterval(100))
        try library.recordPlayStop(gameID: byTitle["dune"]!, seconds: 10, at: base.addingTimeInterval(110))
        try library.recordPlayStart(gameID: byTitle["Fox"]!, at: base.addingTimeInterval(200))
        try library.recordPlayStop(gameID: byTitle["Fox"]!, seconds: 5, at: base.addingTimeInterval(205))
        try library.recordPlayStart(gameID: byTitle["apple"]!, at: base.addingTimeInterval(300))
        try library.recordPlayStop(gameID: byTitle["apple"]!, seconds: 20, at: base.addingTimeInterval(320))

        XCTAssertEqual(try library.games(sort: .recent).map(\.title), ["apple", "Fox", "dune", "Éclair"])
        XCTAssertEqual(try library.games(sort: .mostPlayed).map(\.title), ["Fox", "apple", "dune", "Éclair"])
        XCTAssertEqual(try library.recentlyPlayed(limit: 2).map(\.title), ["apple", "Fox"])
        let fox = try XCTUnwrap(try library.game(id: byTitle["Fox"]!))
        XCTAssertEqual(fox.playTime, 35)
        XCTAssertEqual(fox.playCount, 2)
        XCTAssertEqual(fox.lastPlayed, base.addingTimeInterval(205))

        XCTAssertTrue(try library.toggleFavourite(gameID: byTitle["dune"]!))
        try library.setFavourite(gameID: byTitle["Éclair"]!, true)
        XCTAssertEqual(try library.games(favouritesOnly: true).map(\.title), ["dune", "Éclair"])
        XCTAssertFalse(try library.toggleFavourite(gameID: byTitle["dune"]!))
        XCTAssertEqual(try library.games(favouritesOnly: true).map(\.title), ["Éclair"])
    }

    func testCorruptDatabaseIsMovedAsideAndAFreshOneCreated() throws {
        let databaseURL = folder.url.appendingPathComponent("data/library.sqlite")
        let garbage = Array("this is not an SQLite database, it is a sentence repeated. ".utf8) + TestRom.noise(count: 8000, seed: 3)
        try folder.write("data/library.sqlite", garbage)
        let library = try openLibrary()
        let note = try XCTUnwrap(library.recoveryNote)
        XCTAssertTrue(note.hasPrefix("library.sqlite: damaged (file is not a database); moved to library.sqlite.corrupt-"), note)
        XCTAssertFalse(note.contains("\n"))
        let moved = try FileManager.default.contentsOfDirectory(atPath: databaseURL.deletingLastPathComponent().path)
            .filter { $0.hasPrefix("library.sqlite.corrupt-") }
        XCTAssertEqual(moved.count, 1)
        XCTAssertTrue(note.contains(moved[0]))
        XCTAssertEqual(Array(try Data(contentsOf: databaseURL.deletingLastPathComponent().appendingPathComponent(moved[0]))), garbage)
        // The fresh library works.
        try folder.write("roms/a.nes", TestRom.nes())
        try library.addFolder(roms)
        XCTAssertEqual(try library.scan().gamesAdded, 1)
        XCTAssertNil(try openLibrary().recoveryNote)
    }

    func testForeignDatabaseWithAGameTableOfAnotherShapeIsMovedAsideUntouched() throws {
        let databaseURL = folder.url.appendingPathComponent("data/library.sqlite")
        try FileManager.default.createDirectory(at: databaseURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            let other = try SQLiteDatabase(path: databaseURL.path, access: .readWrite)
            try other.run("CREATE TABLE game (name TEXT, score INTEGER)")
            try other.run("INSERT INTO game VALUES ('chess', 3)")
        }
        let original = try Data(contentsOf: databaseURL)

        let library = try openLibrary()
        let note = try XCTUnwrap(library.recoveryNote)
        XCTAssertTrue(note.hasPrefix("library.sqlite: not a Phosphor library (it holds tables game and no library version); "
                                     + "moved to library.sqlite.foreign-"), note)
        XCTAssertTrue(note.hasSuffix(" and started a fresh library"), note)
        XCTAssertFalse(note.contains("\n"))
        let moved = try FileManager.default.contentsOfDirectory(atPath: databaseURL.deletingLastPathComponent().path)
            .filter { $0.hasPrefix("library.sqlite.foreign-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        XCTAssertEqual(moved.count, 1)
        // The other program's file is kept byte for byte (not even switched to WAL).
        XCTAssertEqual(try Data(contentsOf: databaseURL.deletingLastPathComponent().appendingPathComponent(moved[0])), original)
        try folder.write("roms/a.nes", TestRom.nes())
        try library.addFolder(roms)
        XCTAssertEqual(try library.scan().gamesAdded, 1)
        XCTAssertNil(try openLibrary().recoveryNote)
    }

    func testDatabaseAtOurVersionWithAGameTableOfAnotherShapeIsForeignToo() throws {
        let databaseURL = folder.url.appendingPathComponent("data/library.sqlite")
        try FileManager.default.createDirectory(at: databaseURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            let other = try SQLiteDatabase(path: databaseURL.path, access: .readWrite)
            try other.run("CREATE TABLE folder (id INTEGER PRIMARY KEY, path TEXT)")
            try other.run("CREATE TABLE file (id INTEGER PRIMARY KEY, folder_id INTEGER, path TEXT, size INTEGER, mtime REAL, problems TEXT)")
            try other.run("CREATE TABLE game (id INTEGER PRIMARY KEY, title TEXT)")
            try other.run("PRAGMA user_version = 1")
        }
        let library = try openLibrary()
        let note = try XCTUnwrap(library.recoveryNote)
        XCTAssertTrue(note.hasPrefix("library.sqlite: not a Phosphor library (its game table has another shape: no archive_entry, "), note)
        XCTAssertEqual(try library.games(), [])
    }

    func testDamagedPagesAreDetectedToo() throws {
        let library = try openLibrary()
        try folder.write("roms/a.nes", TestRom.nes())
        try library.addFolder(roms)
        try library.scan()
        let databaseURL = library.url
        _ = consume library
        // Overwrite everything after the header page: the file still says "SQLite format 3".
        var bytes = Array(try Data(contentsOf: databaseURL))
        XCTAssertGreaterThan(bytes.count, 4096)
        for index in 100..<bytes.count { bytes[index] = 0xA5 }
        try Data(bytes).write(to: databaseURL)
        let reopened = try openLibrary()
        XCTAssertNotNil(reopened.recoveryNote)
        XCTAssertEqual(try reopened.games(), [])
    }

    func testNewerSchemaIsLeftUntouched() throws {
        let library = try openLibrary()
        let databaseURL = library.url
        try library.addFolder(folder.url)
        _ = consume library
        let raw = try SQLiteDatabase(path: databaseURL.path)
        try raw.run("PRAGMA user_version = 99")
        _ = consume raw
        let before = try Data(contentsOf: databaseURL)
        XCTAssertThrowsError(try openLibrary()) { error in
            XCTAssertEqual("\(error)", "\(databaseURL.path): made by a newer Phosphor (schema 99, this one knows 1); left untouched")
        }
        XCTAssertEqual(try Data(contentsOf: databaseURL), before)
    }

    func testDatabaseFileIsInWALModeWithTheSchemaVersion() throws {
        var library: GameLibrary? = try openLibrary()
        try library?.addFolder(folder.url)
        let databaseURL = try XCTUnwrap(library?.url)
        XCTAssertTrue(FileManager.default.fileExists(atPath: databaseURL.path + "-wal"))
        library = nil   // closing the last connection checkpoints the WAL into the main file
        XCTAssertFalse(FileManager.default.fileExists(atPath: databaseURL.path + "-wal"))
        let header = Array(try Data(contentsOf: databaseURL).prefix(100))
        XCTAssertEqual(Array(header[0..<16]), Array("SQLite format 3\0".utf8))
        XCTAssertEqual(header[18], 2, "file format write version 2 means WAL")
        XCTAssertEqual(header[19], 2, "file format read version 2 means WAL")
        XCTAssertEqual(Array(header[60..<64]), [0, 0, 0, UInt8(GameLibrary.schemaVersion)], "PRAGMA user_version")
    }

    func testHostileFileNamesBecomeSafeTitlesAndProblems() throws {
        try folder.write("roms/evil\u{1B}[2J\u{202E}.nes", TestRom.nes())
        try folder.write("roms/worse\u{1B}]0;x\u{07}.nes", [9, 9, 9])
        let library = try openLibrary()
        try library.addFolder(roms)
        let report = try library.scan()
        XCTAssertEqual(try library.games().map(\.title), ["evil\u{FFFD}[2J\u{FFFD}"])
        XCTAssertEqual(report.problems.count, 1)
        for text in report.problems.map(\.message) + [try library.games()[0].title] {
            XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E }, text)
        }
    }

    func testSQLiteErrorsNameTheFunctionAndMessage() throws {
        let database = try SQLiteDatabase(path: folder.url.appendingPathComponent("x.sqlite").path)
        XCTAssertThrowsError(try database.run("SELEC nonsense")) { error in
            let sqliteError = error as? SQLiteError
            XCTAssertEqual(sqliteError?.function, "sqlite3_prepare_v2(SELEC nonsense)")
            XCTAssertEqual(sqliteError?.message, "near \"SELEC\": syntax error")
            XCTAssertEqual(sqliteError?.isCorruption, false)
        }
        try database.run("CREATE TABLE t (x INTEGER NOT NULL)")
        XCTAssertThrowsError(try database.run("INSERT INTO t VALUES (?)", [.null])) { error in
            XCTAssertEqual("\(error)", "sqlite3_step(INSERT INTO t VALUES (?)): NOT NULL constraint failed: t.x (SQLite code 19)")
        }
    }
}
