import XCTest
@testable import Emulation
import PhosphorKit

/// How the user's enabled cheats become retro_cheat_set calls per core (measured behaviour:
/// README, "Cheat codes").
final class CoreCheatSupportTests: XCTestCase {
    private func code(_ text: String, _ system: GameSystem) throws -> CheatCode {
        try CheatCodeValidator.validate(text, for: system)
    }

    func testOneCallPerCheatKeepsTheListPositions() throws {
        let support = CoreCheatSupport.forCore(named: "nestopia", displayName: "Nestopia")
        XCTAssertTrue(support.isSupported)
        let calls = support.coreCheats(for: [(0, try code("ZAZKAP", .nes)), (3, try code("C179:2A C128:02", .nes))])
        XCTAssertEqual(calls, [CoreCheat(index: 0, code: "ZAZKAP"), CoreCheat(index: 3, code: "C179:2A+C128:02")])
    }

    func testGambatteGetsOneGameGenieCallAndOneGameSharkCall() throws {
        // The 2016 gambatte keeps only the codes of its last call and splits them on ';'; both
        // calls are always made (an empty one clears) and retro_cheat_reset is never called.
        let support = CoreCheatSupport.forCore(named: "gambatte", displayName: "Gambatte")
        XCTAssertFalse(support.resetsBeforeSetting)
        XCTAssertTrue(CoreCheatSupport.forCore(named: "nestopia", displayName: "Nestopia").resetsBeforeSetting)
        let calls = support.coreCheats(for: [(0, try code("E03-D5F", .gbc)),
                                             (1, try code("010843FF", .gbc)),
                                             (2, try code("1F3-DDF 010040FF", .gbc))])
        XCTAssertEqual(calls, [CoreCheat(index: 0, code: "E03-D5F;1F3-DDF"), CoreCheat(index: 1, code: "010843FF;010040FF")])
        XCTAssertEqual(support.coreCheats(for: [(4, try code("010843FF", .gbc))]),
                       [CoreCheat(index: 0, code: "-"), CoreCheat(index: 1, code: "010843FF")])
        XCTAssertEqual(support.coreCheats(for: []), [CoreCheat(index: 0, code: "-"), CoreCheat(index: 1, code: "")])
    }

    func testPCEngineCoreSaysItIgnoresCheats() throws {
        let support = CoreCheatSupport.forCore(named: "mednafen_pce_fast", displayName: "Beetle PCE Fast")
        XCTAssertFalse(support.isSupported)
        XCTAssertEqual(support.unsupportedReason, "Beetle PCE Fast ignores cheat codes (its retro_cheat_set does nothing)")
        XCTAssertEqual(support.coreCheats(for: [(0, try code("ZAZKAP", .nes))]), [])
    }

    func testUnknownCoreGetsTheConventionAndANote() {
        let support = CoreCheatSupport.forCore(named: "fceumm", displayName: "FCEUmm")
        XCTAssertTrue(support.isSupported)
        XCTAssertEqual(support.maximumCodeBytes, 255)
        XCTAssertEqual(support.note, "Phosphor has not checked whether FCEUmm applies cheats")
    }
}
