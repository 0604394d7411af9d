import Foundation
import Library
import PhosphorKit
import TestSupport
import XCTest
@testable import Shell

/// The browser finds RetroArch's box art for games whose file names are not the names RetroArch
/// gave them: its playlist maps each game's CRC to a label, read in the background after the
/// first draw, and the pane is drawn again with the art when the reading ends.
final class RetroArchBoxArtInProcessTests: XCTestCase {
    func testBoxArtNamedAfterAPlaylistLabelAppearsOnceThePlaylistIsRead() throws {
        var labelled: [String] = []
        let harness = try AppHarness(columns: 120, rows: 40, label: "retroarch-art") { paths in
            // The library as the browser will find it, to know the CRCs it stores.
            let library = try GameLibrary(url: paths.database)
            _ = try library.addFolder(try XCTUnwrap(BundledRoms.locate()))
            _ = try library.scan()
            let games = try library.games()
            XCTAssertGreaterThan(games.count, 3)
            // RetroArch beside Phosphor's configuration, with a retroarch.cfg that moves its
            // playlists to a folder of their own.
            let retroArch = paths.config.deletingLastPathComponent().appendingPathComponent("retroarch")
            let playlists = paths.config.deletingLastPathComponent().appendingPathComponent("elsewhere/lists")
            try FileManager.default.createDirectory(at: playlists, withIntermediateDirectories: true)
            try Data("playlist_directory = \"\(playlists.path)\"\n".utf8).write(to: retroArch.appendingPathComponent("retroarch.cfg"),
                                                                                 creatingFolder: true)
            var items: [[String: String]] = []
            for (index, game) in games.enumerated() {
                let label = "Cartridge \(index): The Test (World)"
                labelled.append(label)
                items.append(["path": game.path, "label": label, "crc32": String(format: "%08X|crc", game.crc32),
                              "db_name": game.system.databaseNames[0] + ".lpl", "core_path": "DETECT"])
                let art = retroArch.appendingPathComponent("thumbnails/\(game.system.databaseNames[0])/Named_Boxarts")
                    .appendingPathComponent(ThumbnailFinder.safeName(label) + ".png")
                let png = PNGImage(width: 4, height: 4, rgba: [UInt8]((0..<16).flatMap { _ in [200, 40, UInt8(index * 30), 255] }))
                try Data(try png.encoded()).write(to: art, creatingFolder: true)
            }
            let json = try JSONSerialization.data(withJSONObject: ["version": "1.5", "items": items])
            // Renamed files: the playlist's paths do not name them, only the CRCs match.
            try json.write(to: playlists.appendingPathComponent("Favourites.lpl"))
        }
        defer { harness.finish() }
        try harness.startBrowser()

        // The first draw has no labels yet: the selected game shows neither art nor state.
        harness.step(untilText: "no box art or save state yet")
        // Then the playlist is read on its thread and the pane is drawn again, with the art.
        harness.step(until: "the box art caption") { screen in
            Thread.sleep(forTimeInterval: 0.002)
            return screen.lines.contains { $0.contains("box art") && !$0.contains("no box art") }
        }
        XCTAssertFalse(harness.screen.text.contains("no box art or save state yet"), harness.screen.text)
        XCTAssertTrue(harness.screen.text.contains("▀"), "the art in half blocks")
        XCTAssertEqual(labelled.count, try GameLibrary(url: harness.paths.database).games().count)
    }
}
