import Foundation
import XCTest

/// `phosphor run --headless --cheat CODE` on the real Debian cores and the project's cartridges.
/// Every code patches something the cartridge redraws from, chosen from its source (Roms/), so
/// that "on" must look exactly like holding the buttons the patch imitates: a cheat the core
/// silently ignored, or one that hit the wrong byte, fails.
final class CheatHeadlessTests: XCTestCase {
    var phosphor: PhosphorProcess!

    override func setUpWithError() throws { phosphor = try PhosphorProcess() }
    override func tearDown() { phosphor.cleanUp() }

    /// The frame hash after 120 frames (no battery save: the GB cartridge counts its boots).
    private func hash(_ rom: String, cheats: [String] = [], holding buttons: String? = nil,
                      file: StaticString = #filePath, line: UInt = #line) throws -> String {
        try? FileManager.default.removeItem(at: phosphor.home.appendingPathComponent("data/saves"))
        var arguments = ["run", "--headless", "--frames", "120"]
        for cheat in cheats { arguments += ["--cheat", cheat] }
        if let buttons { arguments += ["--input", try phosphor.file("held.txt", Data("0 \(buttons)\n".utf8)).path] }
        let outcome = try phosphor.run(arguments + [PhosphorProcess.rom(rom).path])
        XCTAssertEqual(outcome.status, 0, "stderr: \(outcome.standardError)", file: file, line: line)
        return try XCTUnwrap(outcome.fields["hash"], outcome.standardOutput, file: file, line: line)
    }

    func testNESCodesOfEveryFormatPatchTheBoxLoop() throws {
        // nmi's box loop reads `lda buttons` (A5 00 at $C11C); each code makes it `lda #$F0`, so
        // the A, B, Select and Start boxes are drawn as held.
        let rom = "nes/phosphor-test.nes"
        let held = try hash(rom, holding: "a+b+select+start")
        XCTAssertNotEqual(held, try hash(rom))
        for code in ["OZPKGO+EYPKIP",            // Game Genie, 6 letters, two parts
                     "ozpkgo eypkip",            // typed in lower case with a space
                     "A6171308+69116620",        // Pro Action Rocky (always with a compare value)
                     "C11C:A9+C11D:F0",          // raw
                     "C11C?A5:A9+C11D?00:F0"] {  // raw with compare values
            XCTAssertEqual(try hash(rom, cheats: [code]), held, code)
        }
        XCTAssertEqual(try hash(rom, cheats: ["OZPKGO", "EYPKIP"]), held, "two cheats, one part each")
        XCTAssertEqual(try hash(rom, cheats: ["C11C?A6:A9+C11D?00:F0"]), try hash(rom), "a compare value that does not match changes nothing")
    }

