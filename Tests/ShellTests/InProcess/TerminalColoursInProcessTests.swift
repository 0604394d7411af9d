import Foundation
import Terminal
import TestSupport
import XCTest
@testable import Shell

/// Colours from the terminal's own description (issue 16): `NO_COLOR` turns the menus' colours
/// off, and the terminfo `RGB` flag is read for the game picture when `COLORTERM` is unset.
final class TerminalColoursInProcessTests: XCTestCase {
    /// `phosphor-rgb`: xterm-256color with the RGB flag, compiled into a folder of the test's own.
    private static let rgbTerminal: String = {
        let folder = NSTemporaryDirectory() + "/phosphor-terminfo-rgb-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let source = folder + "/phosphor-rgb.src"
        try? "phosphor-rgb|xterm-256color with the RGB flag (Phosphor tests),\n\tRGB, use=xterm-256color,\n"
            .write(toFile: source, atomically: true, encoding: .utf8)
        let tic = Process()
        tic.executableURL = URL(fileURLWithPath: "/usr/bin/tic")
        tic.arguments = ["-x", "-o", folder, source]
        try? tic.run()
        tic.waitUntilExit()
        // Other tests' folders stay searched; an empty entry is the system's folder.
        let others = ProcessInfo.processInfo.environment["TERMINFO_DIRS"] ?? ""
        setenv("TERMINFO_DIRS", folder + ":" + others, 1)
        return "phosphor-rgb"
    }()

    func testTerminfoRGBFlagIsRead() throws {
        for (type, direct) in [(Self.rgbTerminal, true), ("xterm-256color", false)] {
            let harness = try AppHarness(terminalType: type, label: "terminfo-rgb")
            defer { harness.finish() }
            try harness.startBrowser()
            harness.step(until: "the browser") { $0.contains("PHOSPHOR TEST") }
            XCTAssertEqual(CursesWindow.hasDirectColor, direct, type)
        }
    }

    func testNoColorLeavesTheBrowserInTheTerminalsOwnColours() throws {
        for noColor in [false, true] {
            let harness = try AppHarness(label: "no-color", environment: noColor ? ["NO_COLOR": "1"] : [:])
            defer { harness.finish() }
            try harness.startBrowser()
            harness.step(until: "the browser") { $0.contains("PHOSPHOR TEST") }
            var coloured = 0
            for row in 0..<harness.screen.rows {
                for column in 0..<harness.screen.columns {
                    let cell = harness.screen.cell(column: column, row: row)
                    if cell.foreground != .default || cell.background != .default { coloured += 1 }
                }
            }
            if noColor {
                XCTAssertEqual(coloured, 0, "NO_COLOR: no cell has a colour of its own:\n\(harness.screen.text)")
            } else {
                XCTAssertGreaterThan(coloured, 0, "without NO_COLOR the menus have colours")
            }
        }
    }
}
