import Foundation
import XCTest
@testable import Library
@testable import PhosphorKit

/// The hand-written zip central-directory reader, and the scan that takes archive entries'
/// CRCs from it instead of inflating them.
final class ZipDirectoryTests: XCTestCase {
    func testListsWhatTheZipToolWrote() throws {
        let folder = try TemporaryFolder()
        let big = TestRom.noise(count: 300_000, seed: 1)
        let small = TestRom.gameBoy(title: "SMALL", color: false)
        try folder.write("src/big.gba", big)
        try folder.write("src/sub/small.gb", small)
        try runTool(["zip", "-q", "-r", "../pack.zip", "."], in: folder.url.appendingPathComponent("src"))
        // An archive comment after the end record: the reader must search back past it.
        let archive = folder.url.appendingPathComponent("pack.zip")
        var bytes = [UInt8](try Data(contentsOf: archive))
        let comment = Array("PK\u{5}\u{6} is not where the record is".utf8)
        bytes[bytes.count - 2] = UInt8(comment.count)
        try Data(bytes + comment).write(to: archive)
        let entries = try ZipDirectory.entries(of: archive)
        let files = entries.filter { !$0.isDirectory }
        XCTAssertEqual(Set(files.map(\.path)), ["big.gba", "sub/small.gb"])
        XCTAssertTrue(entries.contains { $0.path == "sub/" && $0.isDirectory })
        let bigEntry = try XCTUnwrap(files.first { $0.path == "big.gba" })
        XCTAssertEqual(bigEntry.size, UInt64(big.count))
        XCTAssertEqual(bigEntry.crc32, CRC32.checksum(big))
        XCTAssertEqual(bigEntry.method, 8, "noise is still deflated by zip")
        XCTAssertEqual(files.first { $0.path == "sub/small.gb" }?.crc32, CRC32.checksum(small))
        XCTAssertFalse(files.contains { $0.isEncrypted })
    }

