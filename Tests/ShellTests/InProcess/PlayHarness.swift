import Emulation
import Foundation
import Input
import PhosphorKit
import TestSupport
import XCTest
@testable import Shell

/// A game in process: the app harness with a `ScriptedCore` behind the real core thread, so the
/// play screen, the pause menu and its screens run in milliseconds. The scripted picture's
/// background is the colour of port 0's buttons (`ScriptedCore.Color5(mask:)`).
final class PlayHarness {
    let app: AppHarness
    let journal = ScriptedCore.Journal()
    let script: ScriptedCore.Script
    let rom: URL
    let gameKey = "phosphor-test"

    init(columns: Int = 100, rows: Int = 32, terminalType: String = "xterm-256color", label: String,
         script: ScriptedCore.Script = ScriptedCore.Script(title: "phosphor-test", width: 64, height: 48),
         fromLibrary: Bool = false, kittyKeyboard: Bool = false, background: String? = AppHarness.darkBackground,
         answersKeyboard: Bool = true, environment: [String: String] = [:], graphicsReplies: String = "",
         system: GameSystem = .nes, videoMode: VideoModeChoice? = nil,
         keyRelease: ScriptedKeyReleaseSource? = nil, gamepads: [ScriptedGamepad] = [],
         firmware: [CoreInfo.Firmware] = [],
         configure: (PhosphorPaths) throws -> Void = { _ in }) throws {
        self.script = script
        rom = BrowserInProcessTests.bundledROM("nes/phosphor-test.nes")
        var core = CoreInfo(path: URL(fileURLWithPath: "/nonexistent/scripted_libretro.so"), name: "scripted",
                            displayName: "Scripted Core", systems: [system], extensions: ["nes"], needsFullPath: false,
                            supportsNoGame: false, displayVersion: "1.0", softwareRendered: true)
        core.firmware = firmware
        app = try AppHarness(columns: columns, rows: rows, terminalType: terminalType, label: label,
                             catalog: CoreCatalog(cores: [core]), environment: environment, configure: configure)
        app.services.overrides.makeCore = ScriptedCore.maker(script, journal: journal)
        if let keyRelease {
            // What KeyReleaseSourceOpening.open says for XInput2, with the scripted source behind it.
            app.services.overrides.openKeyReleaseSource = { _ in
                KeyReleaseSourceOpening(source: keyRelease, notice: "key release: \(keyRelease.name) (while this window has the focus)")
            }
        }
        app.services.overrides.videoMode = videoMode
        app.services.overrides.gamepads = gamepads
        let launch = GameLaunch(rom: rom, system: system, title: "Phosphor Test", gameID: fromLibrary ? 1 : nil)
        try app.start(kittyKeyboard: kittyKeyboard, background: background, answersKeyboard: answersKeyboard,
                      graphicsReplies: graphicsReplies) {
            try $0.startGame(launch)
        }
    }

    var screen: ScreenModel { app.screen }
    var paths: PhosphorPaths { app.paths }

    /// The scripted core's background colour for these port 0 buttons, as the terminal shows it.
    func backgroundRGB(_ buttons: [JoypadButton]) -> (UInt8, UInt8, UInt8) {
        let pixel = ScriptedCore.Color5(mask: ButtonMask(buttons)).pixel(in: .xrgb8888)
        return (UInt8(pixel >> 16 & 0xFF), UInt8(pixel >> 8 & 0xFF), UInt8(pixel & 0xFF))
    }

    /// How many cells show `rgb` in both halves (top and bottom pixel): a half block in that
    /// colour twice, or a blank or full block of it (the encoder's cheaper forms of the same).
    func cells(showing rgb: (UInt8, UInt8, UInt8), on model: ScreenModel? = nil) -> Int {
        let screen = model ?? self.screen
        var count = 0
        for row in 0..<screen.rows {
            for column in 0..<screen.columns {
                let colours = screen.effectiveRGB(column: column, row: row)
                switch screen.cell(column: column, row: row).character {
                case "▀", "▄": if colours.foreground == rgb && colours.background == rgb { count += 1 }
                case " ": if colours.background == rgb && screen.cell(column: column, row: row).background != .default { count += 1 }
                case "█": if colours.foreground == rgb { count += 1 }
                default: break
                }
            }
        }
        return count
    }

