import XCTest
@testable import Emulation
import PhosphorKit

/// Valid and invalid codes of every format. The valid examples are the ones the end-to-end tests
/// see working on the test cartridges (README, "Cheat codes").
final class CheatCodeValidatorTests: XCTestCase {
    private func valid(_ input: String, _ system: GameSystem, file: StaticString = #filePath, line: UInt = #line) -> CheatCode? {
        do {
            return try CheatCodeValidator.validate(input, for: system)
        } catch {
            XCTFail("\(input.debugDescription) should be valid for \(system): \(error)", file: file, line: line)
            return nil
        }
    }

    /// The refusal for `input`, checked to be one line containing `expected`.
    private func refused(_ input: String, _ system: GameSystem, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let code = try CheatCodeValidator.validate(input, for: system)
            XCTFail("\(input.debugDescription) should be refused for \(system), got \(code.text)", file: file, line: line)
        } catch {
            XCTAssertTrue(error.reason.contains(expected), "\(error.reason) should mention \(expected.debugDescription)", file: file, line: line)
            XCTAssertFalse(error.reason.contains("\n"), file: file, line: line)
        }
    }

    func testNESFormats() {
        XCTAssertEqual(valid("ZAZKAP", .nes)?.parts.map(\.format), [.nesGameGenie])
        XCTAssertEqual(valid("zazkap", .nes)?.text, "ZAZKAP", "letters are upper-cased")
        XCTAssertEqual(valid("ZAXKAPPA", .nes)?.parts.map(\.format), [.nesGameGenie], "8 letters, third letter X")
        XCTAssertEqual(valid("B6527E56", .nes)?.parts.map(\.format), [.nesProActionRocky])
        XCTAssertEqual(valid("C128:02", .nes)?.parts.map(\.format), [.nesRaw])
        XCTAssertEqual(valid("c179?16:2a", .nes)?.text, "C179?16:2A")
        XCTAssertEqual(valid("ZAZKAP + zzykpo\nC128:02", .nes)?.text, "ZAZKAP+ZZYKPO+C128:02", "parts join with +")
        // Both alphabets: nestopia reads a valid 8-letter Game Genie code first, else Pro Action Rocky.
        XCTAssertEqual(valid("AAAAAAAA", .nes)?.parts.map(\.format), [.nesProActionRocky])
        XCTAssertEqual(valid("AAEAAAAA", .nes)?.parts.map(\.format), [.nesGameGenie])

        refused("ZAZKA", .nes, "has 5 letters; Game Genie codes have 6 or 8")
        refused("ZAZKAPQ", .nes, "\"Q\", which is neither a Game Genie letter")
        refused("ZAXKAP", .nes, "third letter must be one of A P Z L G I T Y")
        refused("ZAZKAPPA", .nes, "third letter must be one of E O X U K S V N")
        refused("B6527E5", .nes, "has 7 hex digits; Pro Action Rocky codes have 8")
        refused("C128:2", .nes, "not a raw NES code")
        refused("C12:802", .nes, "not a raw NES code")
        XCTAssertNotNil(try? CheatCodeValidator.validate("ZAZKAP+", for: .nes))
        refused("", .nes, "the code is empty")
        refused(" + ; ", .nes, "the code is empty")
        refused("ZAZKAP ZA1KAP", .nes, "mixes Game Genie letters with digits")
    }

    func testGameBoyFormats() {
        XCTAssertEqual(valid("E03-D5F", .gbc)?.parts.map(\.format), [.gameBoyGameGenie])
        XCTAssertEqual(valid("e03d5f", .gb)?.text, "E03-D5F", "dashes are added, letters upper-cased")
        XCTAssertEqual(valid("E03D5F9A6", .gbc)?.text, "E03-D5F-9A6")
        XCTAssertEqual(valid("010843FF", .gbc)?.parts.map(\.format), [.gameBoyGameShark])
        XCTAssertEqual(valid("91FF23D0", .gbc)?.parts.map(\.format), [.gameBoyGameShark], "a GBC RAM bank write")
        XCTAssertEqual(valid("E03-D5F;010843FF", .gbc)?.text, "E03-D5F+010843FF")

        refused("E03-D5", .gbc, "dashes in the wrong place")
        refused("E0-3D5F", .gbc, "dashes in the wrong place")
        refused("E03-D57", .gbc, "points outside the cartridge ROM")
        refused("E03-D5G", .gbc, "\"G\", which is not a hex digit")
        refused("0208C0FF", .gbc, "starts with 02")
        refused("0108C0F", .gbc, "has 7 hex digits")
    }

    func testSNESFormats() {
        XCTAssertEqual(valid("FE69-D40D", .snes)?.parts.map(\.format), [.snesGameGenie])
        XCTAssertEqual(valid("0080591f", .snes)?.text, "0080591F")
        XCTAssertEqual(valid("0080591F", .snes)?.parts.map(\.format), [.snesProActionReplay])
        XCTAssertEqual(valid("008059:1F", .snes)?.parts.map(\.format), [.snesRaw])
        XCTAssertEqual(valid("FE69-D40D+DD69-D46D", .snes)?.parts.count, 2)

        refused("FE69D40D9", .snes, "has 9 hex digits")
        refused("FE6-9D40D", .snes, "not a Game Genie code (XXXX-XXXX")
        refused("8059:1F", .snes, "not a raw SNES code")
        refused("0080591G", .snes, "\"G\", which is not a hex digit")
    }

    func testGBAFormats() {
        XCTAssertEqual(valid("99C7EBB5 9C769810", .gba)?.parts.map(\.format), [.gbaGameSharkOrActionReplay])
        XCTAssertEqual(valid("84000000 0080", .gba)?.parts.map(\.format), [.gbaCodeBreaker])
        XCTAssertEqual(valid("840000000080", .gba)?.text, "84000000 0080", "run-together words are split")
        XCTAssertEqual(valid("99c7ebb59c769810\n84000000 0080", .gba)?.text, "99C7EBB5 9C769810+84000000 0080")
        XCTAssertEqual(valid("99C7EBB5+9C769810", .gba)?.text, "99C7EBB5 9C769810", "libretro's + between the words")

        refused("99C7EBB5", .gba, "line 1 should be XXXXXXXX YYYYYYYY (GameShark / Action Replay) or XXXXXXXX YYYY (CodeBreaker)")
        refused("99C7EBB5 9C769810 84000000", .gba, "line 2 should be")
        refused("99C7EBB5 9C76981", .gba, "line 1 should be")
        refused("99C7EBB5 9C76981X", .gba, "\"9C76981X\" has \"X\", which is not a hex digit")
    }

    func testDSFormat() {
        XCTAssertEqual(valid("0200007C 0000001F", .nds)?.parts.map(\.format), [.dsActionReplay])
        XCTAssertEqual(valid("0200007C 0000001F\r\n1200007C 00007C00", .nds)?.text, "0200007C 0000001F+1200007C 00007C00")

        refused("84000000 0080", .nds, "line 1 should be XXXXXXXX YYYYYYYY")
        refused("0200007C", .nds, "line 1 should be")
    }

    func testSystemsWithoutFormatsAndLengthLimits() {
        refused("01234567", .pce, "no cheat code format for PC Engine")
        refused("01234567", .genesis, "Genesis")

        // 23 six-letter parts are 160 bytes; 40 are 279, past nestopia's 256-byte buffer.
        XCTAssertNotNil(try? CheatCodeValidator.validate(Array(repeating: "ZAZKAP", count: 23).joined(separator: " "), for: .nes))
        refused(Array(repeating: "ZAZKAP", count: 40).joined(separator: " "), .nes, "at most 255 fit")
        // DS codes may be longer (desmume copies into 1024 bytes).
        XCTAssertNotNil(try? CheatCodeValidator.validate(Array(repeating: "0200007C 0000001F", count: 50).joined(separator: "\n"), for: .nds))
        refused(String(repeating: "A", count: 5000), .nes, "far shorter")
    }

    func testMessagesNeverCarryControlCharacters() {
        for input in ["ZAZ\u{1B}[2J", "\u{202E}ZAZKAP", "E03-D5F\u{0}", "99C7EBB5 \u{7}9C769810"] {
            for system in [GameSystem.nes, .gbc, .snes, .gba, .nds] {
                do {
                    _ = try CheatCodeValidator.validate(input, for: system)
                } catch {
                    XCTAssertFalse(error.reason.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x202E },
                                   error.reason.debugDescription)
                }
            }
        }
    }
}
