import Foundation
import XCTest
@testable import Library
@testable import PhosphorKit

/// The hand-read 7z header, and the scan that takes 7z entries' CRCs from it instead of
/// unpacking them whole.
final class SevenZipDirectoryTests: XCTestCase {
    /// A SNES ROM with an internal title, behind a 512-byte copier header.
    static func copierHeaderedSnes() -> [UInt8] {
        var snes = TestRom.noise(count: 0x20000, seed: 16)
        snes[0x7FC0..<0x7FD5] = ArraySlice(Array("SEVEN COPIER TEST    ".utf8))
        snes[0x7FD5] = 0x20
        snes[0x7FDC] = 0x34; snes[0x7FDD] = 0x12; snes[0x7FDE] = 0xCB; snes[0x7FDF] = 0xED
        return [UInt8](repeating: 0, count: 512) + snes
    }

    /// The files of the comparison archives: big and small, headered and not, empty, nested.
    func writeSources(in folder: TemporaryFolder) throws {
        try folder.write("src/Big Game (World).gba", TestRom.gba(title: "BIG SEVEN") + TestRom.noise(count: 300_000, seed: 11))
        try folder.write("src/Copier.smc", Self.copierHeaderedSnes())
        try folder.write("src/deep/Tiny.nes", TestRom.nes(filler: 0x22))
        try folder.write("src/deep/Pocket.gb", TestRom.gameBoy(title: "POCKET", color: false))
        try folder.write("src/Empty.gba", [])
        try folder.write("src/Loose Bits.bin", TestRom.noise(count: 70_000, seed: 12))
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("src/empty folder"),
                                                withIntermediateDirectories: true)
    }

    func testListsWhatThe7zToolWrote() throws {
        let folder = try TemporaryFolder()
        try writeSources(in: folder)
        let source = folder.url.appendingPathComponent("src")
        for (name, options) in [("solid.7z", ["-ms=on"]), ("plain.7z", ["-ms=off"]), ("lzma2.7z", ["-m0=lzma2", "-ms=on"]),
                                ("open.7z", ["-mhc=off"]), ("copy.7z", ["-m0=copy"])] {
            try runTool(["7z", "a", "-bd", "-y"] + options + ["../\(name)", "."], in: source)
            let entries = try SevenZipDirectory.entries(of: folder.url.appendingPathComponent(name))
            let files = entries.filter { !$0.isDirectory }
            XCTAssertEqual(Set(files.map(\.path)), ["Big Game (World).gba", "Copier.smc", "deep/Tiny.nes", "deep/Pocket.gb",
                                                    "Empty.gba", "Loose Bits.bin"], name)
            XCTAssertEqual(Set(entries.filter(\.isDirectory).map(\.path)), ["deep", "empty folder"], name)
            for file in files where file.size > 0 {
                let bytes = [UInt8](try Data(contentsOf: source.appendingPathComponent(file.path)))
                XCTAssertEqual(file.size, UInt64(bytes.count), "\(name) \(file.path)")
                XCTAssertEqual(file.crc32, CRC32.checksum(bytes), "\(name) \(file.path)")
            }
            XCTAssertEqual(files.first { $0.path == "Empty.gba" }?.size, 0, name)
            // Solid: every file with data in one folder; not solid (or stored: never solid): one folder each.
            let folders = Set(files.compactMap(\.folder))
            XCTAssertEqual(folders.count, options.contains("-ms=on") || options.isEmpty || options == ["-mhc=off"] ? 1 : 5, name)
        }
    }

    /// The rows a scan stores (system, title, CRC, size) are those of the same files extracted
    /// by the 7z tool and scanned loose: the full-read path, independent of the stored CRCs.
    func testScanMatchesTheExtractedFilesOnSeveralArchives() throws {
        let folder = try TemporaryFolder()
        try writeSources(in: folder)
        let source = folder.url.appendingPathComponent("src")
        let variants: [(String, [String], [String])] = [
            ("solid.7z", ["-ms=on"], ["."]),
            ("plain.7z", ["-ms=off"], ["."]),
            ("lzma2.7z", ["-m0=lzma2", "-ms=on"], ["."]),
            ("lzma2-plain.7z", ["-m0=lzma2", "-ms=off"], ["."]),
            ("one.7z", [], ["Copier.smc"]),
            ("one-nes.7z", ["-m0=lzma2"], ["deep/Tiny.nes"]),
        ]
        for (name, options, inputs) in variants {
            try runTool(["7z", "a", "-bd", "-y"] + options + ["../\(name)"] + inputs, in: source)
            let archive = folder.url.appendingPathComponent(name)
            let scanned = LibraryScanner().read(try candidate(archive))
            XCTAssertFalse(scanned.couldNotRead, name)
            // The header's names are libarchive's: every file with data takes the stored CRC.
            let stored = try XCTUnwrap(LibraryScanner.storedDirectory(of: archive), name)
            let withData = try ArchiveReader.entries(of: archive).filter { ($0.size ?? 0) > 0 }
            XCTAssertEqual(Set(stored.files.keys), Set(withData.map(\.path)), name)
            XCTAssertEqual(stored.entryCount, try SevenZipDirectory.entries(of: archive).count, name)

            let extracted = folder.url.appendingPathComponent("x-\(name)")
            try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
            try runTool(["7z", "x", "-bd", "-y", "-o\(extracted.path)", archive.path], in: folder.url)
            var loose: [ScannedRom] = []
            var looseProblems = 0
            let enumerator = FileManager.default.enumerator(at: extracted, includingPropertiesForKeys: [.isRegularFileKey])
            while let file = enumerator?.nextObject() as? URL {
                guard try file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
                let result = LibraryScanner().read(try candidate(file))
                loose += result.roms
                looseProblems += result.problems.count
            }
            func rows(_ roms: [ScannedRom]) -> [String] {
                roms.map { "\($0.system) \($0.title) \(String(format: "%08x", $0.crc32)) \($0.size)" }.sorted()
            }
            XCTAssertEqual(rows(scanned.roms), rows(loose), name)
            XCTAssertEqual(scanned.problems.count, looseProblems, "\(name): \(scanned.problems)")
            XCTAssertFalse(scanned.roms.isEmpty, name)
        }
    }

    /// The proof that entries are not unpacked whole: a 7z whose bytes past the entry's header
    /// are damaged still scans, with the header's CRC of the original bytes. Stored (-m0=copy), and
    /// LZMA: noise does not compress, so damage 200 KB into the packed data spoils only what
    /// decodes after the first 64 KiB, which reading the entry whole (extracting it) runs into.
    func testScanTakesTheStoredCRCWithoutReadingPastTheHeader() throws {
        let folder = try TemporaryFolder()
        let rom = TestRom.gba(title: "STORED SEVEN") + TestRom.noise(count: 400_000, seed: 13)
        try folder.write("src/Game.gba", rom)
        for method in ["copy", "lzma", "lzma2"] {
            let name = "damaged-\(method).7z"
            try runTool(["7z", "a", "-bd", "-y", "-m0=\(method)", "../\(name)", "Game.gba"], in: folder.url.appendingPathComponent("src"))
            let archive = folder.url.appendingPathComponent(name)
            var bytes = [UInt8](try Data(contentsOf: archive))
            // The entry's packed data starts right after the 32-byte signature header.
            for offset in stride(from: 32 + 200_000, to: 32 + 300_000, by: 997) { bytes[offset] ^= 0xFF }
            try Data(bytes).write(to: archive)

            let result = LibraryScanner().read(try candidate(archive))
            XCTAssertEqual(result.problems, [], method)
            XCTAssertEqual(result.roms.map(\.crc32), [CRC32.checksum(rom)], method)
            XCTAssertEqual(result.roms.map(\.title), ["STORED SEVEN"], method)
            XCTAssertEqual(result.roms.map(\.size), [rom.count], method)
            if method != "copy" {
                XCTAssertThrowsError(try ArchiveReader.extract(entry: "Game.gba", from: archive,
                                                               to: folder.url.appendingPathComponent("cache")), method)
            }
        }
    }

    /// Encrypted data under a plain header is listed (the header has its CRC) but still refused
    /// as encrypted, as before; an encrypted header is not read, and libarchive's line is reported.
    func testEncrypted7zIsRefusedAsBefore() throws {
        let folder = try TemporaryFolder()
        try folder.write("src/Secret.gba", TestRom.gba(title: "SECRET") + TestRom.noise(count: 100_000, seed: 14))
        let source = folder.url.appendingPathComponent("src")
        try runTool(["7z", "a", "-bd", "-y", "-pphosphor", "../data.7z", "Secret.gba"], in: source)
        try runTool(["7z", "a", "-bd", "-y", "-pphosphor", "-mhe=on", "../header.7z", "Secret.gba"], in: source)
        let data = folder.url.appendingPathComponent("data.7z")
        XCTAssertEqual(try SevenZipDirectory.entries(of: data).map(\.path), ["Secret.gba"])
        XCTAssertEqual(LibraryScanner().read(try candidate(data)).roms, [])
        XCTAssertEqual(LibraryScanner().read(try candidate(data)).problems.map(\.message),
                       ["\(data.path): refused entry \"Secret.gba\": encrypted (password-protected)"])
        let header = folder.url.appendingPathComponent("header.7z")
        XCTAssertThrowsError(try SevenZipDirectory.entries(of: header)) { error in
            XCTAssertTrue("\(error)".contains("method 06F10701"), "\(error)")
        }
        let result = LibraryScanner().read(try candidate(header))
        XCTAssertEqual(result.roms, [])
        XCTAssertEqual(result.problems.count, 1, "\(result.problems)")
    }

    func testCutShortArchivesGiveOneLineNamingTheFile() throws {
        let folder = try TemporaryFolder()
        try writeSources(in: folder)
        try runTool(["7z", "a", "-bd", "-y", "../whole.7z", "."], in: folder.url.appendingPathComponent("src"))
        let whole = [UInt8](try Data(contentsOf: folder.url.appendingPathComponent("whole.7z")))
        let cut = folder.url.appendingPathComponent("cut.7z")
        // Every length over the header at the end, and a spread over the data.
        let lengths = Array(stride(from: 0, to: whole.count - 400, by: 1009)) + Array(max(0, whole.count - 400)..<whole.count)
        for length in lengths {
            try Data(whole[0..<length]).write(to: cut)
            XCTAssertThrowsError(try SevenZipDirectory.entries(of: cut), "\(length)") { error in
                guard case .damagedSevenZipHeader = error as? ArchiveError else { return XCTFail("\(length): \(error)") }
                let line = "\(error)"
                XCTAssertTrue(line.hasPrefix(cut.path + ": cannot read the 7z header: "), line)
                XCTAssertFalse(line.contains("\n"), line)
            }
        }
        XCTAssertEqual(try Data(contentsOf: folder.url.appendingPathComponent("whole.7z")), Data(whole), "never written")
    }

    /// Flipped bytes in the header, with its CRCs recomputed so the parser (and liblzma, for the
    /// packed header) sees them: a listing or one `damagedSevenZipHeader`, never a crash or hang.
    func testCorruptHeadersNeverCrashOrHang() throws {
        let folder = try TemporaryFolder()
        try writeSources(in: folder)
        let source = folder.url.appendingPathComponent("src")
        try runTool(["7z", "a", "-bd", "-y", "-mhc=off", "../open.7z", "."], in: source)
        try runTool(["7z", "a", "-bd", "-y", "-ms=on", "../packed.7z", "."], in: source)
        let mutated = folder.url.appendingPathComponent("mutated.7z")
        var outcomes = (listed: 0, refused: 0)
        for name in ["open.7z", "packed.7z"] {
            let good = [UInt8](try Data(contentsOf: folder.url.appendingPathComponent(name)))
            let headerOffset = 32 + Int(le64(good, 12)), headerSize = Int(le64(good, 20))
            let regions = Array(headerOffset..<(headerOffset + headerSize)) + Array(12..<32)
            for (step, offset) in regions.enumerated() {
                for flip: UInt8 in [0x01, 0x80, 0xFF] where (step + Int(flip)) % 2 == 0 || name == "open.7z" {
                    var bytes = good
                    bytes[offset] ^= flip
                    // Recompute the next header's CRC and the start header's, so the damage gets past them.
                    let newOffset = 32 + Int(truncatingIfNeeded: le64(bytes, 12)), newSize = Int(truncatingIfNeeded: le64(bytes, 20))
                    if newOffset >= 32, newSize >= 0, newOffset <= bytes.count, newSize <= bytes.count - newOffset {
                        put32(&bytes, 28, CRC32.checksum(bytes[newOffset..<(newOffset + newSize)]))
                    }
                    put32(&bytes, 8, CRC32.checksum(bytes[12..<32]))
                    try Data(bytes).write(to: mutated)
                    do {
                        _ = try SevenZipDirectory.entries(of: mutated)
                        outcomes.listed += 1
                    } catch let error as ArchiveError {
                        guard case .damagedSevenZipHeader = error else { return XCTFail("\(name) \(offset): \(error)") }
                        XCTAssertFalse("\(error)".contains("\n"))
                        outcomes.refused += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(outcomes.refused, 100, "the damage reached the parser")
        XCTAssertGreaterThan(outcomes.listed, 0, "some flips (in names, sizes) still parse")
    }

    /// A header claiming absurd counts or sizes is refused before anything is allocated for it.
    func testAbsurdSizesAreRefused() throws {
        let folder = try TemporaryFolder()
        let archive = folder.url.appendingPathComponent("absurd.7z")
        // A signature header pointing at a 1 TiB header.
        var start = SevenZipDirectory.signature + [0, 4] + [0, 0, 0, 0]
        start += le64Bytes(0) + le64Bytes(1 << 40) + [0, 0, 0, 0]
        put32(&start, 8, CRC32.checksum(start[12..<32]))
        try Data(start).write(to: archive)
        XCTAssertThrowsError(try SevenZipDirectory.entries(of: archive)) { error in
            XCTAssertTrue("\(error)".contains("limit"), "\(error)")
        }
        // A plain header whose file list claims 2^62 files.
        let header: [UInt8] = [0x01, 0x05, 0xFF] + le64Bytes(1 << 62) + [0x00, 0x00]
        var bytes = start
        bytes.replaceSubrange(20..<28, with: le64Bytes(UInt64(header.count)))
        put32(&bytes, 28, CRC32.checksum(header))
        put32(&bytes, 8, CRC32.checksum(bytes[12..<32]))
        try Data(bytes + header).write(to: archive)
        XCTAssertThrowsError(try SevenZipDirectory.entries(of: archive)) { error in
            XCTAssertTrue("\(error)".contains("file count says"), "\(error)")
        }
    }

    private func candidate(_ url: URL) throws -> ScanCandidate {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return ScanCandidate(path: url.path, size: (attributes[.size] as? NSNumber)?.intValue ?? 0,
                             modified: (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)
    }

    private func le64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }

    private func le64Bytes(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(value >> (8 * UInt64($0)) & 0xFF) } }

    private func put32(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt32) {
        for index in 0..<4 { bytes[offset + index] = UInt8(value >> (8 * UInt32(index)) & 0xFF) }
    }
}
