import Foundation
import XCTest

/// The Core Options screen with a real core in a real terminal (issue 16): nestopia's palette
/// option changed in the pause menu changes the picture at once, and the value is still in use
/// after a restart.
final class CoreOptionsScreenTests: XCTestCase {
    var phosphor: PhosphorProcess!
    var tmux: TmuxSession?

    override func setUpWithError() throws { phosphor = try PhosphorProcess() }
    override func tearDown() {
        tmux?.stop()
        phosphor.cleanUp()
    }

    private func play() throws -> TmuxSession {
        tmux?.stop()
        let session = try TmuxSession(arguments: ["play", "--no-audio", PhosphorProcess.rom("nes/phosphor-test.nes").path],
                                      home: phosphor.home)
        tmux = session
        try session.waitFor(text: "fps")
        return session
    }

    func testPaletteChangedInTheMenuChangesThePictureAndSurvivesARestart() throws {
        var session = try play()
        let idle = try session.settledPicture()
        try session.send("Escape")
        try session.waitFor(text: "Core Options")
        // Resume, Save State, Load State, (Undo Last Load, disabled), Fast Forward, Hold Buttons,
        // Cheat Codes, Key Mapping, Rewind & Run-Ahead, Core Options.
        for _ in 0..<8 { try session.send("Down") }
        try session.send("Enter")
        let screen = try session.waitFor("nestopia's options") { $0.contains("Save changes for") && $0.contains("Palette") }
        // Option rows from "Save changes for" down to "Palette" (category headings are skipped).
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        let first = try XCTUnwrap(lines.firstIndex { $0.contains("Save changes for") })
        let palette = try XCTUnwrap(lines.firstIndex { $0.range(of: #"│\s+Palette\s"#, options: .regularExpression) != nil })
        let steps = lines[(first + 1)...palette].filter { !$0.contains("— ") }.count
        for _ in 0..<steps { try session.send("Down") }
        try session.send("Right")
        try session.waitFor("the new palette saved") { $0.contains("Palette: ") && $0.contains("saved for all games") }
        let options = phosphor.home.appendingPathComponent("config/core-options/nestopia.json")
        let saved = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: options))
        let chosen = try XCTUnwrap(saved["nestopia_palette"])
        XCTAssertNotEqual(chosen, "cxa2025as", "the palette after the default")
        try session.send("Escape")
        try session.send("Escape")
        try session.waitForPicture("the picture in the new palette", equal: false, to: idle)
        let changed = try session.settledPicture()

        try session.send("Escape")
        try session.waitFor(text: "Paused")
        try session.send("End")
        try session.send("Enter")
        XCTAssertEqual(try session.waitForExit(), 0)

        session = try play()
        try session.waitForPicture("the new palette after a restart", equal: true, to: changed)
        XCTAssertNotEqual(try session.settledPicture(), idle)
    }
}
