import Foundation
@testable import Library
import PhosphorKit
import XCTest
@testable import Shell

final class BrowserModelTests: XCTestCase {
    private func game(_ id: Int64, _ title: String, _ system: GameSystem = .nes, file: String? = nil,
                      lastPlayed: Date? = nil, playTime: Int = 0, playCount: Int = 0, favourite: Bool = false) -> Game {
        Game(id: id, system: system, path: "/roms/\(file ?? title).\(system.rawValue)", archiveEntry: nil, title: title,
             size: 1024, crc32: 0, lastPlayed: lastPlayed, playTime: playTime, playCount: playCount, favourite: favourite)
    }

    private var library: [Game] {
        [game(1, "Zelda", .nes), game(2, "Pokémon Red", .gb), game(3, "metroid", .nes, favourite: true),
         game(4, "Super Mario World", .snes, file: "smw_usa"), game(5, "Advance Wars", .gba)]
    }

    private func titles(_ model: BrowserModel) -> [String] { model.rows.compactMap { $0.game?.title } }

    func testTitleSortIgnoresCaseAndAccentsAndSelectsFirstGame() {
        let model = BrowserModel(games: library)
        XCTAssertEqual(titles(model), ["Advance Wars", "metroid", "Pokémon Red", "Super Mario World", "Zelda"])
        XCTAssertEqual(model.selectedRow?.game?.id, 5)
    }

    func testSearchIsCaseAndAccentInsensitiveAndMatchesEveryWordAndFileName() {
        var model = BrowserModel(games: library)
        model.setSearch("POKEMON")
        XCTAssertEqual(titles(model), ["Pokémon Red"])
        model.setSearch("red poké")
        XCTAssertEqual(titles(model), ["Pokémon Red"])
        model.setSearch("smw")  // the file name, not the header title
        XCTAssertEqual(titles(model), ["Super Mario World"])
        model.setSearch("snes")  // the system's name
        XCTAssertEqual(titles(model), ["Super Mario World"])
        model.setSearch("pokemon blue")
        XCTAssertEqual(model.rows, [])
        XCTAssertNil(model.selection)
        model.setSearch("")
        XCTAssertEqual(titles(model).count, 5)
    }

    func testSystemFilterAndSidebarCounts() {
        var model = BrowserModel(games: library)
        XCTAssertEqual(model.sidebar, [SidebarEntry(system: nil, count: 5), SidebarEntry(system: .nes, count: 2),
                                       SidebarEntry(system: .snes, count: 1), SidebarEntry(system: .gb, count: 1),
                                       SidebarEntry(system: .gba, count: 1)])
        model.moveSystem(by: 1)
        XCTAssertEqual(model.system, .nes)
        XCTAssertEqual(titles(model), ["metroid", "Zelda"])
        model.moveSystem(by: -2)  // wraps from NES past All to the last system
        XCTAssertEqual(model.system, .gba)
        XCTAssertEqual(titles(model), ["Advance Wars"])
        model.selectSystem(nil)
        XCTAssertEqual(titles(model).count, 5)
    }

    func testSortsByRecentAndMostPlayed() {
        let now = Date()
        let games = [game(1, "A", lastPlayed: now.addingTimeInterval(-100), playTime: 50, playCount: 1),
                     game(2, "B", lastPlayed: nil, playTime: 0),
                     game(3, "C", lastPlayed: now, playTime: 50, playCount: 3),
                     game(4, "D", lastPlayed: now.addingTimeInterval(-50), playTime: 900, playCount: 1)]
        var model = BrowserModel(games: games)
        XCTAssertEqual(model.sort, .title)
        model.cycleSort()
        XCTAssertEqual(model.sort, .recent)
        XCTAssertEqual(titles(model), ["C", "D", "A", "B"])
        model.cycleSort()
        XCTAssertEqual(model.sort, .mostPlayed)
        XCTAssertEqual(titles(model), ["D", "C", "A", "B"])
        model.cycleSort()
        XCTAssertEqual(model.sort, .title)
    }

    func testFavouritesOnlyAndUpdatingAGameKeepsItSelected() {
        var model = BrowserModel(games: library)
        model.toggleFavouritesOnly()
        XCTAssertEqual(titles(model), ["metroid"])
        model.toggleFavouritesOnly()
        model.setSearch("zelda")
        XCTAssertEqual(model.selectedRow?.game?.id, 1)
        model.update(game(1, "Zelda", .nes, favourite: true))
        XCTAssertEqual(model.selectedRow?.game?.favourite, true)
        model.setSearch("")
        model.toggleFavouritesOnly()
        XCTAssertEqual(titles(model), ["metroid", "Zelda"])
    }

