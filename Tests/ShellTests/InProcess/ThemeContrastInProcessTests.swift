import Foundation
import Terminal
import TestSupport
import XCTest
@testable import Shell

/// The menus drawn by real ncurses for terminals with 8, 16 and 256 colours and none, read back
/// cell by cell: every character of every menu item, heading and hint must stand out from its
/// background (WCAG contrast at least 4.5:1 in xterm's palette) — on a dark and on a light
/// terminal background as OSC 11 reported it, and on both when the terminal did not say.
/// Under 8 colours ncurses drops any colour ≥ 8, which used to leave black boxes.
final class ThemeContrastInProcessTests: XCTestCase {
    /// (TERM, colours ncurses gets). xterm-16color is not in ncurses-base: the test compiles it.
    private static let terminals: [(type: String, colours: Int)] = [
        ("xterm", 8), ("xterm-16color", 16), ("xterm-256color", 256), ("xterm-mono", 0),
    ]

    private enum Assumed: CaseIterable { case dark, light }

    /// The backgrounds a test answers OSC 11 with, and which assumed backgrounds to check.
    private static let answers: [(reply: String?, check: [Assumed])] = [
        (AppHarness.darkBackground, [.dark]), (AppHarness.lightBackground, [.light]), (nil, [.dark, .light]),
    ]

    override class func setUp() {
        super.setUp()
        SixteenColourTerminfo.install()
    }

    func testBrowserIsReadableAtEveryDepthAndBackground() throws {
        for terminal in Self.terminals {
            for answer in Self.answers {
                let label = "\(terminal.type) background \(answer.reply ?? "unknown")"
                let harness = try AppHarness(terminalType: terminal.type, label: "contrast-browser")
                defer { harness.finish() }
                try harness.startBrowser(background: answer.reply)
                harness.step(until: "the bundled cartridges") { $0.contains("6 of 6") && $0.contains("PHOSPHOR TEST") }
                XCTAssertEqual(max(0, CursesWindow.paletteSize), terminal.colours, label)
                for text in ["PHOSPHOR", "Systems", "Title", "Enter", "play"] {
                    XCTAssertTrue(harness.screen.contains(text), "\(label): '\(text)' not shown:\n\(harness.screen.text)")
                }
                for assumed in answer.check {
                    let problems = Self.problems(harness.screen, assumed: assumed,
                                                 rows: 0..<harness.screen.rows, columns: 0..<harness.screen.columns)
                    XCTAssertEqual(problems, [], "\(label), \(assumed) terminal:\n\(harness.screen.text)")
                }
            }
        }
    }

    func testPauseMenuShowsEveryItemReadablyAtEveryDepthAndBackground() throws {
        for terminal in Self.terminals {
            for answer in Self.answers {
                let label = "\(terminal.type) background \(answer.reply ?? "unknown")"
                let game = try PlayHarness(terminalType: terminal.type, label: "contrast-pause", background: answer.reply)
                defer { game.finish() }
                game.app.step(untilText: "NES")  // the status bar: the game runs
                game.openPauseMenu()
                let screen = game.screen
                for item in ["Resume", "Save State", "Load State", "Fast Forward", "Key Mapping", "Reset", "Esc/F1 back"] {
                    XCTAssertTrue(screen.contains(item), "\(label): '\(item)' not shown:\n\(screen.text)")
                }
                guard let box = Self.menuBox(screen) else {
                    XCTFail("\(label): no menu box:\n\(screen.text)")
                    continue
                }
                for assumed in answer.check {
                    XCTAssertEqual(Self.problems(screen, assumed: assumed, rows: box.rows, columns: box.columns), [],
                                   "\(label), \(assumed) terminal:\n\(screen.text)")
                }
                // The selection bar is told apart from the other rows.
                let resume = screen.find("Resume")!
                let save = screen.find("Save State")!
                XCTAssertTrue(game.isSelected(column: resume.column, row: resume.row), label)
                XCTAssertFalse(game.isSelected(column: save.column, row: save.row), label)
            }
        }
    }

    // MARK: Reading the screen