    /// Issue 16: `--cheat-file` takes a RetroArch `.cht`; the cheats it has on apply like `--cheat`.
    func testRetroArchCheatFileFromTheCommandLine() throws {
        let rom = "nes/phosphor-test.nes"
        let cht = try phosphor.file("Game.cht", Data("""
            cheats = 2
            cheat0_desc = "Boxes held"
            cheat0_code = "OZPKGO+EYPKIP"
            cheat0_enable = true
            cheat1_desc = "Off, and not even a code"
            cheat1_code = "NOT-A-CODE"
            cheat1_enable = false
            """.utf8))
        let outcome = try phosphor.run(["run", "--headless", "--frames", "120", "--cheat-file", cht.path, PhosphorProcess.rom(rom).path])
        XCTAssertEqual(outcome.status, 0, outcome.standardError)
        XCTAssertEqual(outcome.fields["hash"], try hash(rom, holding: "a+b+select+start"))
        let junk = try phosphor.file("junk.cht", Data("hello\n".utf8))
        let refused = try phosphor.run(["run", "--headless", "--frames", "10", "--cheat-file", junk.path, PhosphorProcess.rom(rom).path])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.standardError, "phosphor: --cheat-file: junk.cht: not a RetroArch cheat file (no \"cheats = N\" line)\n")
    }

    func testGameBoyGameGenieOnGambatte() throws {
        // draw_boxes' `ld a, T_OUTLINE` (3E 01 at $02DE) becomes `ld a, T_SOLID`: all boxes held.
        let rom = "gb/phosphor-test.gbc"
        let held = try hash(rom, holding: "a+b+select+start+up+down+left+right")
        XCTAssertEqual(try hash(rom, cheats: ["022-DFF"]), held)
        XCTAssertEqual(try hash(rom, cheats: ["022dff"]), held, "typed without dashes")
        XCTAssertEqual(try hash(rom, cheats: ["022-DFF-EAE"]), held, "with the compare value 01")
        XCTAssertEqual(try hash(rom, cheats: ["022-DFF-6AA"]), try hash(rom), "a compare value that does not match")
        // gambatte keeps only its last call's codes: Phosphor merges both cheats into one call.
        // E03-D5F turns the red block of the boot-time palette dark green.
        let both = try hash(rom, cheats: ["022-DFF", "E03-D5F"])
        XCTAssertNotEqual(both, held)
        XCTAssertNotEqual(both, try hash(rom, cheats: ["E03-D5F"]))
    }

    func testSNESCodesOfEveryFormatPatchTheBackdropColour() throws {
        // The main loop's `eor #BASE_COLOUR` operand (low byte 04 at $00:8059) becomes 44: the
        // backdrop of A held.
        let rom = "snes/phosphor-test.sfc"
        let held = try hash(rom, holding: "a")
        XCTAssertNotEqual(held, try hash(rom))
        for code in ["00805944", "008059:44", "0069-D40D"] {
            XCTAssertEqual(try hash(rom, cheats: [code]), held, code)
        }
    }

    func testGBACodesOnMGBA() throws {
        let rom = "gba/phosphor-test.gba"
        // GameShark ROM patch (type 6) of the BASE_COLOUR literal: the colour of A held.
        XCTAssertEqual(try hash(rom, cheats: ["600000C6 000039A2"]), try hash(rom, holding: "a"))
        // DISPCNT forced blank, as a CodeBreaker code, an encrypted GameShark code and an
        // encrypted Action Replay v3 code: the same white screen.
        let blank = try hash(rom, cheats: ["84000000 0080"])
        XCTAssertNotEqual(blank, try hash(rom))
        XCTAssertEqual(try hash(rom, cheats: ["99C7EBB5 9C769810"]), blank)
        XCTAssertEqual(try hash(rom, cheats: ["61A117CB 43824040"]), blank)
    }

    func testDSActionReplayOnDesmume() throws {
        // 32-, 16- and 8-bit writes of BASE_COLOUR xor A's bit into the ARM9 literal pool.
        let rom = "ds/phosphor-test.nds"
        let held = try hash(rom, holding: "a")
        XCTAssertNotEqual(held, try hash(rom))
        for code in ["0200007C 000040AC", "1200007C 000040AC", "2200007C 000000AC"] {
            XCTAssertEqual(try hash(rom, cheats: [code]), held, code)
        }
    }

    func testWrongFormatsAndCoresThatIgnoreCheatsAreOneLineErrors() throws {
        let cases: [(String, String, String)] = [
            ("nes/phosphor-test.nes", "ZAZKA", #"phosphor: --cheat: not a Game Genie or Pro Action Rocky code: "ZAZKA" has 5 letters; Game Genie codes have 6 or 8"#),
            ("gb/phosphor-test.gbc", "E03-D57", #"phosphor: --cheat: not a Game Genie code: "E03-D57" points outside the cartridge ROM (its sixth digit must be 8-F)"#),
            ("ds/phosphor-test.nds", "0200007C", #"phosphor: --cheat: not an Action Replay code: line 1 should be XXXXXXXX YYYYYYYY, found "0200007C""#),
            ("pce/phosphor-test.pce", "01234567", "ignores cheat codes (its retro_cheat_set does nothing)"),
        ]
        for (rom, code, expected) in cases {
            let outcome = try phosphor.run(["run", "--headless", "--frames", "10", "--cheat", code, PhosphorProcess.rom(rom).path])
            XCTAssertEqual(outcome.status, 1, rom)
            XCTAssertEqual(outcome.standardOutput, "", "no summary line: the run did not start")
            let lines = outcome.standardError.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, outcome.standardError)
            XCTAssertTrue(outcome.standardError.contains(expected), "\(outcome.standardError) should contain \(expected)")
        }
    }
}