    func testContinueSectionShowsRecentGamesAndIsHiddenWhileSearching() {
        let played = game(3, "metroid", .nes, lastPlayed: Date(), playCount: 1)
        var model = BrowserModel(games: library.map { $0.id == 3 ? played : $0 }, recent: [played])
        XCTAssertEqual(model.rows.first, .header("Continue"))
        XCTAssertEqual(model.rows[1], .continueGame(played))
        XCTAssertEqual(model.rows[2], .header("All games"))
        XCTAssertEqual(model.selectedRow, .continueGame(played), "the first selectable row is Continue")
        model.moveSelection(by: 1)  // skips the header
        XCTAssertEqual(model.selectedRow?.game?.title, "Advance Wars")
        model.moveSelection(by: -5)
        XCTAssertEqual(model.selectedRow, .continueGame(played))
        model.selectSystem(.gb)
        XCTAssertFalse(model.rows.contains(.header("Continue")), "metroid is not a Game Boy game")
        model.selectSystem(.nes)
        XCTAssertEqual(model.rows[2], .header("NES games"))
        model.setSearch("met")
        XCTAssertEqual(model.rows, [.game(played)])
    }

    func testSelectionMovementStopsAtEndsAndClicksIgnoreHeaders() {
        var model = BrowserModel(games: library, recent: [library[0]])
        model.selectLast()
        XCTAssertEqual(model.selectedRow?.game?.title, "Zelda")
        XCTAssertEqual(model.selection, model.rows.count - 1)
        model.moveSelection(by: 10)
        XCTAssertEqual(model.selection, model.rows.count - 1)
        XCTAssertFalse(model.select(row: 0), "row 0 is the Continue header")
        XCTAssertTrue(model.select(row: 3))
        XCTAssertEqual(model.selection, 3)
        model.selectFirst()
        XCTAssertEqual(model.selection, 1)
    }

    func testReplacingGamesKeepsTheSelectedGame() {
        var model = BrowserModel(games: library)
        model.setSearch("o")
        model.select(row: model.rows.firstIndex { $0.game?.id == 4 }!)
        model.replaceGames(library + [game(6, "Aladdin", .snes)], recent: [])
        XCTAssertEqual(model.selectedRow?.game?.id, 4)
    }

    func testHostileTitlesAreDrawnSanitized() {
        let hostile = game(9, "evil\u{1B}[31mRED\u{202E}txt\u{7}", favourite: true)
        let shown = BrowserText.title(of: hostile)
        XCTAssertEqual(shown, "★ evil\u{FFFD}[31mRED\u{FFFD}txt\u{FFFD}")
        XCTAssertFalse(shown.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" })
        XCTAssertEqual(BrowserText.fieldText("/tmp/a\u{1B}[2J\nb\u{202E}c"), "/tmp/a[2Jbc")
    }

    func testTextForDatesPlayTimeAndMissingCores() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let now = Date(timeIntervalSince1970: 1_790_000_000)  // 2026-09-21 14:13 UTC
        XCTAssertEqual(BrowserText.lastPlayed(nil, now: now, calendar: calendar), "never")
        XCTAssertEqual(BrowserText.lastPlayed(now.addingTimeInterval(-20), now: now, calendar: calendar), "just now")
        XCTAssertEqual(BrowserText.lastPlayed(now.addingTimeInterval(-600), now: now, calendar: calendar), "10 min ago")
        XCTAssertEqual(BrowserText.lastPlayed(now.addingTimeInterval(-7200), now: now, calendar: calendar), "2 h ago")
        XCTAssertEqual(BrowserText.lastPlayed(now.addingTimeInterval(-86_400), now: now, calendar: calendar), "yesterday")
        XCTAssertEqual(BrowserText.lastPlayed(now.addingTimeInterval(-3 * 86_400), now: now, calendar: calendar), "3 days ago")
        XCTAssertEqual(BrowserText.lastPlayed(now.addingTimeInterval(-30 * 86_400), now: now, calendar: calendar), "2026-08-22")
        XCTAssertEqual(BrowserText.playTime(seconds: 30), "<1m")
        XCTAssertEqual(BrowserText.playTime(seconds: 754), "12m")
        XCTAssertEqual(BrowserText.playTime(seconds: 3 * 3600 + 5 * 60), "3h 05m")
        XCTAssertEqual(BrowserText.unplayableReason(.genesis, hasCore: false), "no core for Genesis")
        XCTAssertNil(BrowserText.unplayableReason(.nes, hasCore: true))
        XCTAssertEqual(BrowserText.progressBar(done: 1, total: 4, width: 8), "██░░░░░░")
    }

    func testScanBarCountsTheGamesReadWhileTheWalkGoesOn() {
        let walking = ScanProgress(filesSeen: 42, totalGuess: 0, currentFile: "", currentFolder: "/roms/GB")
        XCTAssertEqual(BrowserText.walkingLabel(walking), " Looking for games: 42 files ")
        let reading = ScanProgress(filesSeen: 300, totalGuess: 0, currentFile: "", gamesFound: 1, currentFolder: "/roms/GB", skipped: 2)
        XCTAssertEqual(BrowserText.walkingLabel(reading), " Looking for games: 300 files · 1 game · 2 skipped ")
    }
}
