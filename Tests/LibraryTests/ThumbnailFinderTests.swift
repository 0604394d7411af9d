import Foundation
import XCTest
@testable import Library
@testable import PhosphorKit

final class ThumbnailFinderTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder()
    }

    override func tearDown() {
        folder = nil
    }

    private func game(file: String, title: String, system: GameSystem = .gbc, crc: UInt32 = 0x46DF_91AD) -> Game {
        Game(id: 1, system: system, path: "/roms/\(file)", archiveEntry: nil, title: title, size: 32768, crc32: crc,
             lastPlayed: nil, playTime: 0, playCount: 0, favourite: false)
    }

    func testMatchedByNoIntroNameTitleAndCRCInRetroArchsLayout() throws {
        let own = folder.url.appendingPathComponent("own")
        let retroArch = folder.url.appendingPathComponent("retroarch")
        let finder = ThumbnailFinder(roots: [own, retroArch])
        let boxarts = "Nintendo - Game Boy Color/Named_Boxarts"

        // By the No-Intro name (the file name without extension), with RetroArch's character rule.
        let named = try folder.write("retroarch/\(boxarts)/Pokemon - Crystal Version (USA, Europe) (Rev 1).png", [1])
        XCTAssertEqual(finder.file(for: game(file: "Pokemon - Crystal Version (USA, Europe) (Rev 1).gbc", title: "PM_CRYSTAL"),
                                   kind: .boxart), named)
        let unsafe = try folder.write("retroarch/\(boxarts)/Tom _ Jerry_ The Movie (World).png", [1])
        XCTAssertEqual(finder.file(for: game(file: "Tom & Jerry: The Movie (World).gbc", title: "TOM"), kind: .boxart), unsafe)

        // By the title, and by the name without its tags.
        let titled = try folder.write("retroarch/\(boxarts)/ZELDA DX.png", [1])
        XCTAssertEqual(finder.file(for: game(file: "zelda-dx.gbc", title: "ZELDA DX"), kind: .boxart), titled)
        let untagged = try folder.write("retroarch/\(boxarts)/Wario Land 3.png", [1])
        XCTAssertEqual(finder.file(for: game(file: "Wario Land 3 (World) [!].gbc", title: "WARIO"), kind: .boxart), untagged)

        // By CRC, in Phosphor's own folder, which is searched first.
        let byCRC = try folder.write("own/\(boxarts)/0BADF00D.png", [1])
        let renamed = game(file: "my dump.gbc", title: "MY DUMP", crc: 0x0BAD_F00D)
        XCTAssertEqual(finder.file(for: renamed, kind: .boxart), byCRC)
        let ownNamed = try folder.write("own/\(boxarts)/Pokemon - Crystal Version (USA, Europe) (Rev 1).png", [1])
        XCTAssertEqual(finder.file(for: game(file: "Pokemon - Crystal Version (USA, Europe) (Rev 1).gbc", title: "X"),
                                   kind: .boxart), ownNamed)

        // Another kind, another system's playlist, or no file: nothing.
        XCTAssertNil(finder.file(for: renamed, kind: .snap))
        XCTAssertNil(finder.file(for: game(file: "my dump.gb", title: "MY DUMP", system: .gb, crc: 0x0BAD_F00D), kind: .boxart))
        let snap = try folder.write("retroarch/Nintendo - Game Boy Color/Named_Snaps/ZELDA DX.png", [1])
        XCTAssertEqual(finder.file(for: game(file: "zelda-dx.gbc", title: "ZELDA DX"), kind: .snap), snap)
    }

    func testSafeNamesReplaceRetroArchsCharacters() {
        XCTAssertEqual(ThumbnailFinder.safeName("a&b*c/d:e`f<g>h?i\\j|k\"l"), "a_b_c_d_e_f_g_h_i_j_k_l")
        XCTAssertEqual(ThumbnailFinder.safeName("Pokémon (Rev 1)"), "Pokémon (Rev 1)")
    }
}
