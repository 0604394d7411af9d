import Foundation
import XCTest
@testable import Library
@testable import PhosphorKit
@testable import Shell

final class PreviewCacheTests: XCTestCase {
    private func game() -> Game {
        Game(id: 7, system: .gbc, path: "/roms/Zelda DX (USA).gbc", archiveEntry: nil, title: "ZELDA", size: 32768,
             crc32: 0x1234_5678, lastPlayed: nil, playTime: 0, playCount: 0, favourite: false)
    }

    private func png(_ red: UInt8) throws -> Data {
        Data(try PNGImage(width: 4, height: 4, rgba: [UInt8]((0..<16).flatMap { _ in [red, 0, 0, 255] })).encoded())
    }

    func testThumbnailWinsABrokenOneIsSkippedWithOneLogLineAndTheStateShowsInstead() throws {
        let folder = try TemporaryFolder("preview")
        defer { folder.remove() }
        let root = folder.file("thumbnails")
        let boxart = root.appendingPathComponent("Nintendo - Game Boy Color/Named_Boxarts/Zelda DX (USA).png")
        try FileManager.default.createDirectory(at: boxart.deletingLastPathComponent(), withIntermediateDirectories: true)
        let states = folder.file("states")
        try FileManager.default.createDirectory(at: states, withIntermediateDirectories: true)
        var logged: [String] = []
        var cache = PreviewCache(log: { logged.append($0) })
        let finder = ThumbnailFinder(roots: [root])

        // No art, no state: nothing (the pane shows the title).
        XCTAssertNil(cache.art(for: game(), finder: finder, kind: .boxart, stateFolder: states, columns: 8, rows: 4))

        // Box art present: it is shown, red.
        try png(255).write(to: boxart)
        cache.invalidate()
        let shown = try XCTUnwrap(cache.art(for: game(), finder: finder, kind: .boxart, stateFolder: states, columns: 8, rows: 4))
        XCTAssertEqual(shown.source, .thumbnail(.boxart))

        // A save state's screenshot exists too; the box art is broken: skipped with one log line,
        // however often the pane is drawn, and the state shows instead.
        let screenshot = PreviewCache.statesScreenshotForTests(game: game(), folder: states)
        try png(0).write(to: screenshot)
        try Data("not a png".utf8).write(to: boxart)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 30)], ofItemAtPath: boxart.path)
        cache.invalidate()
        for _ in 0..<5 {
            let fallback = try XCTUnwrap(cache.art(for: game(), finder: finder, kind: .boxart, stateFolder: states, columns: 8, rows: 4))
            XCTAssertEqual(fallback.source, .saveState)
        }
        XCTAssertEqual(logged.count, 1, logged.joined(separator: "\n"))
        XCTAssertTrue(logged[0].hasPrefix("preview: \(boxart.path): not a readable PNG"), logged[0])
        XCTAssertFalse(logged[0].contains("\n"))
    }

    func testGameWithoutAMatchingLabelShowsItsLatestStateElseNothingAndLabelsArrivingAreLookedUpAgain() throws {
        let folder = try TemporaryFolder("preview-labels")
        defer { folder.remove() }
        let root = folder.file("thumbnails")
        let states = folder.file("states")
        try FileManager.default.createDirectory(at: states, withIntermediateDirectories: true)
        // RetroArch knows another game only: its CRC and file name are not this one's.
        _ = try folder.write("""
        {"items": [{"path": "/r/other.gbc", "label": "Other (World)", "crc32": "0BADF00D|crc", "db_name": "Nintendo - Game Boy Color.lpl"}]}
        """, to: "playlists/Nintendo - Game Boy Color.lpl")
        try png(9).write(to: root.appendingPathComponent("Nintendo - Game Boy Color/Named_Boxarts/Other (World).png"), creatingFolder: true)
        let index = ThumbnailLabelIndex(sources: .init(playlists: folder.file("playlists"), databases: nil))
        let finder = ThumbnailFinder(roots: [root], labels: index)
        var cache = PreviewCache(log: { _ in })

        XCTAssertNil(cache.art(for: game(), finder: finder, kind: .boxart, stateFolder: states, columns: 8, rows: 4))
        index.waitUntilBuilt()
        XCTAssertNil(cache.art(for: game(), finder: finder, kind: .boxart, stateFolder: states, columns: 8, rows: 4),
                     "no label matches: the pane shows the title")
        try png(0).write(to: PreviewCache.statesScreenshotForTests(game: game(), folder: states), creatingFolder: true)
        cache.invalidate()
        XCTAssertEqual(cache.art(for: game(), finder: finder, kind: .boxart, stateFolder: states, columns: 8, rows: 4)?.source, .saveState)

        // The playlist gains this game's CRC: once it is read again, the cached "no art" is
        // forgotten without an invalidate, and the box art wins over the state.
        let playlist = try folder.write("""
        {"items": [{"path": "/r/x.gbc", "label": "Zelda (USA)", "crc32": "12345678|crc", "db_name": "Nintendo - Game Boy Color.lpl"}]}
        """, to: "playlists/Nintendo - Game Boy Color.lpl")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: playlist.path)
        try png(255).write(to: root.appendingPathComponent("Nintendo - Game Boy Color/Named_Boxarts/Zelda (USA).png"))
        XCTAssertEqual(cache.art(for: game(), finder: finder, kind: .boxart, stateFolder: states, columns: 8, rows: 4)?.source, .saveState)
        index.refresh()
        index.waitUntilBuilt()
        XCTAssertEqual(cache.art(for: game(), finder: finder, kind: .boxart, stateFolder: states, columns: 8, rows: 4)?.source,
                       .thumbnail(.boxart))
    }
}