    func testReadsZip64RecordsAndLibarchiveAgrees() throws {
        let folder = try TemporaryFolder()
        let rom = TestRom.gba(title: "WIDE") + TestRom.noise(count: 100_000, seed: 2)
        let archive = folder.url.appendingPathComponent("wide.zip")
        try writeZip64(name: "Wide Game (World).gba", bytes: rom, to: archive)
        let entries = try ZipDirectory.entries(of: archive)
        XCTAssertEqual(entries.map(\.path), ["Wide Game (World).gba"])
        XCTAssertEqual(entries.first?.size, UInt64(rom.count))
        XCTAssertEqual(entries.first?.compressedSize, UInt64(rom.count))
        XCTAssertEqual(entries.first?.localHeaderOffset, 0)
        XCTAssertEqual(entries.first?.crc32, CRC32.checksum(rom))
        // The writer is right: libarchive reads the same archive and the scan finds the game.
        XCTAssertEqual(try ArchiveReader.entries(of: archive).map(\.size), [rom.count])
        let result = LibraryScanner().read(try candidate(archive))
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.roms.first?.crc32, CRC32.checksum(rom))
    }

    func testCutShortZipsGiveOneLineAndLeaveTheFileAlone() throws {
        let folder = try TemporaryFolder()
        let archive = folder.url.appendingPathComponent("cut.zip")
        try writeStoredZip([("a.gb", TestRom.gameBoy(title: "A", color: false)), ("b.nes", TestRom.nes())], to: archive)
        let whole = try Data(contentsOf: archive)
        // Every length over the directory and end record, and a spread over the data, from empty
        // to one byte short: a clear error naming the file, never a crash or a partial listing
        // (a comment-less zip ends with its end record).
        let directoryStart = Int(ZipDirectory.Reader.uint32([UInt8](whole), whole.count - 6))
        let lengths = Array(stride(from: 0, to: directoryStart, by: 331)) + Array(directoryStart..<whole.count)
        var failures = 0
        for length in lengths {
            try whole.prefix(length).write(to: archive)
            do {
                _ = try ZipDirectory.entries(of: archive)
                XCTFail("\(length) of \(whole.count) bytes listed")
            } catch let error as ArchiveError {
                guard case .damagedDirectory = error else { return XCTFail("\(length): \(error)") }
                let line = "\(error)"
                XCTAssertFalse(line.contains("\n"))
                XCTAssertTrue(line.hasPrefix(archive.path + ": cannot read the zip directory: "), line)
                failures += 1
            }
            XCTAssertEqual(try Data(contentsOf: archive), whole.prefix(length), "the reader wrote nothing")
        }
        XCTAssertEqual(failures, lengths.count)
        try whole.write(to: archive)
        XCTAssertEqual(try ZipDirectory.entries(of: archive).map(\.path), ["a.gb", "b.nes"])
    }

    func testCorruptDirectoriesAreRefusedInOneLine() throws {
        let folder = try TemporaryFolder()
        let archive = folder.url.appendingPathComponent("bad.zip")
        try writeStoredZip([("a.gb", TestRom.gameBoy(title: "A", color: false))], to: archive)
        let good = [UInt8](try Data(contentsOf: archive))
        let directoryStart = Int(ZipDirectory.Reader.uint32(good, good.count - 6))
        func expectRefused(_ bytes: [UInt8], _ reason: String, file: StaticString = #filePath, line: UInt = #line) throws {
            try Data(bytes).write(to: archive)
            XCTAssertThrowsError(try ZipDirectory.entries(of: archive), file: file, line: line) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(error)", file: file, line: line)
                XCTAssertFalse("\(error)".contains("\n"), file: file, line: line)
            }
        }
        var badSignature = good
        badSignature[directoryStart] = 0x51
        try expectRefused(badSignature, "entry 1 of 1 has no central directory signature")
        var hugeCount = good
        hugeCount[good.count - 12] = 0xF0   // total entries 0xF001 in 46-odd bytes
        hugeCount[good.count - 11] = 0xF0
        try expectRefused(hugeCount, "claims 61680 entries")
        var longName = good
        longName[directoryStart + 28] = 0xFF
        try expectRefused(longName, "run past the end of the directory")
        var pastEnd = good
        pastEnd[good.count - 4] = 0x7F   // directory offset (its third byte) far past the file
        try expectRefused(pastEnd, "runs past its end record")
        try expectRefused(Array("not a zip at all, just some text that is long enough".utf8), "no end of central directory record")
        // Any one byte of the directory and end record changed: an answer or one error, no crash.
        for position in directoryStart..<good.count {
            var changed = good
            changed[position] ^= 0xA5
            try Data(changed).write(to: archive)
            do { _ = try ZipDirectory.entries(of: archive) } catch let error as ArchiveError {
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
    }

    func testSuffixChecksumTakesACopierHeaderOutOfAStoredCRC() {
        let header = TestRom.noise(count: 512, seed: 3), body = TestRom.noise(count: 70_001, seed: 4)
        XCTAssertEqual(CRC32.checksumOfSuffix(whole: CRC32.checksum(header + body), prefix: CRC32.checksum(header),
                                              suffixLength: body.count), CRC32.checksum(body))
        XCTAssertEqual(CRC32.checksumOfSuffix(whole: CRC32.checksum(header), prefix: CRC32.checksum(header),
                                              suffixLength: 0), CRC32.checksum([UInt8]()))
    }

    /// The proof that entries are not inflated: the bytes past an entry's header are damaged
    /// (the CRC no longer matches them, which libarchive reports when an entry is read to its
    /// end), yet the scan lists the game with the directory's CRC and the header's title.
    func testScanTakesTheStoredCRCWithoutReadingPastTheHeader() throws {
        let folder = try TemporaryFolder()
        let rom = TestRom.gba(title: "STORED CRC") + TestRom.noise(count: 400_000, seed: 5)
        let archive = folder.url.appendingPathComponent("damaged.zip")
        try writeStoredZip([("Game.gba", rom)], to: archive)
        var bytes = [UInt8](try Data(contentsOf: archive))
        for offset in stride(from: 200_000, to: 300_000, by: 997) { bytes[offset] ^= 0xFF }
        try Data(bytes).write(to: archive)

        let result = LibraryScanner().read(try candidate(archive))
        XCTAssertEqual(result.problems, [])
        XCTAssertEqual(result.roms.map(\.crc32), [CRC32.checksum(rom)])
        XCTAssertEqual(result.roms.map(\.title), ["STORED CRC"])
        XCTAssertEqual(result.roms.map(\.size), [rom.count])
        // Reading the entry whole does see the damage: the listing above never did.
        XCTAssertThrowsError(try ArchiveReader.extract(entry: "Game.gba", from: archive,
                                                       to: folder.url.appendingPathComponent("cache")))
    }

    /// A SNES ROM behind a 512-byte copier header has the same CRC zipped and loose: the header
    /// is taken out of the zip's CRC arithmetically; its data is not inflated for it.
    func testCopierHeaderedRomHasTheSameCRCZippedAndLoose() throws {
        let folder = try TemporaryFolder()
        var snes = TestRom.noise(count: 0x20000, seed: 6)
        let title = Array("COPIER HEADER TEST   ".utf8)
        snes[0x7FC0..<0x7FD5] = ArraySlice(title)
        snes[0x7FD5] = 0x20
        snes[0x7FDC] = 0x34; snes[0x7FDD] = 0x12; snes[0x7FDE] = 0xCB; snes[0x7FDF] = 0xED
        let headered = [UInt8](repeating: 0, count: 512) + snes
        let loose = try folder.write("Copier.smc", headered)
        try folder.write("src/Copier.smc", headered)
        try runTool(["zip", "-q", "../copier.zip", "Copier.smc"], in: folder.url.appendingPathComponent("src"))
        try runTool(["7z", "a", "-bd", "-y", "../copier.7z", "Copier.smc"], in: folder.url.appendingPathComponent("src"))

        let plain = LibraryScanner().read(try candidate(loose)).roms
        XCTAssertEqual(plain.map(\.crc32), [CRC32.checksum(snes)], "header-less, as before")
        for name in ["copier.zip", "copier.7z"] {
            let zipped = LibraryScanner().read(try candidate(folder.url.appendingPathComponent(name)))
            XCTAssertEqual(zipped.problems, [], name)
            XCTAssertEqual(zipped.roms.map(\.crc32), plain.map(\.crc32), name)
            XCTAssertEqual(zipped.roms.map(\.title), plain.map(\.title), name)
            XCTAssertEqual(zipped.roms.map(\.size), [headered.count], name)
        }
    }

    /// 7z: names and sizes from libarchive's header walk; the scan's CRC is the entry's.
    func test7zListingAndScan() throws {
        let folder = try TemporaryFolder()
        let gba = TestRom.gba(title: "SEVEN") + TestRom.noise(count: 200_000, seed: 7)
        let nes = TestRom.nes(filler: 0x11)
        try folder.write("src/Seven (World).gba", gba)
        try folder.write("src/deep/Tiny.nes", nes)
        try runTool(["7z", "a", "-bd", "-y", "../seven.7z", "."], in: folder.url.appendingPathComponent("src"))
        let archive = folder.url.appendingPathComponent("seven.7z")
        let entries = try ArchiveReader.entries(of: archive)
        XCTAssertEqual(Set(entries.map(\.path)), ["Seven (World).gba", "deep/Tiny.nes"])
        XCTAssertEqual(entries.first { $0.path == "Seven (World).gba" }?.size, gba.count)
        let roms = LibraryScanner().read(try candidate(archive)).roms
        XCTAssertEqual(Set(roms.map(\.crc32)), [CRC32.checksum(gba), CRC32.checksum(nes)])
        XCTAssertEqual(roms.first { $0.archiveEntry == "Seven (World).gba" }?.title, "SEVEN")
    }

    private func candidate(_ url: URL) throws -> ScanCandidate {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return ScanCandidate(path: url.path, size: (attributes[.size] as? NSNumber)?.intValue ?? 0,
                             modified: (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)
    }

    /// One stored entry with every size and offset in zip64 fields (APPNOTE 4.3.14 to 4.3.16,
    /// 4.5.3): 0xFFFFFFFF in the 32-bit fields, a zip64 end record and its locator.
    private func writeZip64(name: String, bytes: [UInt8], to url: URL) throws {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * UInt32($0)) & 0xFF) } }
        func le64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(value >> (8 * UInt64($0)) & 0xFF) } }
        let nameBytes = Array(name.utf8)
        let crc = CRC32.checksum(bytes)
        let size = UInt64(bytes.count)
        let localExtra = le16(1) + le16(16) + le64(size) + le64(size)
        let local = le32(0x0403_4B50) + le16(45) + le16(0x800) + le16(0) + le16(0) + le16(0x21) + le32(crc)
            + le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF) + le16(nameBytes.count) + le16(localExtra.count) + nameBytes + localExtra
        let centralExtra = le16(1) + le16(24) + le64(size) + le64(size) + le64(0)
        let central = le32(0x0201_4B50) + le16(45) + le16(45) + le16(0x800) + le16(0) + le16(0) + le16(0x21) + le32(crc)
            + le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF) + le16(nameBytes.count) + le16(centralExtra.count) + le16(0)
            + le16(0) + le16(0) + le32(0) + le32(0xFFFF_FFFF) + nameBytes + centralExtra
        let directoryOffset = UInt64(local.count + bytes.count)
        let zip64EndOffset = directoryOffset + UInt64(central.count)
        let zip64End = le32(0x0606_4B50) + le64(44) + le16(45) + le16(45) + le32(0) + le32(0) + le64(1) + le64(1)
            + le64(UInt64(central.count)) + le64(directoryOffset)
        let locator = le32(0x0706_4B50) + le32(0) + le64(zip64EndOffset) + le32(1)
        let end = le32(0x0605_4B50) + le16(0) + le16(0) + le16(0xFFFF) + le16(0xFFFF) + le32(0xFFFF_FFFF)
            + le32(0xFFFF_FFFF) + le16(0)
        try Data(local + bytes + central + zip64End + locator + end).write(to: url)
    }
}
