import Foundation
import XCTest
@testable import Library
@testable import PhosphorKit

/// A clock the test moves by hand, so the order of cache uses does not depend on mtime resolution.
private final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: Double = 1_700_000_000

    func now() -> Date { lock.withLock { Date(timeIntervalSince1970: seconds) } }
    func advance(_ by: Double = 60) { lock.withLock { seconds += by } }
}

final class ExtractionCacheTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var cacheFolder: URL { folder.url.appendingPathComponent("extracted") }

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder = nil
    }

    /// A zip holding one NES ROM of `bytes` bytes after its header: noise up to 1 MiB (so the
    /// cache holds what the test counts), zeros past it (quick to make; only the size matters).
    private func zip(_ name: String, bytes: Int, seed: UInt64) throws -> URL {
        let noise = min(bytes, 1 << 20)
        let rom = Array(TestRom.nes().prefix(16)) + TestRom.noise(count: noise, seed: seed)
            + [UInt8](repeating: 0, count: bytes - noise)
        try folder.write("staging/\(name).nes", rom)
        try runTool(["zip", "-q", "../\(name).zip", "\(name).nes"], in: folder.url.appendingPathComponent("staging"))
        return folder.url.appendingPathComponent("\(name).zip")
    }

    private func cachedFolders() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: cacheFolder.path).sorted()
    }

    func testExtractingAgainAfterTheArchiveChangedLeavesOneCopy() throws {
        let archive = try zip("game", bytes: 40000, seed: 1)
        let cache = ExtractionCache(folder: cacheFolder)
        let first = try cache.file(entry: "game.nes", in: archive, system: .nes)
        XCTAssertEqual(try cachedFolders().count, 1)

        // `touch`: same bytes, a new mtime, so a new version of the entry.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 3600)], ofItemAtPath: archive.path)
        let second = try cache.file(entry: "game.nes", in: archive, system: .nes)
        XCTAssertNotEqual(first, second)
        XCTAssertEqual(try cachedFolders(), [second.deletingLastPathComponent().lastPathComponent])
        XCTAssertFalse(FileManager.default.fileExists(atPath: first.path))
        XCTAssertEqual(try Data(contentsOf: second).count, 40016)

        // An unchanged archive reuses the copy.
        XCTAssertEqual(try cache.file(entry: "game.nes", in: archive, system: .nes), second)
        XCTAssertEqual(try cachedFolders().count, 1)
    }

    func testTotalCapEvictsTheLeastRecentlyUsedAndNeverTheGameBeingStarted() throws {
        let clock = TestClock()
        let a = try zip("a", bytes: 100_000, seed: 2)
        let b = try zip("b", bytes: 100_000, seed: 3)
        let c = try zip("c", bytes: 100_000, seed: 4)
        let cache = ExtractionCache(folder: cacheFolder, totalCap: 250_000, now: { clock.now() })

        let fileA = try cache.file(entry: "a.nes", in: a, system: .nes)
        clock.advance()
        let fileB = try cache.file(entry: "b.nes", in: b, system: .nes)
        clock.advance()
        // Playing a again makes b the least recently used.
        XCTAssertEqual(try cache.file(entry: "a.nes", in: a, system: .nes), fileA)
        clock.advance()
        let fileC = try cache.file(entry: "c.nes", in: c, system: .nes)

        XCTAssertTrue(FileManager.default.fileExists(atPath: fileA.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fileB.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: fileC.path))
        XCTAssertEqual(try cachedFolders().count, 2)

        // A cap smaller than one game still keeps the game being started (and only it).
        clock.advance()
        let tiny = ExtractionCache(folder: cacheFolder, totalCap: 1000, now: { clock.now() })
        XCTAssertEqual(try tiny.file(entry: "b.nes", in: b, system: .nes), fileB)
        XCTAssertTrue(FileManager.default.fileExists(atPath: fileB.path))
        XCTAssertEqual(try cachedFolders(), [fileB.deletingLastPathComponent().lastPathComponent])
    }

    func testEntryTooLargeForItsSystemIsRefusedInOneLine() throws {
        let archive = try zip("huge", bytes: 9 << 20, seed: 5)
        let cache = ExtractionCache(folder: cacheFolder)
        XCTAssertThrowsError(try cache.file(entry: "huge.nes", in: archive, system: .nes)) { error in
            XCTAssertEqual(ErrorText.line(error),
                           "\(archive.path): refused entry \"huge.nes\": larger than the 8 MiB limit for NES games")
        }
        XCTAssertEqual((try? cachedFolders().flatMap { try FileManager.default.contentsOfDirectory(atPath: cacheFolder.appendingPathComponent($0).path) }) ?? [], [])
        // The same bytes are fine as a DS game's size.
        XCTAssertNoThrow(try cache.file(entry: "huge.nes", in: archive, system: .nds))
    }

    func testScanRefusesAnEntryTooLargeForItsSystem() throws {
        let archive = try zip("huge", bytes: 9 << 20, seed: 6)
        let library = try GameLibrary(url: folder.url.appendingPathComponent("data/library.sqlite"))
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("roms"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: archive, to: folder.url.appendingPathComponent("roms/huge.zip"))
        try library.addFolder(folder.url.appendingPathComponent("roms"))
        let report = try library.scan()
        XCTAssertEqual(try library.games(), [])
        let moved = folder.url.appendingPathComponent("roms/huge.zip").standardizedFileURL.path
        XCTAssertEqual(report.problems.map(\.message),
                       ["\(moved): refused entry \"huge.nes\": larger than the 8 MiB limit for NES games"])
    }
}
