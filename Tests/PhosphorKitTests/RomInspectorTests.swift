import TestSupport
import XCTest
@testable import PhosphorKit

/// Synthetic ROM images with just enough header for each system, built byte by byte.
enum SyntheticRom {
    static func ascii(_ text: String, into rom: inout [UInt8], at offset: Int) {
        for (index, byte) in text.utf8.enumerated() { rom[offset + index] = byte }
    }

    static func nes(prgBanks: UInt8 = 2) -> [UInt8] {
        var rom = [UInt8](repeating: 0xEA, count: 16 + Int(prgBanks) * 16384 + 8192)
        rom[0..<16] = [0x4E, 0x45, 0x53, 0x1A, prgBanks, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        return rom
    }

    static func gameBoy(title: String, cgbFlag: UInt8, size: Int = 32768, fixChecksum: Bool = true,
                        logo: Bool = true) -> [UInt8] {
        var rom = [UInt8](repeating: 0, count: size)
        if logo { rom[0x104..<0x134] = ArraySlice(HeaderView.gameBoyLogo) }
        ascii(title, into: &rom, at: 0x134)
        rom[0x143] = cgbFlag
        if fixChecksum {
            var sum: UInt8 = 0
            for offset in 0x134...0x14C { sum = sum &- rom[offset] &- 1 }
            rom[0x14D] = sum
        }
        return rom
    }

    /// A licensed header (maker "01"), so at least the 128 KiB of the smallest mask ROM.
    static func gba(title: String, size: Int = 128 * 1024) -> [UInt8] {
        var rom = [UInt8](repeating: 0, count: size)
        ascii(title, into: &rom, at: 0xA0)
        ascii("AXYE01", into: &rom, at: 0xAC)
        rom[0xB2] = 0x96
        var sum: UInt8 = 0
        for offset in 0xA0...0xBC { sum = sum &- rom[offset] }
        rom[0xBD] = sum &- 0x19
        return rom
    }

    static func nds(title: String, gameCode: String = "AXYE") -> [UInt8] {
        var rom = [UInt8](repeating: 0, count: 0x8000)
        ascii(title, into: &rom, at: 0)
        ascii(gameCode, into: &rom, at: 0x0C)
        // ARM9 code at 0x4000 (4 KiB), ARM7 at 0x5000 (1 KiB), 0x8000 bytes used in all.
        for (offset, value) in [(0x20, 0x4000), (0x2C, 0x1000), (0x30, 0x5000), (0x3C, 0x400), (0x80, 0x8000)] {
            for index in 0..<4 { rom[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
        }
        let crc = HeaderView.crc16(rom[0..<0x15E])
        rom[0x15E] = UInt8(crc & 0xFF)
        rom[0x15F] = UInt8(crc >> 8)
        return rom
    }

    static func genesis(domestic: String, overseas: String) -> [UInt8] {
        var rom = [UInt8](repeating: 0x20, count: 0x20000)
        ascii("SEGA GENESIS    ", into: &rom, at: 0x100)
        ascii(domestic, into: &rom, at: 0x120)
        ascii(overseas, into: &rom, at: 0x150)
        return rom
    }

    /// A SNES image with a valid internal header at `base`; `copier` prepends a 512-byte copier header.
    static func snes(title: String, hiROM: Bool, copier: Bool, size: Int = 0x20000) -> [UInt8] {
        var rom = [UInt8](repeating: 0xFF, count: size)
        let base = hiROM ? 0xFFC0 : 0x7FC0
        var padded = Array(title.utf8.prefix(21))
        padded += [UInt8](repeating: 0x20, count: 21 - padded.count)
        rom[base..<base + 21] = ArraySlice(padded)
        rom[base + 0x15] = hiROM ? 0x21 : 0x20
        let checksum: UInt16 = 0x1234
        let complement = ~checksum
        rom[base + 0x1C] = UInt8(complement & 0xFF)
        rom[base + 0x1D] = UInt8(complement >> 8)
        rom[base + 0x1E] = UInt8(checksum & 0xFF)
        rom[base + 0x1F] = UInt8(checksum >> 8)
        rom[base + 0x3C] = 0x00
        rom[base + 0x3D] = 0x80
        return copier ? [UInt8](repeating: 0, count: 512) + rom : rom
    }
}

final class RomInspectorTests: XCTestCase {
    private func inspect(_ name: String, _ rom: [UInt8]) throws -> RomInfo {
        try RomInspector.inspect(fileName: name, bytes: rom, fileSize: rom.count)
    }

    private func inspectionError(_ name: String, _ rom: [UInt8], file: StaticString = #filePath,
                                 line: UInt = #line) -> String {
        do {
            let info = try inspect(name, rom)
            XCTFail("expected an error, got \(info)", file: file, line: line)
            return ""
        } catch {
            let text = "\(error)"
            XCTAssertFalse(text.contains("\n"), "error must be one line: \(text)", file: file, line: line)
            return text
        }
    }

    func testNESByExtensionAndBySniffing() throws {
        XCTAssertEqual(try inspect("Game (USA).nes", SyntheticRom.nes()), RomInfo(system: .nes, title: nil))
        XCTAssertEqual(try inspect("game.bin", SyntheticRom.nes()).system, .nes)
        XCTAssertEqual(try inspect("game", SyntheticRom.nes()).system, .nes)
    }

    func testTruncatedNESIsTooSmallForWhatItsHeaderDeclares() throws {
        let rom = SyntheticRom.nes(prgBanks: 2)
        XCTAssertEqual(inspectionError("cut.nes", Array(rom.prefix(20000))),
                       "cut.nes: too small for an NES ROM (20000 bytes, needs at least 32784)")
        var withTrainer = rom
        withTrainer[6] = 0x04
        XCTAssertEqual(inspectionError("t.nes", withTrainer.prefix(32784) + []),
                       "t.nes: too small for an NES ROM (32784 bytes, needs at least 33296)")
        var nes2 = rom
        nes2[7] = 0x08
        nes2[9] = 0x01   // PRG banks: 0x102
        XCTAssertEqual(inspectionError("n2.nes", nes2),
                       "n2.nes: too small for an NES ROM (\(rom.count) bytes, needs at least \(16 + 0x102 * 16384))")
        nes2[9] = 0x0F   // exponent notation: size not checked
        XCTAssertEqual(try inspect("n2.nes", nes2).system, .nes)
    }

    func testGameBoyColourFlagWinsOverExtension() throws {
        let colour = SyntheticRom.gameBoy(title: "POKEMON CRYSTAL", cgbFlag: 0x80)
        XCTAssertEqual(try inspect("crystal.gb", colour), RomInfo(system: .gbc, title: "POKEMON CRYSTAL"))
        let colourOnly = SyntheticRom.gameBoy(title: "ONLYCOLOR", cgbFlag: 0xC0)
        XCTAssertEqual(try inspect("x.gb", colourOnly).system, .gbc)
        let mono = SyntheticRom.gameBoy(title: "TETRIS", cgbFlag: 0x00)
        XCTAssertEqual(try inspect("tetris.gb", mono), RomInfo(system: .gb, title: "TETRIS"))
        XCTAssertEqual(try inspect("tetris.rom", mono).system, .gb)
        // The title is 16 bytes on a DMG cartridge, so a 0x143 byte that is not a CGB flag is title text.
        let sixteen = SyntheticRom.gameBoy(title: "ABCDEFGHIJKLMNO", cgbFlag: UInt8(ascii: "P"))
        XCTAssertEqual(try inspect("t.gb", sixteen).title, "ABCDEFGHIJKLMNOP")
    }

    func testGameBoyAcceptsLogoOrChecksumButNotNeither() throws {
        let noLogo = SyntheticRom.gameBoy(title: "HOMEBREW", cgbFlag: 0, logo: false)
        XCTAssertEqual(try inspect("h.gb", noLogo).system, .gb)
        let badChecksum = SyntheticRom.gameBoy(title: "HOMEBREW", cgbFlag: 0, fixChecksum: false)
        XCTAssertEqual(try inspect("h.gb", badChecksum).system, .gb)
        var neither = SyntheticRom.gameBoy(title: "HOMEBREW", cgbFlag: 0, fixChecksum: false, logo: false)
        neither[0x14D] = 0x5A
        XCTAssertEqual(inspectionError("h.gb", neither),
                       "h.gb: not a Game Boy ROM: no Nintendo logo at 0x104 and bad header checksum")
        // Without an extension, a checksum alone is too weak a signal.
        XCTAssertThrowsError(try inspect("h.bin", noLogo))
    }

    func testGBA() throws {
        let rom = SyntheticRom.gba(title: "METROID4")
        XCTAssertEqual(try inspect("m.gba", rom), RomInfo(system: .gba, title: "METROID4"))
        XCTAssertEqual(try inspect("m.bin", rom).system, .gba)
        var broken = rom
        broken[0xB2] = 0
        broken[0xBD] &+= 1
        XCTAssertEqual(inspectionError("m.gba", broken),
                       "m.gba: not a Game Boy Advance ROM: no fixed 0x96 at 0xB2 and bad header complement")
        XCTAssertEqual(inspectionError("m.gba", Array(rom.prefix(100))),
                       "m.gba: too small for a Game Boy Advance ROM (100 bytes, needs at least 192)")
    }

    /// A GBA header is the first 192 bytes: a file cut at 512 B or 4 KiB still carries a valid
    /// one, and mGBA then crawls through missing code while flooding the log. Refused in one line.
    func testTruncatedGBAIsRefused() throws {
        let whole = SyntheticRom.gba(title: "METROID4")
        for size in [512, 4096] {
            XCTAssertEqual(inspectionError("m.gba", Array(whole.prefix(size))),
                           "m.gba: cut short: its Game Boy Advance header needs 131072 bytes but the file has \(size); "
                           + "copy or download it again")
            XCTAssertThrowsError(try inspect("m.bin", Array(whole.prefix(size))), "not sniffed as a GBA ROM either")
        }
        // Header plus garbage: the fixed byte is right, the checksum over the header is not.
        var garbage = Array(whole.prefix(4096))
        garbage[0xA5] ^= 0x5A
        XCTAssertEqual(inspectionError("m.gba", garbage),
                       "m.gba: not a Game Boy Advance ROM: bad header checksum at 0xBD (the file is damaged)")
        // Homebrew (maker "00") may be tiny, but the entry branch must land inside the file.
        var homebrew = SyntheticRom.gba(title: "TINY", size: 400)
        homebrew[0xB0] = 0x30; homebrew[0xB1] = 0x30
        homebrew[0xBD] = 0
        var sum: UInt8 = 0
        for offset in 0xA0...0xBC { sum = sum &- homebrew[offset] }
        homebrew[0xBD] = sum &- 0x19
        homebrew[0..<4] = [0x2E, 0x00, 0x00, 0xEA]   // b 0xC0
        XCTAssertEqual(try inspect("t.gba", homebrew).system, .gba)
        homebrew[0..<4] = [0xFE, 0x00, 0x00, 0xEA]   // b 0x400: past the end of 400 bytes
        XCTAssertTrue(inspectionError("t.gba", homebrew).hasPrefix("t.gba: cut short:"))
    }

    /// A DS header says where its ARM9/ARM7 code is and how much of the cartridge is used:
    /// a file shorter than that is cut short, whatever its header CRC says.
    func testTruncatedNDSIsRefused() throws {
        let whole = SyntheticRom.nds(title: "POKEMON D")
        for size in [512, 4096, 0x7FFF] {
            XCTAssertEqual(inspectionError("d.nds", Array(whole.prefix(size))),
                           "d.nds: cut short: its Nintendo DS header needs 32768 bytes but the file has \(size); "
                           + "copy or download it again")
            XCTAssertThrowsError(try inspect("d.bin", Array(whole.prefix(size))))
        }
        var noCode = whole
        noCode[0x2C..<0x30] = [0, 0, 0, 0]
        let crc = HeaderView.crc16(noCode[0..<0x15E])
        noCode[0x15E] = UInt8(crc & 0xFF)
        noCode[0x15F] = UInt8(crc >> 8)
        XCTAssertEqual(inspectionError("d.nds", noCode), "d.nds: not a Nintendo DS ROM: the header names no ARM9 code")
    }

    /// The bundled test cartridges are small but whole: they still pass.
    func testBundledGBAAndNDSCartridgesPass() throws {
        let roms = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Roms")
        XCTAssertEqual(try RomInspector.inspect(file: roms.appendingPathComponent("gba/phosphor-test.gba")).system, .gba)
        XCTAssertEqual(try RomInspector.inspect(file: roms.appendingPathComponent("ds/phosphor-test.nds")).system, .nds)
    }

    func testSNESLoROMAndHiROMWithAndWithoutCopierHeader() throws {
        for hiROM in [false, true] {
            for copier in [false, true] {
                let rom = SyntheticRom.snes(title: "SUPER TEST GAME", hiROM: hiROM, copier: copier)
                for name in ["t.sfc", "t.smc", "t.bin"] {
                    let info = try inspect(name, rom)
                    XCTAssertEqual(info, RomInfo(system: .snes, title: "SUPER TEST GAME",
                                                 copierHeaderSize: copier ? 512 : 0),
                                   "\(name) hiROM=\(hiROM) copier=\(copier)")
                }
            }
        }
        XCTAssertTrue(inspectionError("t.sfc", [UInt8](repeating: 0, count: 0x8000))
            .hasSuffix("not an SNES ROM: no valid LoROM or HiROM header"))
    }

    func testNDSHeaderCRC() throws {
        let rom = SyntheticRom.nds(title: "POKEMON D")
        XCTAssertEqual(try inspect("d.nds", rom), RomInfo(system: .nds, title: "POKEMON D"))
        XCTAssertEqual(try inspect("d.bin", rom).system, .nds)
        var broken = rom
        broken[3] ^= 0xFF
        XCTAssertEqual(inspectionError("d.nds", broken),
                       "d.nds: not a Nintendo DS ROM: header CRC16 at 0x15E does not match")
    }

    /// Homebrew DS games often leave "." or "-" in the header's title field: no title then, so
    /// the library names the game after its file.
    func testNDSHomebrewJunkTitleFallsBackToNoTitle() throws {
        XCTAssertNil(try inspect("hello world.nds", SyntheticRom.nds(title: ".")).title)
        XCTAssertNil(try inspect("hello world.nds", SyntheticRom.nds(title: "- A")).title)
        XCTAssertEqual(try inspect("x.nds", SyntheticRom.nds(title: "PG")).title, "PG")
        XCTAssertEqual(RomInspector.headerTitle(Array("A1".utf8)), "A1")
        XCTAssertNil(RomInspector.headerTitle(Array(". .".utf8)))
    }

    func testNDSCRC16KnownValue() {
        // CRC-16/MODBUS check value for "123456789".
        XCTAssertEqual(HeaderView.crc16(Array("123456789".utf8)), 0x4B37)
    }

    func testGenesisPrefersOverseasTitleAndCollapsesPadding() throws {
        let rom = SyntheticRom.genesis(domestic: "SONIC THE      HEDGEHOG", overseas: "SONIC THE HEDGEHOG 2")
        XCTAssertEqual(try inspect("s.md", rom), RomInfo(system: .genesis, title: "SONIC THE HEDGEHOG 2"))
        let domesticOnly = SyntheticRom.genesis(domestic: "SONIC THE      HEDGEHOG", overseas: "")
        XCTAssertEqual(try inspect("s.bin", domesticOnly).title, "SONIC THE HEDGEHOG")
    }

    func testGenesisInterleavedSMD() throws {
        let plain = SyntheticRom.genesis(domestic: "", overseas: "STREETS OF RAGE")
        var smd = [UInt8](repeating: 0, count: 512)
        smd[8] = 0xAA
        smd[9] = 0xBB
        for blockStart in stride(from: 0, to: plain.count, by: 0x4000) {
            let block = Array(plain[blockStart..<blockStart + 0x4000])
            smd += stride(from: 1, to: 0x4000, by: 2).map { block[$0] }
            smd += stride(from: 0, to: 0x4000, by: 2).map { block[$0] }
        }
        XCTAssertEqual(try inspect("r.smd", smd),
                       RomInfo(system: .genesis, title: "STREETS OF RAGE", copierHeaderSize: 512))
    }

    func testPCEngineStripsCopierHeader() throws {
        XCTAssertEqual(try inspect("b.pce", [UInt8](repeating: 7, count: 262144)),
                       RomInfo(system: .pce, title: nil, copierHeaderSize: 0))
        XCTAssertEqual(try inspect("b.pce", [UInt8](repeating: 7, count: 262144 + 512)),
                       RomInfo(system: .pce, title: nil, copierHeaderSize: 512))
        XCTAssertEqual(inspectionError("b.pce", [1, 2, 3]),
                       "b.pce: too small for a PC Engine ROM (3 bytes, needs at least 8192)")
    }

    func testMisnamedFileIsReportedAsItsRealSystem() throws {
        XCTAssertEqual(try inspect("really-gba.gb", SyntheticRom.gba(title: "X")).system, .gba)
        XCTAssertEqual(try inspect("really-nes.sfc", SyntheticRom.nes()).system, .nes)
    }

    func testBadInputsGiveOneLineErrorsNamingTheFile() {
        XCTAssertEqual(inspectionError("empty.nes", []), "empty.nes: empty file")
        XCTAssertEqual(inspectionError("x.nes", [0x4E, 0x45, 0x53]),
                       "x.nes: too small for an NES ROM (3 bytes, needs at least 16)")
        var generator = SeededGenerator(seed: 42)
        let noise = (0..<40000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        XCTAssertEqual(inspectionError("noise.nes", noise), "noise.nes: not an NES ROM: no iNES header")
        XCTAssertEqual(inspectionError("noise.bin", noise),
                       "noise.bin: unknown system (no known extension or header)")
        XCTAssertEqual(inspectionError("tiny.gb", [1, 2, 3, 4]),
                       "tiny.gb: too small for a Game Boy ROM (4 bytes, needs at least 336)")
        // The file name in the error is sanitized too.
        XCTAssertEqual(inspectionError("evil\u{1B}[2J.nes", []), "evil\u{FFFD}[2J.nes: empty file")
    }

    func testHeaderTitlesKeepPrintableASCIIOnly() throws {
        var rom = SyntheticRom.gba(title: "")
        rom[0xA0..<0xAC] = [0x1B, 0x5B, 0x32, 0x4A, 0x41, 0xE2, 0x80, 0xAE, 0x42, 0x07, 0x20, 0x20]
        var sum: UInt8 = 0
        for offset in 0xA0...0xBC { sum = sum &- rom[offset] }
        rom[0xBD] = sum &- 0x19
        XCTAssertEqual(try inspect("t.gba", rom).title, "[2JA B")
        XCTAssertNil(RomInspector.headerTitle([0x20, 0x00, 0x41]))
        XCTAssertNil(RomInspector.headerTitle([0xB2, 0xDD, 0x83, 0x81]))   // Shift-JIS only
    }

    func testInspectFileReadsTheHeaderFromDisk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rominspector-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let snes = folder.appendingPathComponent("Hi.smc")
        try Data(SyntheticRom.snes(title: "HIROM ON DISK", hiROM: true, copier: true)).write(to: snes)
        XCTAssertEqual(try RomInspector.inspect(file: snes),
                       RomInfo(system: .snes, title: "HIROM ON DISK", copierHeaderSize: 512))
        let empty = folder.appendingPathComponent("empty.gba")
        try Data().write(to: empty)
        XCTAssertThrowsError(try RomInspector.inspect(file: empty)) { XCTAssertEqual("\($0)", "empty.gba: empty file") }
        XCTAssertThrowsError(try RomInspector.inspect(file: folder.appendingPathComponent("missing.nes"))) { error in
            XCTAssertTrue("\(error)".contains("missing.nes"), "\(error)")
        }
    }

    /// 3000 seeded inputs in `make test-long`, the first 600 of them in `make test` (every name,
    /// every planted signature and large sizes are among those too).
    func testFuzzedInputsNeverCrash() {
        var generator = SeededGenerator(seed: 0x5EED)
        let names = ["a.nes", "a.gb", "a.gbc", "a.gba", "a.nds", "a.sfc", "a.smc", "a.md", "a.smd", "a.pce",
                     "a.bin", "a.rom", "a", "a.fds", "a.unf", ".nes", "x.y.z"]
        var outcomes = [String: Int]()
        for round in 0..<LongTests.size(slice: 600, full: 3000) {
            let size = round % 20 == 0 ? Int.random(in: 0x7F00...0x10400, using: &generator)
                                       : Int.random(in: 0...0x300, using: &generator)
            var bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Plant real signatures now and then so the deeper paths run on garbage too.
            if size > 0x200, round % 3 == 0 {
                bytes[0x100..<0x104] = [0x53, 0x45, 0x47, 0x41]
            }
            if size > 0x150, round % 5 == 0 {
                bytes[0x104..<0x134] = ArraySlice(HeaderView.gameBoyLogo)
            }
            let claimedSize = round % 7 == 0 ? size * 3 + 512 : size
            let name = names[round % names.count]
            do {
                let info = try RomInspector.inspect(fileName: name, bytes: bytes, fileSize: claimedSize)
                if let title = info.title {
                    XCTAssertTrue(title.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, title)
                }
                outcomes[info.system.rawValue, default: 0] += 1
            } catch {
                XCTAssertFalse("\(error)".contains("\n"))
                outcomes["error", default: 0] += 1
            }
        }
        XCTAssertGreaterThan(outcomes["error", default: 0], 0)
        XCTAssertGreaterThan(outcomes.count, 3, "fuzzing should reach several systems: \(outcomes)")
    }
}
