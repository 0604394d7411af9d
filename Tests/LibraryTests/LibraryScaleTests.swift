import Foundation
import XCTest
@testable import Library
@testable import PhosphorKit

/// Incremental rescans and stopped scans on libraries of a few hundred files.
final class LibraryScaleTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var roms: URL { folder.url.appendingPathComponent("roms") }

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder = nil
    }

    private func openLibrary() throws -> GameLibrary {
        try GameLibrary(url: folder.url.appendingPathComponent("data/library.sqlite"))
    }

    /// A NES image whose last bytes hold `serial`: its own CRC-32.
    private func rom(_ serial: Int) -> [UInt8] {
        var bytes = TestRom.nes(filler: UInt8(serial % 200))
        withUnsafeBytes(of: UInt64(serial).littleEndian) { bytes.replaceSubrange((bytes.count - 8)..., with: $0) }
        return bytes
    }

    private func path(_ number: Int) -> String {
        roms.appendingPathComponent("\(["a", "b/c", "d/e/f"][number % 3])/game \(number).nes").path
    }

    func testIncrementalRescanFindsExactlyTheAddedChangedAndRemovedFiles() throws {
        for number in 0..<300 { try folder.write("roms/" + path(number).dropFirst(roms.path.count + 1), rom(number)) }
        let library = try openLibrary()
        try library.addFolder(roms)
        let first = try library.scan()
        XCTAssertEqual(first.gamesAdded, 300)
        XCTAssertEqual(first.filesRead.count, 300)
        let crcBefore = Dictionary(uniqueKeysWithValues: try library.games().map { ($0.path, $0.crc32) })

        let added = (300..<320).map(path)
        let changed = stride(from: 7, to: 300, by: 20).map(path)
        let removed = stride(from: 11, to: 300, by: 30).map(path)
        for (offset, file) in added.enumerated() { try Data(rom(300 + offset)).write(to: URL(fileURLWithPath: file)) }
        for (offset, file) in changed.enumerated() {
            try Data(rom(5000 + offset)).write(to: URL(fileURLWithPath: file))
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: file)
        }
        for file in removed { try FileManager.default.removeItem(atPath: file) }

        let second = try library.scan()
        XCTAssertEqual(second.filesRead.sorted(), (added + changed).sorted(), "only new and changed files are opened")
        XCTAssertEqual(second.gamesAdded, added.count)
        XCTAssertEqual(second.gamesUpdated, changed.count)
        XCTAssertEqual(second.gamesRemoved, removed.count)
        XCTAssertEqual(second.filesUnchanged, 300 - changed.count - removed.count)
        let games = try library.games()
        XCTAssertEqual(Set(games.map(\.path)), Set((0..<320).map(path)).subtracting(removed))
        for file in changed {
            XCTAssertNotEqual(games.first { $0.path == file }?.crc32, crcBefore[file], "\(file) was read again")
        }
        XCTAssertEqual(try library.scan().filesRead, [], "a third scan opens nothing")
    }

    func testFilesAreReadAndStoredWhileTheWalkGoesOn() throws {
        for number in 0..<400 { try folder.write("roms/" + path(number).dropFirst(roms.path.count + 1), rom(number)) }
        let library = try openLibrary()
        try library.addFolder(roms)
        // The first folder listed ("a", 134 files) fills a batch, which goes to the workers; the
        // walk is held once for a second (far longer than reading 128 small files) so the batch
        // is done before the next folder is listed, and must be stored before the walk ends.
        var held = false
        var storedWhileWalking = 0
        var foldersAfterTheFirstStore = 0
        let report = try library.scan(progress: { progress in
            guard progress.isWalking else { return }
            if progress.filesSeen >= GameLibrary.readBatch && !held {
                held = true
                Thread.sleep(forTimeInterval: 1)
            }
            if progress.gamesFound > 0 {
                storedWhileWalking = max(storedWhileWalking, progress.gamesFound)
                if progress.currentFile.isEmpty { foldersAfterTheFirstStore += 1 }
            }
        })
        XCTAssertTrue(held)
        XCTAssertGreaterThanOrEqual(storedWhileWalking, GameLibrary.readBatch - 1, "a whole batch was stored mid-walk")
        XCTAssertGreaterThan(foldersAfterTheFirstStore, 0, "the walk went on after the first batch was stored")
        XCTAssertEqual(report.gamesAdded, 400)
        XCTAssertEqual(Set(report.filesRead), Set((0..<400).map(path)))
        XCTAssertEqual(report.filesRead.count, 400, "each file read once")
        XCTAssertEqual(try library.games().count, 400)
    }

    func testStoppedScanKeepsWhatWasReadAndRemovesNothing() throws {
        for number in 0..<400 { try folder.write("roms/" + path(number).dropFirst(roms.path.count + 1), rom(number)) }
        let library = try openLibrary()
        try library.addFolder(roms)
        // Ctrl-C while the first batch is being stored (the walk may still be going on): the
        // scan stops before the next batch, and drops the one being read meanwhile.
        var stop = false
        let stopped = try library.scan(progress: { if $0.gamesFound == 10 { stop = true } },
                                       isCancelled: { stop })
        XCTAssertTrue(stopped.wasCancelled)
        XCTAssertEqual(stopped.filesRead.count, GameLibrary.readBatch)
        XCTAssertEqual(try library.games().count, GameLibrary.readBatch, "the batch written before Ctrl-C is kept")

        // A file removed meanwhile is not dropped by a stopped scan (it did not see everything).
        let gone = try XCTUnwrap(stopped.filesRead.first)
        try FileManager.default.removeItem(atPath: gone)
        let stoppedWhileWalking = try library.scan(isCancelled: { true })
        XCTAssertTrue(stoppedWhileWalking.wasCancelled)
        XCTAssertEqual(stoppedWhileWalking.gamesRemoved, 0)
        XCTAssertEqual(try library.games().count, GameLibrary.readBatch)

        // The next full scan reads only the rest, and drops the removed file.
        let rest = try library.scan()
        XCTAssertFalse(rest.wasCancelled)
        XCTAssertEqual(rest.filesRead.count, 400 - GameLibrary.readBatch)
        XCTAssertEqual(rest.gamesRemoved, 1)
        XCTAssertEqual(try library.games().count, 399)
    }

    func testZipEntryNamedOutsideASCIIKeepsItsName() throws {
        ProcessLocale.useUTF8()
        try writeStoredZip([("Pokémon Crystal (USA).nes", rom(1))], to: try folder.write("roms/pack.zip", []))
        let library = try openLibrary()
        try library.addFolder(roms)
        let report = try library.scan()
        XCTAssertEqual(report.problems, [])
        XCTAssertEqual(try library.games().map(\.archiveEntry), ["Pokémon Crystal (USA).nes"])
    }
}
