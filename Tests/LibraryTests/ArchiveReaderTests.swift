import Foundation
import XCTest
@testable import Library
@testable import PhosphorKit

final class ArchiveReaderTests: XCTestCase {
    func testCRC32MatchesTheStandardCheckValueAndZip() throws {
        XCTAssertEqual(CRC32.checksum(Array("123456789".utf8)), 0xCBF4_3926)
        let folder = try TemporaryFolder()
        let rom = TestRom.noise(count: 70000, seed: 9)
        try folder.write("n.gb", rom)
        try runTool(["zip", "-q", "n.zip", "n.gb"], in: folder.url)
        let listing = try runTool(["7z", "l", "-slt", "n.zip"], in: folder.url)
        XCTAssertTrue(listing.contains("CRC = " + String(format: "%08X", CRC32.checksum(rom))), listing)
    }

    func testCRC32IsTheSameWhateverTheChunking() {
        // Bit-at-a-time reference, written from the polynomial.
        func reference(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return ~crc
        }
        let data = TestRom.noise(count: 5000, seed: 77)
        XCTAssertEqual(CRC32.checksum(data), reference(data))
        for chunk in [1, 3, 7, 8, 9, 64, 1000] {
            var crc = CRC32()
            var start = 0
            while start < data.count {
                let end = min(start + chunk, data.count)
                data[start..<end].withUnsafeBytes { crc.update($0) }
                start = end
            }
            XCTAssertEqual(crc.value, reference(data), "chunk \(chunk)")
        }
        XCTAssertEqual(CRC32.checksum(data.lazy.map { $0 }), reference(data), "non-contiguous sequence")
    }