    /// The pause menu's rectangle: from the corner left of its title to the opposite corner.
    private static func menuBox(_ screen: ScreenModel) -> (rows: Range<Int>, columns: Range<Int>)? {
        guard let title = screen.find("Paused — "),
              let left = (0..<title.column).last(where: { screen.cell(column: $0, row: title.row).character == "╭" }),
              let right = (title.column..<screen.columns).first(where: { screen.cell(column: $0, row: title.row).character == "╮" }),
              let bottom = (title.row..<screen.rows).first(where: { screen.cell(column: left, row: $0).character == "╰" })
        else { return nil }
        return (title.row..<(bottom + 1), left..<(right + 1))
    }

    /// Cells that would be unreadable: text under 4.5:1, lines in their background's colour.
    private static func problems(_ screen: ScreenModel, assumed: Assumed, rows: Range<Int>, columns: Range<Int>) -> [String] {
        switch assumed {
        case .dark:
            screen.defaultForeground = (229, 229, 229)
            screen.defaultBackground = (0, 0, 0)
        case .light:
            screen.defaultForeground = (0, 0, 0)
            screen.defaultBackground = (255, 255, 255)
        }
        var problems: [String] = []
        for row in rows {
            for column in columns {
                let character = screen.cell(column: column, row: row).character
                guard let scalar = character.unicodeScalars.first, character != " " else { continue }
                if (0x2580...0x259F).contains(scalar.value) { continue }  // half blocks: box art and the game
                let colours = shownRGB(screen, column: column, row: row)
                let ratio = TerminalBackground.contrast(luminance(colours.foreground), luminance(colours.background))
                let isLine = (0x2500...0x257F).contains(scalar.value)
                if isLine ? colours.foreground == colours.background : ratio < 4.5 {
                    problems.append("'\(character)' at \(column),\(row): \(colours.foreground) on \(colours.background) \(String(format: "%.2f", ratio)):1")
                }
            }
        }
        // One line per row is enough to see what went wrong.
        return Array(problems.prefix(12))
    }

    /// The colours as xterm shows them: bold text in palette colours 0–7 comes out in the bright
    /// colour 8–15 (its default `boldColors`), which can spoil the contrast (bold black on cyan).
    private static func shownRGB(_ screen: ScreenModel, column: Int, row: Int)
        -> (foreground: (UInt8, UInt8, UInt8), background: (UInt8, UInt8, UInt8)) {
        let cell = screen.cell(column: column, row: row)
        var shown = screen.effectiveRGB(column: column, row: row)
        let foreground = cell.isReverse ? cell.background : cell.foreground
        if cell.isBold, case .palette(let index) = foreground, index < 8 {
            shown.foreground = ScreenModel.paletteRGB(index + 8)
        }
        return shown
    }

    private static func luminance(_ rgb: (UInt8, UInt8, UInt8)) -> Double {
        TerminalBackground.relativeLuminance(red: Double(rgb.0) / 255, green: Double(rgb.1) / 255, blue: Double(rgb.2) / 255)
    }
}

/// A terminfo entry for a 16-colour xterm (Debian ships one only in ncurses-term), compiled with
/// tic into a temporary folder that ncurses searches before the system's.
enum SixteenColourTerminfo {
    nonisolated(unsafe) private static var installed = false

    static func install() {
        guard !installed else { return }
        installed = true
        let folder = NSTemporaryDirectory() + "/phosphor-terminfo-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let source = folder + "/xterm-16color.src"
        let entry = "xterm-16color|xterm with 16 colours (Phosphor tests),\n\tcolors#16, pairs#256, use=xterm-256color,\n"
        try? entry.write(toFile: source, atomically: true, encoding: .utf8)
        let tic = Process()
        tic.executableURL = URL(fileURLWithPath: "/usr/bin/tic")
        tic.arguments = ["-x", "-o", folder, source]
        try? tic.run()
        tic.waitUntilExit()
        // An empty entry in TERMINFO_DIRS is the system's folder.
        setenv("TERMINFO_DIRS", folder + ":", 1)
    }
}
