import Foundation
import XCTest
@testable import Shell

final class RetroArchContentFoldersTests: XCTestCase {
    func testDefaultsLieInRetroArchsFolderAndTheConfigurationMovesThem() throws {
        let folder = try TemporaryFolder("retroarch-content")
        defer { folder.remove() }
        let retroArch = folder.file("retroarch")
        let environment = ["HOME": folder.url.path]

        // No retroarch.cfg: RetroArch's own defaults under its folder.
        XCTAssertEqual(RetroArchContentFolders.load(folder: retroArch, environment: environment), RetroArchContentFolders(
            thumbnails: retroArch.appendingPathComponent("thumbnails"), playlists: retroArch.appendingPathComponent("playlists"),
            databases: retroArch.appendingPathComponent("database/rdb")))

        // Set: "~" is the home folder, "default" is the default, the others untouched.
        _ = try folder.write("""
        thumbnails_directory = "~/art"
        playlist_directory = "/srv/lists"
        content_database_path = "default"
        savefile_directory = "~/saves"
        """, to: "retroarch/retroarch.cfg")
        let loaded = RetroArchContentFolders.load(folder: retroArch, environment: environment)
        XCTAssertEqual(loaded.thumbnails.path, folder.url.path + "/art")
        XCTAssertEqual(loaded.playlists.path, "/srv/lists")
        XCTAssertEqual(loaded.databases, retroArch.appendingPathComponent("database/rdb"))
        XCTAssertEqual(loaded.labelSources.playlists?.path, "/srv/lists")
        XCTAssertTrue(loaded.labelSources.databaseNames.contains("Nintendo - Game Boy Color"))
    }
}
