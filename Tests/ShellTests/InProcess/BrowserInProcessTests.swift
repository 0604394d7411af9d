import Foundation
import Terminal
import TestSupport
import XCTest
@testable import Shell

/// The game browser, in process: the bundled cartridges, search, the Library menu and the Add
/// Folder dialog, through the real app loop and real ncurses drawing.
final class BrowserInProcessTests: XCTestCase {
    func testBundledCartridgesAreListedAndSearchFilters() throws {
        let harness = try AppHarness(label: "browser-search")
        defer { harness.finish() }
        try harness.startBrowser()
        harness.step(until: "the bundled cartridges") { $0.contains("6 of 6") && $0.contains("PHOSPHOR TEST") }
        harness.type("gb")
        harness.step(until: "the filtered list") { $0.contains("gb▏") && !$0.contains("6 of 6") }
        XCTAssertTrue(harness.screen.contains("of 6"))
        harness.type("\u{1B}")
        harness.step(until: "the search cleared") { $0.contains("type to search") && $0.contains("6 of 6") }
        harness.type("\u{11}")  // Ctrl-Q
        harness.run(steps: 3)
        XCTAssertTrue(harness.app.quitRequested)
    }

    /// Ctrl-Z in the browser suspends too (raw mode sends it as byte 0x1A, not as SIGTSTP), and
    /// the browser is drawn again on resume.
    func testCtrlZByteSuspendsTheBrowser() throws {
        let harness = try AppHarness(label: "browser-ctrl-z")
        defer { harness.finish() }
        try harness.startBrowser()
        harness.step(until: "the bundled cartridges") { $0.contains("6 of 6") }
        harness.type("\u{1A}")
        harness.run(steps: 3)
        XCTAssertEqual(harness.terminal.suspendCount, 1)
        XCTAssertFalse(harness.app.quitRequested)
        harness.step(until: "the browser after the resume") { $0.contains("6 of 6") }
    }

    func testLibraryMenuSortsAndClosesWithoutTouchingTheBrowser() throws {
        let harness = try AppHarness(label: "browser-menu")
        defer { harness.finish() }
        try harness.startBrowser()
        harness.step(until: "the bundled cartridges") { $0.contains("6 of 6") }
        let sortBefore = harness.screen.lines.first { $0.contains("sort:") } ?? ""
        harness.type("\u{0F}")  // Ctrl-O
        harness.step(untilText: "Rescan Library")
        harness.type("\u{1B}[B\u{1B}[B\u{1B}[B")  // down to Sort
        harness.type("\u{1B}[C")  // right: next sort
        harness.step(until: "a new sort") { screen in
            (screen.lines.first { $0.contains("Sort") && $0.contains("◂") }).map { !sortBefore.contains($0) } ?? false
        }
        harness.type("\u{1B}")
        harness.step(until: "the menu closed") { !$0.contains("Rescan Library") }
        let sortAfter = harness.screen.lines.first { $0.contains("sort:") } ?? ""
        XCTAssertNotEqual(sortBefore, sortAfter, "the browser's header shows the sort the menu chose")
    }

    func testAddFolderRefusesANonFolderInTheDialogAndAddsARealOne() throws {
        let harness = try AppHarness(label: "browser-add")
        defer { harness.finish() }
        let folder = harness.home.url.appendingPathComponent("more games")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let rom = try Data(contentsOf: Self.bundledROM("nes/phosphor-test.nes"))
        try rom.write(to: folder.appendingPathComponent("Pasted Quest.nes"))
        try harness.startBrowser()
        harness.step(until: "the bundled cartridges") { $0.contains("6 of 6") }
        harness.type("\u{01}")  // Ctrl-A
        harness.step(untilText: "Add Folder")
        harness.type("/nonexistent\r")
        harness.step(untilText: "not a folder")
        XCTAssertTrue(harness.screen.contains("/nonexistent▏"), "the typed text stays")
        harness.type("\u{15}")  // Ctrl-U clears
        harness.type("\u{1B}[200~\(folder.path)\u{1B}[201~\r")  // a bracketed paste
        harness.step(until: "the new game") { $0.contains("7 of 7") && $0.contains("Pasted Quest") }
    }

    static func bundledROM(_ path: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Roms").appendingPathComponent(path)
    }
}