    /// Steps until the picture is mostly this background (the game drew the buttons' colour).
    func stepUntilPicture(_ buttons: [JoypadButton], file: StaticString = #filePath, line: UInt = #line) {
        let rgb = backgroundRGB(buttons)
        app.step(until: "the picture for \(buttons)", file: file, line: line) { _ in self.cells(showing: rgb) > 200 }
    }

    /// Types `key` before every step until the picture shows `buttons`: a key held down in a
    /// terminal without key releases, whose autorepeat keeps it held however slowly a loaded
    /// machine runs the core (one tap is let go after 66 ms, which a core may not outlast).
    func stepUntilPicture(_ buttons: [JoypadButton], holding key: String, file: StaticString = #filePath, line: UInt = #line) {
        let rgb = backgroundRGB(buttons)
        app.step(until: "the picture for \(buttons) with \(key) held", file: file, line: line) { _ in
            if self.cells(showing: rgb) > 200 { return true }
            self.app.type(key)
            return false
        }
    }

    /// Moves the menu selection down to the row that shows `label` (Down, as a user would) and
    /// stops there; fails when the row never becomes the selected one.
    func select(_ label: String, file: StaticString = #filePath, line: UInt = #line) {
        for _ in 0..<30 {
            if occurrences(of: label).contains(where: { isSelected(column: $0.column, row: $0.row) }) { return }
            app.type("\u{1B}[B")
            app.run(steps: 2)
        }
        XCTFail("'\(label)' never became the selected row:\n\(screen.text)", file: file, line: line)
    }

    /// Whether the menu row showing `label` is the selected one.
    func isSelected(_ label: String) -> Bool {
        occurrences(of: label).contains { isSelected(column: $0.column, row: $0.row) }
    }

    /// Every place the text stands on screen (a label may also appear in the legend).
    private func occurrences(of text: String) -> [(column: Int, row: Int)] {
        (0..<screen.rows).compactMap { row in screen.find(text, inRow: row).map { ($0, row) } }
    }

    /// Selects the row, presses Enter on it and steps until `expected` is on screen.
    func choose(_ label: String, expecting expected: String, file: StaticString = #filePath, line: UInt = #line) {
        select(label, file: file, line: line)
        app.type("\r")
        app.step(untilText: expected, file: file, line: line)
    }

    /// A game with its picture drawn and the pause menu open over it.
    func pauseOnceDrawn(file: StaticString = #filePath, line: UInt = #line) {
        stepUntilPicture([], file: file, line: line)
        openPauseMenu(file: file, line: line)
    }

    /// The menus' selection bar (Theme.dialogSelected): its background, or reverse video where
    /// the theme has no colours.
    func isSelected(column: Int, row: Int) -> Bool {
        let style = Theme.dialogSelected
        let cell = screen.cell(column: column, row: row)
        if style.background < 0 { return cell.isReverse && style.reverse }
        return screen.effectiveColors(column: column, row: row).background == .palette(Int(style.background))
    }

    func openPauseMenu(file: StaticString = #filePath, line: UInt = #line) {
        app.type("\u{1B}")
        app.step(untilText: "Paused — NES", file: file, line: line)
    }

    /// Frames the scripted core has run so far.
    var framesRun: UInt64 { journal.entries.framesRun }

    /// Waits (in real time: the core thread runs on the real clock) until `condition` holds.
    func waitForCore(_ description: String, file: StaticString = #filePath, line: UInt = #line,
                     _ condition: (ScriptedCore.Journal.Entries) -> Bool) {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if condition(journal.entries) { return }
            app.run(steps: 1)
            Thread.sleep(forTimeInterval: 0.005)
        }
        XCTFail("the core never saw \(description): \(journal.entries)", file: file, line: line)
    }

    func finish() { app.finish() }
}
