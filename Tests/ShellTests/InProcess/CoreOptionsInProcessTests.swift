import Emulation
import Foundation
import PhosphorKit
import TestSupport
import XCTest
@testable import Shell

/// The pause menu's Core Options screen (issue 16) over a scripted core with option definitions
/// of its own: categories, labels, live application through the core thread (the core reads the
/// values at its next GET_VARIABLE_UPDATE), saving per core or per game, the restart note, and a
/// value in the file the core does not offer (named in one line, kept in the file).
final class CoreOptionsInProcessTests: XCTestCase {
    func testOptionsAreShownChangedLiveAndSavedPerCoreOrPerGame() throws {
        let folder = try TemporaryFolder("core-options-files")
        defer { folder.remove() }
        let coreFile = folder.url.appendingPathComponent("scripted.json")
        let gameFile = folder.url.appendingPathComponent("scripted/phosphor-test.json")
        try Data(#"{"scripted_palette": "neon", "someone_elses": "x"}"#.utf8).write(to: coreFile)
        var script = ScriptedCore.Script(title: "phosphor-test", width: 64, height: 48)
        script.options = [
            CoreOptionDefinition(key: "scripted_palette", description: "Palette", values: ["warm", "cool", "grey"],
                                 defaultValue: "warm", info: "Colours of the picture", category: "Video",
                                 labels: ["warm": "Warm", "cool": "Cool", "grey": "Grey"]),
            CoreOptionDefinition(key: "scripted_region", description: "Region (restart)", values: ["ntsc", "pal"],
                                 defaultValue: "ntsc", category: "System"),
        ]
        script.optionFile = coreFile
        script.gameOptionFile = gameFile
        let game = try PlayHarness(label: "core-options", script: script)
        defer { game.finish() }
        game.app.step(untilText: "scripted_palette = \"neon\" is not one of its values")
        game.waitForCore("the values at load") { $0.optionValuesRead.first == ["scripted_palette": "warm", "scripted_region": "ntsc"] }
        XCTAssertTrue(try String(contentsOf: coreFile, encoding: .utf8).contains("neon"), "the file is kept as it was")

        game.pauseOnceDrawn()
        game.choose("Core Options", expecting: "Save changes for")
        for text in ["— Video —", "— System —", "Palette", "◂ Warm ▸", "Region (restart)", "◂ ntsc ▸", "◂ all games ▸"] {
            XCTAssertTrue(game.screen.contains(text), "'\(text)' not shown:\n\(game.screen.text)")
        }
        game.select("Palette")
        game.app.step(untilText: "Colours of the picture")
        game.app.type("\u{1B}[C")  // Right
        game.app.step(untilText: "Palette: Cool · saved for all games")
        XCTAssertTrue(game.screen.contains("◂ Cool ▸"))
        let saved = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: coreFile))
        XCTAssertEqual(saved, ["scripted_palette": "cool", "someone_elses": "x"], "the set key is written, the others kept")

        for _ in 0..<4 { game.app.type("\u{1B}[A") }  // Up to the first row
        game.app.run(steps: 4)
        game.select("Save changes for")
        game.app.type("\u{1B}[C")
        game.app.step(untilText: "◂ this game ▸")
        game.select("Region (restart)")
        game.app.type("\u{1B}[C")
        game.app.step(untilText: "Region (restart): pal · saved for this game · takes effect after a")
        XCTAssertTrue(game.screen.contains("◂ pal (game) ▸"))
        XCTAssertEqual(try JSONDecoder().decode([String: String].self, from: Data(contentsOf: gameFile)), ["scripted_region": "pal"])

        game.app.type("\u{1B}\u{1B}")  // options, pause menu: the game runs and reads the new values
        game.waitForCore("the changed values") { $0.optionValuesRead.last == ["scripted_palette": "cool", "scripted_region": "pal"] }
    }
}