    func testEntriesAndExtractionFromZipAnd7z() throws {
        let folder = try TemporaryFolder()
        let colour = TestRom.gameBoy(title: "COLOUR", color: true)
        try folder.write("src/colour.gbc", colour)
        try folder.write("src/sub/game.nes", TestRom.nes())
        try runTool(["zip", "-q", "-r", "../pack.zip", "."], in: folder.url.appendingPathComponent("src"))
        try runTool(["7z", "a", "-bd", "-y", "../pack.7z", "."], in: folder.url.appendingPathComponent("src"))

        for archiveName in ["pack.zip", "pack.7z"] {
            let archive = folder.url.appendingPathComponent(archiveName)
            let entries = try ArchiveReader.entries(of: archive)
            XCTAssertEqual(Set(entries.map(\.path)), ["colour.gbc", "sub/game.nes"], archiveName)
            XCTAssertEqual(entries.first { $0.path == "colour.gbc" }?.size, colour.count)
            XCTAssertFalse(entries.contains { $0.isEncrypted })

            let cache = folder.url.appendingPathComponent("cache-\(archiveName)")
            let extracted = try ArchiveReader.extract(entry: "colour.gbc", from: archive, to: cache)
            XCTAssertEqual(Array(try Data(contentsOf: extracted)), colour)
            XCTAssertEqual(extracted.lastPathComponent, "colour.gbc")
            XCTAssertTrue(extracted.path.hasPrefix(cache.path + "/"))
            // A second call reuses the copy: same file, not rewritten.
            let firstStamp = try FileManager.default.attributesOfItem(atPath: extracted.path)[.modificationDate] as? Date
            Thread.sleep(forTimeInterval: 0.05)
            XCTAssertEqual(try ArchiveReader.extract(entry: "colour.gbc", from: archive, to: cache), extracted)
            XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: extracted.path)[.modificationDate] as? Date, firstStamp)
            // No temporary files left behind.
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: extracted.deletingLastPathComponent().path)
            XCTAssertEqual(leftovers, ["colour.gbc"])

            XCTAssertThrowsError(try ArchiveReader.extract(entry: "missing.nes", from: archive, to: cache)) { error in
                XCTAssertEqual("\(error)", "\(archive.path): no entry \"missing.nes\"")
            }
        }
    }

    func testZipSlipEntriesAreRefusedAndNothingIsWrittenOutside() throws {
        let folder = try TemporaryFolder()
        let archive = folder.url.appendingPathComponent("slip.zip")
        try writeStoredZip([("../evil.nes", TestRom.nes()), ("/tmp/abs-evil.nes", TestRom.nes()),
                            ("a/../../evil2.nes", TestRom.nes()), ("..\\win-evil.nes", TestRom.nes()),
                            ("fine.nes", TestRom.nes())], to: archive)
        // libarchive turns the backslash of "..\\win-evil.nes" into a slash itself.
        XCTAssertEqual(try ArchiveReader.entries(of: archive).map(\.path),
                       ["../evil.nes", "/tmp/abs-evil.nes", "a/../../evil2.nes", "../win-evil.nes", "fine.nes"])
        let cache = folder.url.appendingPathComponent("cache/inner")
        for hostile in ["../evil.nes", "/tmp/abs-evil.nes", "a/../../evil2.nes", "../win-evil.nes"] {
            XCTAssertThrowsError(try ArchiveReader.extract(entry: hostile, from: archive, to: cache)) { error in
                XCTAssertEqual(error as? ArchiveError, .unsafePath(archive: archive.path, entry: hostile))
                XCTAssertTrue("\(error)".hasSuffix("path leaves the archive folder"), "\(error)")
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/abs-evil.nes"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("cache/evil.nes").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("evil2.nes").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.path), "nothing extracted at all")
        let fine = try ArchiveReader.extract(entry: "fine.nes", from: archive, to: cache)
        XCTAssertEqual(Array(try Data(contentsOf: fine)), TestRom.nes())
    }

    func testSafeEntryPathRules() {
        for safe in ["a.nes", "dir/a.nes", "a..b.nes", "..a.nes", "dir/./a.nes"] {
            XCTAssertTrue(ArchiveReader.isSafeEntryPath(safe), safe)
        }
        for unsafe in ["", "/a.nes", "\\a.nes", "C:\\a.nes", "c:a.nes", "..", "../a.nes", "x/../../a.nes", "x\\..\\a.nes"] {
            XCTAssertFalse(ArchiveReader.isSafeEntryPath(unsafe), unsafe)
        }
    }

    func testEntryLargerThanTheCapIsRefused() throws {
        let folder = try TemporaryFolder()
        try folder.write("big.nes", TestRom.nes() + [UInt8](repeating: 0, count: 3 << 20))
        try runTool(["zip", "-q", "big.zip", "big.nes"], in: folder.url)
        let archive = folder.url.appendingPathComponent("big.zip")
        let cache = folder.url.appendingPathComponent("cache")
        XCTAssertThrowsError(try ArchiveReader.extract(entry: "big.nes", from: archive, to: cache, sizeCap: 1 << 20)) { error in
            XCTAssertEqual("\(error)", "\(archive.path): refused entry \"big.nes\": larger than the 1 MiB limit")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.path))
        // The streaming counter catches an entry whose header understates its size.
        let session = try ArchiveSession(url: archive)
        let found = try XCTUnwrap(session.nextEntry())
        let lying = ArchiveEntry(path: found.entry.path, size: 10, isEncrypted: false)
        XCTAssertThrowsError(try session.readData(entry: lying, sizeCap: 1 << 20) { _ in }) { error in
            XCTAssertEqual(error as? ArchiveError, .tooLarge(archive: archive.path, entry: "big.nes", cap: 1 << 20))
        }
    }

    func testEncryptedEntriesAreRefused() throws {
        let folder = try TemporaryFolder()
        try folder.write("secret.nes", TestRom.nes())
        try runTool(["zip", "-q", "-P", "hunter2", "locked.zip", "secret.nes"], in: folder.url)
        try runTool(["7z", "a", "-bd", "-y", "-phunter2", "locked.7z", "secret.nes"], in: folder.url)
        for name in ["locked.zip", "locked.7z"] {
            let archive = folder.url.appendingPathComponent(name)
            XCTAssertThrowsError(try ArchiveReader.extract(entry: "secret.nes", from: archive,
                                                           to: folder.url.appendingPathComponent("cache"))) { error in
                XCTAssertEqual("\(error)", "\(archive.path): refused entry \"secret.nes\": encrypted (password-protected)")
            }
        }
    }

    func testNotAnArchiveGivesOneLineError() throws {
        let folder = try TemporaryFolder()
        let fake = try folder.write("fake.zip", Array("not a zip at all".utf8))
        XCTAssertThrowsError(try ArchiveReader.entries(of: fake)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("\(fake.path): archive_read_"), text)
            XCTAssertFalse(text.contains("\n"))
        }
    }
}
