import Foundation
import Synchronization
import XCTest
@testable import Library
@testable import PhosphorKit

final class ThumbnailFinderTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder = nil
    }

    private func game(file: String, title: String, system: GameSystem = .gbc, crc: UInt32 = 0x46DF_91AD) -> Game {
        Game(id: 1, system: system, path: "/roms/\(file)", archiveEntry: nil, title: title, size: 32768, crc32: crc,
             lastPlayed: nil, playTime: 0, playCount: 0, favourite: false)
    }

    func testMatchedByNoIntroNameTitleAndCRCInRetroArchsLayout() throws {
        let own = folder.url.appendingPathComponent("own")
        let retroArch = folder.url.appendingPathComponent("retroarch")
        let finder = ThumbnailFinder(roots: [own, retroArch])
        let boxarts = "Nintendo - Game Boy Color/Named_Boxarts"

        // By the No-Intro name (the file name without extension), with RetroArch's character rule.
        let named = try folder.write("retroarch/\(boxarts)/Pokemon - Crystal Version (USA, Europe) (Rev 1).png", [1])
        XCTAssertEqual(finder.file(for: game(file: "Pokemon - Crystal Version (USA, Europe) (Rev 1).gbc", title: "PM_CRYSTAL"),
                                   kind: .boxart), named)
        let unsafe = try folder.write("retroarch/\(boxarts)/Tom _ Jerry_ The Movie (World).png", [1])
        XCTAssertEqual(finder.file(for: game(file: "Tom & Jerry: The Movie (World).gbc", title: "TOM"), kind: .boxart), unsafe)

        // By the title, and by the name without its tags.
        let titled = try folder.write("retroarch/\(boxarts)/ZELDA DX.png", [1])
        XCTAssertEqual(finder.file(for: game(file: "zelda-dx.gbc", title: "ZELDA DX"), kind: .boxart), titled)
        let untagged = try folder.write("retroarch/\(boxarts)/Wario Land 3.png", [1])
        XCTAssertEqual(finder.file(for: game(file: "Wario Land 3 (World) [!].gbc", title: "WARIO"), kind: .boxart), untagged)

        // By CRC, in Phosphor's own folder, which is searched first.
        let byCRC = try folder.write("own/\(boxarts)/0BADF00D.png", [1])
        let renamed = game(file: "my dump.gbc", title: "MY DUMP", crc: 0x0BAD_F00D)
        XCTAssertEqual(finder.file(for: renamed, kind: .boxart), byCRC)
        let ownNamed = try folder.write("own/\(boxarts)/Pokemon - Crystal Version (USA, Europe) (Rev 1).png", [1])
        XCTAssertEqual(finder.file(for: game(file: "Pokemon - Crystal Version (USA, Europe) (Rev 1).gbc", title: "X"),
                                   kind: .boxart), ownNamed)

        // Another kind, another system's playlist, or no file: nothing.
        XCTAssertNil(finder.file(for: renamed, kind: .snap))
        XCTAssertNil(finder.file(for: game(file: "my dump.gb", title: "MY DUMP", system: .gb, crc: 0x0BAD_F00D), kind: .boxart))
        let snap = try folder.write("retroarch/Nintendo - Game Boy Color/Named_Snaps/ZELDA DX.png", [1])
        XCTAssertEqual(finder.file(for: game(file: "zelda-dx.gbc", title: "ZELDA DX"), kind: .snap), snap)
    }

    func testSafeNamesReplaceRetroArchsCharacters() {
        XCTAssertEqual(ThumbnailFinder.safeName("a&b*c/d:e`f<g>h?i\\j|k\"l"), "a_b_c_d_e_f_g_h_i_j_k_l")
        XCTAssertEqual(ThumbnailFinder.safeName("Pokémon (Rev 1)"), "Pokémon (Rev 1)")
    }

    // MARK: RetroArch's labels

    /// A RetroArch folder with a Game Boy Color database, a playlist, and thumbnails named after
    /// their labels; the finder reads the labels in the background and is waited for.
    private func retroArchFinder(log: @escaping @Sendable (String) -> Void = { _ in }) throws -> (ThumbnailFinder, ThumbnailLabelIndex) {
        let root = folder.url.appendingPathComponent("retroarch")
        let index = ThumbnailLabelIndex(sources: .init(playlists: root.appendingPathComponent("playlists"),
                                                       databases: root.appendingPathComponent("database/rdb")), log: log)
        return (ThumbnailFinder(roots: [folder.url.appendingPathComponent("own"), root.appendingPathComponent("thumbnails")],
                                labels: index), index)
    }

    private func writeDatabase(_ name: String, _ records: [MessagePackValue]) throws {
        _ = try folder.write("retroarch/database/rdb/\(name).rdb", retroArchDatabase(records))
    }

    private func writeBoxart(_ folderName: String, _ name: String, root: String = "retroarch/thumbnails") throws -> URL {
        try folder.write("\(root)/\(folderName)/Named_Boxarts/\(name).png", [1])
    }

    func testRenamedGameIsMatchedByCRCAndByROMNameThroughRetroArchsDatabase() throws {
        try writeDatabase("Nintendo - Game Boy Color", [
            databaseRecord(name: "Pokemon - Crystal Version (USA, Europe) (Rev 1)",
                           romName: "Pokemon - Crystal Version (USA, Europe) (Rev 1).gbc", crc: 0x3358_E30A),
            databaseRecord(name: "Tom & Jerry: The Movie (World)", romName: "tomjerry.gbc", crc: 0x1111_2222),
        ] + (0..<500).map { databaseRecord(name: "Filler \($0) (Japan)", romName: "filler\($0).gbc", crc: 0x7000_0000 + UInt32($0)) })
        let crystal = try writeBoxart("Nintendo - Game Boy Color", "Pokemon - Crystal Version (USA, Europe) (Rev 1)")
        let tom = try writeBoxart("Nintendo - Game Boy Color", "Tom _ Jerry_ The Movie (World)")
        let (finder, index) = try retroArchFinder()
        let renamed = game(file: "pkmn crystal.gbc", title: "PM_CRYSTAL", crc: 0x3358_E30A)

        // Until the labels are read, the renamed file has no art; the first lookup starts the reading.
        XCTAssertEqual(finder.labelsGeneration, 0)
        XCTAssertNil(index.current())
        index.waitUntilBuilt()
        XCTAssertEqual(finder.labelsGeneration, 1)

        // By CRC: a file name nothing like its label, the label with RetroArch's character rule.
        XCTAssertEqual(finder.file(for: renamed, kind: .boxart), crystal)
        // By rom_name: a CRC the database does not know (a patched dump), the file name it does.
        XCTAssertEqual(finder.file(for: game(file: "tomjerry.gbc", title: "TOM", crc: 0x0BAD_0BAD), kind: .boxart), tom)
        // Neither: nothing, and another kind has no picture either.
        XCTAssertNil(finder.file(for: game(file: "other.gbc", title: "OTHER", crc: 0x0BAD_0BAD), kind: .boxart))
        XCTAssertNil(finder.file(for: renamed, kind: .snap))
        // Phosphor's own folder, in the same layout, is looked in first for a label too.
        let own = try writeBoxart("Nintendo - Game Boy Color", "Pokemon - Crystal Version (USA, Europe) (Rev 1)", root: "own")
        XCTAssertEqual(finder.file(for: renamed, kind: .boxart), own)
    }

    func testRenamedGameIsMatchedThroughAPlaylistInItsDatabasesFolder() throws {
        // A playlist of the user's own name whose items name their database; one item names none
        // (its thumbnails are under the playlist's name); an old six-line playlist too.
        _ = try folder.write("retroarch/playlists/My favourites.lpl", Array("""
        {"version": "1.5", "items": [
          {"path": "/roms/t.gb", "label": "Tetris (World) (Rev 1)", "crc32": "46DF91AD|crc", "db_name": "Nintendo - Game Boy.lpl"},
          {"path": "/roms/w.zip#w3.gbc", "label": "Wario Land 3 (World) (En,Ja)", "crc32": "DETECT", "db_name": ""}
        ]}
        """.utf8))
        _ = try folder.write("retroarch/playlists/Nintendo - Game Boy Color.lpl",
                             Array("/roms/z.gbc\nLegend of Zelda, The - Link's Awakening DX (USA, Europe) (Rev 2)\nDETECT\nDETECT\n"
                                   .utf8) + Array("B2E4B1A8|crc\nNintendo - Game Boy Color.lpl\n".utf8))
        let tetris = try writeBoxart("Nintendo - Game Boy", "Tetris (World) (Rev 1)")
        let wario = try writeBoxart("My favourites", "Wario Land 3 (World) (En,Ja)")
        let zelda = try writeBoxart("Nintendo - Game Boy Color", "Legend of Zelda, The - Link's Awakening DX (USA, Europe) (Rev 2)")
        let (finder, index) = try retroArchFinder()
        index.waitUntilBuilt()

        XCTAssertEqual(finder.file(for: game(file: "tetris.gb", title: "TETRIS", system: .gb, crc: 0x46DF_91AD), kind: .boxart), tetris)
        // By the file name of the playlist's path (an archive's entry), without a CRC.
        XCTAssertEqual(finder.file(for: game(file: "w3.gbc", title: "WARIO", crc: 0x0BAD_0BAD), kind: .boxart), wario)
        XCTAssertEqual(finder.file(for: game(file: "zelda dx.gbc", title: "ZELDA", crc: 0xB2E4_B1A8), kind: .boxart), zelda)
    }

    func testCorruptDatabaseOrPlaylistIsSkippedWithOneLogLineAndTheRestStillCounts() throws {
        let whole = retroArchDatabase((0..<50).map { databaseRecord(name: "Game \($0) (World)", crc: 0x100 + UInt32($0)) })
        let truncated = try folder.write("retroarch/database/rdb/Nintendo - Game Boy.rdb", Array(whole[0..<(whole.count / 2)]))
        let brokenPlaylist = try folder.write("retroarch/playlists/Broken.lpl", Array("{\"items\": [{\"path\": ".utf8))
        try writeDatabase("Nintendo - Game Boy Color", [databaseRecord(name: "Kept (World)", crc: 0x4242_4242)])
        let kept = try writeBoxart("Nintendo - Game Boy Color", "Kept (World)")
        let logged = Mutex<[String]>([])
        let (finder, index) = try retroArchFinder(log: { line in logged.withLock { $0.append(line) } })
        index.waitUntilBuilt()

        let lines = logged.withLock { $0 }
        XCTAssertEqual(lines.count, 2, lines.joined(separator: "\n"))
        // Cut in half, its metadata offset points past its end.
        XCTAssertTrue(lines[0].hasPrefix("thumbnails: \(truncated.path): its metadata offset "), lines[0])
        XCTAssertTrue(lines[0].contains("lies outside its \(whole.count / 2) bytes"), lines[0])
        XCTAssertTrue(lines[0].hasSuffix("; skipped"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("thumbnails: \(brokenPlaylist.path): not a playlist ("), lines[1])
        XCTAssertFalse(lines.joined().contains("\n"))
        XCTAssertEqual(finder.file(for: game(file: "k.gbc", title: "K", crc: 0x4242_4242), kind: .boxart), kept)
        XCTAssertNil(finder.file(for: game(file: "g.gb", title: "G", system: .gb, crc: 0x100), kind: .boxart))
        // Looked at again without a change: not read again, so not logged again.
        index.refresh()
        index.waitUntilBuilt()
        XCTAssertEqual(logged.withLock { $0.count }, 2)
        XCTAssertEqual(finder.labelsGeneration, 1)
    }

    func testChangedPlaylistIsReadAgainOnRefresh() throws {
        let playlist = "retroarch/playlists/Nintendo - Game Boy Color.lpl"
        _ = try folder.write(playlist, Array("{\"items\": []}".utf8))
        let art = try writeBoxart("Nintendo - Game Boy Color", "Shantae (USA)")
        let (finder, index) = try retroArchFinder()
        let shantae = game(file: "sh.gbc", title: "SHANTAE", crc: 0x0123_4567)
        index.waitUntilBuilt()
        XCTAssertNil(finder.file(for: shantae, kind: .boxart))

        let file = try folder.write(playlist, Array("""
        {"items": [{"path": "/r/sh.gbc", "label": "Shantae (USA)", "crc32": "01234567|crc", "db_name": "Nintendo - Game Boy Color.lpl"}]}
        """.utf8))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: file.path)
        index.refresh()
        index.waitUntilBuilt()
        XCTAssertEqual(finder.labelsGeneration, 2)
        XCTAssertEqual(finder.file(for: shantae, kind: .boxart), art)
    }
}
