import XCTest
@testable import Shell

/// RetroArch `.cht` files read as RetroArch writes them (issue 16).
final class RetroArchCheatFileTests: XCTestCase {
    /// As RetroArch 1.14 saves a list: quoted values, the memory-search keys it adds, and a cheat
    /// without a code (a memory-search one).
    static let sample = """
        cheats = 4

        cheat0_desc = "Infinite Lives"
        cheat0_code = "SXIOPO"
        cheat0_enable = true
        cheat0_handler = "0"
        cheat0_address = "0"

        cheat1_desc = "Boxes held"
        cheat1_code = "OZPKGO+EYPKIP"
        cheat1_enable = false

        cheat2_desc = "Broken"
        cheat2_code = "NOT-A-CODE"
        cheat2_enable = true

        cheat3_desc = "Found by search"
        cheat3_code = ""
        cheat3_enable = true
        """

    func testEntriesWithTheirNamesCodesAndSwitches() throws {
        let file = try RetroArchCheatFile.parse(Self.sample, fileName: "Game.cht")
        XCTAssertEqual(file.entries, [
            .init(name: "Infinite Lives", code: "SXIOPO", enabled: true),
            .init(name: "Boxes held", code: "OZPKGO+EYPKIP", enabled: false),
            .init(name: "Broken", code: "NOT-A-CODE", enabled: true),
        ])
        let (cheats, skipped) = file.cheats(for: .nes)
        XCTAssertEqual(cheats.map(\.code), ["SXIOPO", "OZPKGO+EYPKIP"])
        XCTAssertEqual(cheats.map(\.enabled), [true, false])
        XCTAssertEqual(skipped.count, 1)
        XCTAssertTrue(skipped[0].hasPrefix("Broken: "), skipped[0])
        XCTAssertEqual(RetroArchCheatFile.summary(imported: cheats, skipped: skipped, fileName: "Game.cht"),
                       "imported 2 cheats (1 on) from Game.cht; skipped 1: \(skipped[0])")
    }

    func testAFileWithoutACheatCountIsRefusedInOneLine() {
        XCTAssertThrowsError(try RetroArchCheatFile.parse("cheat0_code = \"SXIOPO\"\n", fileName: "x.cht")) { error in
            XCTAssertEqual("\(error)", "x.cht: not a RetroArch cheat file (no \"cheats = N\" line)")
        }
    }
}
