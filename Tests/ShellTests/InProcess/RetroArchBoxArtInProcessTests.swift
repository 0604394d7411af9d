import Foundation
import Library
import PhosphorKit
import TestSupport
import XCTest
@testable import Shell

/// The browser finds RetroArch's box art for games whose file names are not the names RetroArch
/// gave them: its playlist maps each game's CRC to a label, read in the background (after the
/// first draw; again, when changed, on coming back to the browser), and the pane is drawn again
/// with the art when the reading ends.
final class RetroArchBoxArtInProcessTests: XCTestCase {
    func testBoxArtNamedAfterAPlaylistLabelAppearsOnceTheChangedPlaylistIsRead() throws {
        var labelled: [String] = []
        var playlistJSON = Data()
        var playlist = URL(fileURLWithPath: "/")
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
            // A playlist of RetroArch's size: its reading takes long enough that the browser has
            // drawn (without the art) before it ends, so only the redraw at its end shows the art.
            for filler in 0..<20_000 {
                items.append(["path": "/elsewhere/filler\(filler).gbc", "label": "Filler \(filler) (Japan)",
                              "crc32": String(format: "%08X|crc", 0x7000_0000 + filler), "db_name": "Nintendo - Game Boy Color.lpl"])
            }
            playlistJSON = try JSONSerialization.data(withJSONObject: ["version": "1.5", "items": items])
            playlist = playlists.appendingPathComponent("Favourites.lpl")
            try Data(#"{"version": "1.5", "items": []}"#.utf8).write(to: playlist)
        }
        defer { harness.finish() }
        try harness.startBrowser()

        // The playlist is empty: the selected game shows neither art nor state, also once the
        // startup scan (which draws the browser as it goes) is over.
        harness.step(untilText: "no box art or save state yet")
        harness.step(untilText: "\(labelled.count) games")
        XCTAssertTrue(harness.screen.contains("no box art or save state yet"))

        // RetroArch fills the playlist; the renamed files' paths do not name them, only the CRCs
        // match. Back in the browser (a menu opened and closed), the changed file is read on its
        // thread and the pane is drawn again, with the art, without a key pressed.
        try playlistJSON.write(to: playlist)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: playlist.path)
        harness.type("\u{0F}")  // Ctrl-O
        harness.step(untilText: "Rescan Library")
        harness.type("\u{1B}")
        harness.step(until: "the menu closed") { !$0.contains("Rescan Library") }
        harness.step(until: "the box art caption") { screen in
            Thread.sleep(forTimeInterval: 0.005)  // real time for the reading thread: up to 15 s under load
            return screen.lines.contains { $0.hasSuffix("│ box art") || $0.contains("│ box art ") }
        }
        XCTAssertFalse(harness.screen.text.contains("no box art or save state yet"), harness.screen.text)
        XCTAssertTrue(harness.screen.text.contains("▀"), "the art in half blocks:\n\(harness.screen.text)")
        XCTAssertEqual(labelled.count, try GameLibrary(url: harness.paths.database).games().count)
    }
}
