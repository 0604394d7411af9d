import Foundation
import XCTest
@testable import Library

final class FolderWatcherTests: XCTestCase {
    func testReportsFilesAddedRemovedAndInNewSubfoldersButNotHiddenOnes() throws {
        let folder = try TemporaryFolder()
        let roms = try folder.write("roms/a/old.nes", TestRom.nes()).deletingLastPathComponent().deletingLastPathComponent()
        let watcher = try FolderWatcher(roots: [roms])
        XCTAssertEqual(watcher.watchedFolderCount, 2)
        XCTAssertFalse(watcher.takeChanges(), "nothing happened yet")

        try folder.write("roms/a/new.nes", TestRom.nes(filler: 1))
        XCTAssertTrue(watcher.takeChanges())
        XCTAssertFalse(watcher.takeChanges(), "each change is reported once")

        try FileManager.default.removeItem(at: roms.appendingPathComponent("a/old.nes"))
        XCTAssertTrue(watcher.takeChanges())

        // A folder created after the watcher started is watched too.
        try FileManager.default.createDirectory(at: roms.appendingPathComponent("b"), withIntermediateDirectories: true)
        XCTAssertTrue(watcher.takeChanges())
        XCTAssertEqual(watcher.watchedFolderCount, 3)
        try folder.write("roms/b/later.gb", TestRom.gameBoy(title: "LATER", color: false))
        XCTAssertTrue(watcher.takeChanges())

        // Hidden files (editors' and copiers' temporary files) are not changes.
        try folder.write("roms/a/.partial.nes", TestRom.nes())
        XCTAssertFalse(watcher.takeChanges())
    }
}
