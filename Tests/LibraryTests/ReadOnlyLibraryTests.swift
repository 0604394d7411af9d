import Foundation
import Glibc
import XCTest
@testable import Library
@testable import PhosphorKit

/// A read-only or full data folder must not stop Phosphor from starting: playing needs no
/// writes. The disk's refusal is injected through `LibraryFileSystem` (as root, chmod does not
/// stop writes); `ReadOnlyHomeTests` checks the same on a really read-only mount.
final class ReadOnlyLibraryTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var database: URL { folder.url.appendingPathComponent("data/library.sqlite") }

    override func setUpWithError() throws { folder = try TemporaryFolder() }
    override func tearDown() { folder = nil }

    func testUnwritableFolderWithoutADatabaseOpensAnEmptyLibraryInMemory() throws {
        for code in [EROFS, ENOSPC] {
            let library = try GameLibrary(url: database, fileSystem: .refusingWrites(code))
            XCTAssertTrue(library.isReadOnly)
            XCTAssertTrue(library.isInMemory)
            XCTAssertEqual(try library.games(), [])
            let note = try XCTUnwrap(library.readOnlyNote)
            XCTAssertTrue(note.contains("nothing is kept"), note)
            XCTAssertFalse(note.contains("\n"))
            // An in-memory library still takes folders (the bundled cartridges) for this run.
            try folder.write("roms/a.gba", TestRom.gba(title: "ADVANCE"))
            try library.addFolder(folder.url.appendingPathComponent("roms"))
            try library.scan()
            XCTAssertEqual(try library.games().count, 1)
        }
    }

    func testExistingDatabaseOnAReadOnlyDiskOpensReadOnlyWithItsGames() throws {
        try folder.write("roms/a.gba", TestRom.gba(title: "ADVANCE"))
        do {
            let writable = try GameLibrary(url: database)
            try writable.addFolder(folder.url.appendingPathComponent("roms"))
            try writable.scan()
        }
        let library = try GameLibrary(url: database, fileSystem: .refusingWrites(EROFS))
        XCTAssertTrue(library.isReadOnly)
        XCTAssertFalse(library.isInMemory)
        XCTAssertEqual(try library.games().map(\.title), ["ADVANCE"])
        XCTAssertThrowsError(try library.addFolder(folder.url)) { error in
            let line = ErrorText.line(error)
            XCTAssertFalse(line.contains("INSERT"), line)
            XCTAssertFalse(line.contains("sqlite3_"), line)
            XCTAssertTrue(line.contains("cannot be written"), line)
        }
    }
}
