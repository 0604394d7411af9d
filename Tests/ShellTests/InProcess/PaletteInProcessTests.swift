import Emulation
import Foundation
import Glibc
import PhosphorKit
import Terminal
import TestSupport
import XCTest
@testable import Shell

/// The play screen on a terminal that reported its palette: the picture's colours go out as
/// redefined entries, and the entries are given back before the pause menu (whose save-state
/// previews draw with the palette), on suspend, and when the game ends.
final class PaletteInProcessTests: XCTestCase {
    /// Every candidate entry answered with xterm's default, as xterm answers, then the probe
    /// entry asked again after its redefinition: with the probe's colour where redefinitions
    /// take (xterm), with its own where the terminal ignores them (Konsole 22.12).
    private static func replies(redefinitionsTake: Bool = true) -> String {
        let own = TerminalPalette.candidates.map { index in
            let (red, green, blue) = ScreenModel.paletteRGB(index)
            return String(format: "\u{1B}]4;%d;rgb:%02x%02x/%02x%02x/%02x%02x\u{1B}\\", index, red, red, green, green, blue, blue)
        }
        let probe = TerminalPalette.probeEntry
        return own.joined() + (redefinitionsTake ? "\u{1B}]4;\(probe);rgb:1212/5656/9a9a\u{1B}\\" : own.last!)
    }

    /// Whether the model's palette is xterm's default in every candidate entry.
    private func paletteIsDefault(_ screen: ScreenModel) -> Bool {
        TerminalPalette.candidates.allSatisfy { index in
            guard let color = screen.palette[index] else { return true }
            return color == ScreenModel.paletteRGB(index)
        }
    }

    func testThePictureUsesRedefinedEntriesAndGivesThemBackForTheMenuAndAtTheEnd() throws {
        let game = try PlayHarness(label: "palette-entries", graphicsReplies: Self.replies())
        defer { game.finish() }
        XCTAssertEqual(game.app.terminal.palette.redefinableEntries.count, TerminalPalette.candidates.count)
        game.stepUntilPicture([])
        // The picture's cells are drawn by entry, each entry defined to the picture's colour.
        let rgb = game.backgroundRGB([])
        XCTAssertGreaterThan(game.screen.paletteDefinitions, 0)
        XCTAssertFalse(paletteIsDefault(game.screen))
        XCTAssertFalse(String(decoding: game.app.terminal.recorded, as: UTF8.self).contains(String(format: "48;2;%d;%d;%d", rgb.0, rgb.1, rgb.2)),
                       "the picture's colour went out as 24-bit instead of by entry")

        // The menu: the picture is redrawn in plain colour, then every entry is given back.
        let beforeMenu = game.app.terminal.recorded.count
        game.openPauseMenu()
        let menuBytes = Array(game.app.terminal.output(since: beforeMenu))
        XCTAssertTrue(menuBytes.containsSequence(game.app.terminal.palette.restoreBytes), "the entries were given back for the menu")
        XCTAssertTrue(paletteIsDefault(game.screen))
        XCTAssertGreaterThan(game.cells(showing: rgb), 200, "the picture under the menu keeps its colour")

        // Closed again: the entries are in use again.
        let definitions = game.screen.paletteDefinitions
        game.app.type("\u{1B}")
        game.app.step(until: "the game again, drawn by entry") { screen in
            !screen.contains("Paused") && screen.paletteDefinitions > definitions + 1 && game.cells(showing: rgb) > 200
        }

        // Suspend: the session's own way out gives them back; after the resume they are defined afresh.
        let beforeSuspend = game.app.terminal.recorded.count
        game.app.terminal.raise(SIGTSTP)
        game.app.run(steps: 2)
        XCTAssertEqual(game.app.terminal.suspendCount, 1)
        game.app.step(until: "the picture after the resume") { _ in game.cells(showing: rgb) > 200 }
        let afterSuspend = String(decoding: game.app.terminal.output(since: beforeSuspend), as: UTF8.self)
        let restore = String(decoding: game.app.terminal.palette.restoreBytes, as: UTF8.self)
        guard let restored = afterSuspend.range(of: restore) else { return XCTFail("the suspend gave the entries back") }
        XCTAssertTrue(afterSuspend[restored.upperBound...].contains(";rgb:"), "entries defined again after the resume")

        // The game ends: the entries are given back before anything else draws.
        let beforeEnd = game.app.terminal.recorded.count
        game.finish()
        XCTAssertTrue(Array(game.app.terminal.output(since: beforeEnd)).containsSequence(game.app.terminal.palette.restoreBytes))
    }

    /// Konsole 22.12 answers every query but ignores the redefinitions: its default entries
    /// drew the whole picture in wrong colours. Found at start, the picture keeps to 24-bit colour
    /// and the probe entry is given its own colour back at once.
    func testATerminalThatAnswersButIgnoresRedefinitionsGetsPlainColour() throws {
        let game = try PlayHarness(label: "palette-ignored", graphicsReplies: Self.replies(redefinitionsTake: false))
        defer { game.finish() }
        game.stepUntilPicture([])
        XCTAssertEqual(game.app.terminal.palette.reported.count, TerminalPalette.candidates.count)
        XCTAssertEqual(game.app.terminal.palette.redefinitionsTake, false)
        XCTAssertEqual(game.app.terminal.palette.redefinableEntries, [])
        let rgb = game.backgroundRGB([])
        XCTAssertGreaterThan(game.cells(showing: rgb), 200, "the picture shows its colour, with no entry redefined")
        let text = String(decoding: game.app.terminal.recorded, as: UTF8.self)
        // Only the probe entry was defined, and given back: the model's entries are xterm's defaults.
        let probe = TerminalPalette.probeEntry
        XCTAssertEqual(text.components(separatedBy: ";rgb:").count - 1, 2, "the probe, then its own colour")
        XCTAssertEqual(text.components(separatedBy: "\u{1B}]4;\(probe);rgb:").count - 1, 2)
        XCTAssertEqual(game.screen.paletteDefinitions, 2)
        XCTAssertTrue(paletteIsDefault(game.screen))
    }

    func testWithoutAnswersThePictureKeepsToPlainColour() throws {
        let game = try PlayHarness(label: "palette-none")
        defer { game.finish() }
        game.stepUntilPicture([])
        XCTAssertEqual(game.screen.paletteDefinitions, 0)
        XCTAssertFalse(String(decoding: game.app.terminal.recorded, as: UTF8.self).contains(";rgb:"), "no entry was defined")
    }
}

private extension Array where Element == UInt8 {
    func containsSequence(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        return (0...(count - needle.count)).contains { self[$0] == needle[0] && Array(self[$0..<$0 + needle.count]) == needle }
    }
}
