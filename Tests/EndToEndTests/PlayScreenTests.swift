import Foundation
import XCTest

/// `phosphor play` in a real terminal (tmux, legacy keys: no key releases): the picture, keys,
/// the pause menu, save states, fast-forward, hold buttons, screenshots, quitting.
final class PlayScreenTests: XCTestCase {
    var phosphor: PhosphorProcess!
    var tmux: TmuxSession?

    override func setUpWithError() throws { phosphor = try PhosphorProcess() }

    override func tearDown() {
        tmux?.stop()
        phosphor.cleanUp()
    }

    private func play(_ rom: String, _ extra: [String] = []) throws -> TmuxSession {
        let session = try TmuxSession(arguments: ["play", "--no-audio"] + extra + [PhosphorProcess.rom(rom).path],
                                      home: phosphor.home)
        tmux = session
        try session.waitForGameRunning()  // frames running, not only the screen drawn: "idle" pictures are real ones
        return session
    }

    func testPictureIsColouredHalfBlocks() throws {
        let session = try play("nes/phosphor-test.nes")
        // The first frame can reach tmux in several writes, so wait for a full picture rather than
        // judging whichever partial screen the first capture happens to see.
        let screen = try session.waitFor("a window full of half blocks in colour", escapes: true) {
            Self.showsPicture($0)
        }
        XCTAssertTrue(screen.contains("NES"), "status bar")
        // The key legend beside the picture: Select's keys don't fit as "rshift/backspace", so it
        // shows the first whole ("rshift"), never a cut-off "rshift/ba".
        let select = screen.split(separator: "\n").first { $0.contains("Select") }
        XCTAssertTrue(select?.hasSuffix("rshift") ?? false, String(select ?? "no Select row"))
    }

    func testKeysChangeThePictureAndItSettlesBackAfterRelease() throws {
        let session = try play("nes/phosphor-test.nes")
        let idle = try session.settledPicture()
        try session.holdUntilPictureChanges("x", from: idle, "the A box to react")  // A
        // The presses stop: the key is let go one repeat gap later.
        try session.waitForPicture("the picture to return", equal: true, to: idle)
    }

    func testSaveStateThenResetThenLoadRestoresThePicture() throws {
        let session = try play("gb/phosphor-test.gbc")
        let bootOne = try session.settledPicture()
        try session.send("Escape")
        try session.waitFor(text: "Paused")
        try session.send("Down")
        try session.send("Enter")
        try session.waitFor(text: "Slot 9")
        try session.send("Down")  // from Slot 1 (the current slot) to Slot 2
        try session.send("Enter")
        try session.waitFor(text: "saved to Slot 2")
        try session.send("Escape")
        try session.send("Escape")
        try session.waitFor("the menu to close") { !$0.contains("Paused") }
        try session.send("F9")  // reset: the cartridge boots again and counts 2
        try session.waitFor(text: "reset")
        // The cartridge needs a few frames to boot and redraw: wait for the change, then settle.
        try session.waitForPicture("the boot counter to go up after the reset", equal: false, to: bootOne)
        let bootTwo = try session.settledPicture()
        XCTAssertNotEqual(bootTwo, bootOne, "the boot counter went up after the reset")
        try session.send("Escape")
        try session.waitFor(text: "Paused")
        try session.send("Down", "Down")
        try session.send("Enter")
        try session.waitFor(text: "Load State")
        try session.send("Enter")  // the menu opens on the current slot, 2
        try session.waitFor(text: "loaded Slot 2")
        try session.waitForPicture("the first boot's picture after loading the state", equal: true, to: bootOne)
        let states = phosphor.home.appendingPathComponent("data/states/gbc")
        let files = try FileManager.default.contentsOfDirectory(atPath: states.path)
        XCTAssertTrue(files.contains("phosphor-test.state2"))
        XCTAssertTrue(files.contains("phosphor-test.state2.png"))
    }

    func testFastForwardShowsInTheStatusBar() throws {
        let session = try play("nes/phosphor-test.nes")
        try session.send("Tab")
        try session.waitFor(text: "▶▶ 4x")
        // Without key releases a second press inside the first-repeat window (1 s until the real
        // delay is measured) reads as a repeat.
        Thread.sleep(forTimeInterval: 1.3)
        try session.send("Tab")
        try session.waitFor("normal speed") { !$0.contains("▶▶") }
    }

    func testHoldButtonKeepsAPressed() throws {
        let session = try play("nes/phosphor-test.nes")
        let idle = try session.settledPicture()
        try session.send("h")
        try session.waitFor(text: "HOLD: press a button")
        try session.send("x")
        try session.waitFor(text: "HOLD A")
        Thread.sleep(forTimeInterval: 1.5)  // far past any autorepeat window
        XCTAssertNotEqual(try session.settledPicture(), idle, "A stays pressed")
        try session.send("h")
        try session.send("x")
        try session.waitFor("A released") { !$0.contains("HOLD A") }
        // The key that toggled the hold also counts as a tap; after it the picture is idle again.
        try session.waitForPicture("the idle picture", equal: true, to: idle)
    }

    func testScreenshotWritesAPNG() throws {
        let session = try play("nes/phosphor-test.nes")
        try session.send("F12")
        try session.waitFor(text: "screenshot")
        let folder = phosphor.home.appendingPathComponent("data/screenshots")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertEqual(files.count, 1)
        let bytes = try Data(contentsOf: folder.appendingPathComponent(files[0]))
        XCTAssertEqual(Array(bytes.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        XCTAssertTrue(files[0].hasPrefix("phosphor-test "), files[0])
    }

    func testQuitFromThePauseMenuExitsCleanlyAndWritesTheAutomaticState() throws {
        let session = try play("nes/phosphor-test.nes")
        try session.send("Escape")
        // The status bar under the menu says the game is paused (not the last second's fps).
        try session.waitFor("the pause menu over a paused game") { $0.contains("Paused") && $0.contains("NES · paused") }
        try session.send("End")
        try session.send("Enter")
        XCTAssertEqual(try session.waitForExit(), 0)
        let auto = phosphor.home.appendingPathComponent("data/states/nes/phosphor-test.state.auto")
        XCTAssertTrue(FileManager.default.fileExists(atPath: auto.path))
    }

    func testFrameLimitExitsByItself() throws {
        let session = try TmuxSession(arguments: ["play", "--no-audio", "--frames", "90",
                                                  PhosphorProcess.rom("nes/phosphor-test.nes").path],
                                      home: phosphor.home)
        tmux = session
        XCTAssertEqual(try session.waitForExit(), 0)
    }

    /// A limit shorter than the start-up: the game used to end before the session had asked the
    /// core its version and options, and the run failed with "the game stopped" (exit 1).
    func testOneFrameLimitStillExitsCleanly() throws {
        for _ in 0..<3 {
            tmux?.stop()
            let session = try TmuxSession(arguments: ["play", "--no-audio", "--frames", "1",
                                                      PhosphorProcess.rom("nes/phosphor-test.nes").path],
                                          home: phosphor.home)
            tmux = session
            XCTAssertEqual(try session.waitForExit(), 0)
        }
        let log = (try? String(contentsOf: phosphor.home.appendingPathComponent("data/phosphor.log"), encoding: .utf8)) ?? ""
        XCTAssertFalse(log.contains("[error]"), log)
    }

    /// Issue 6: the pause menu's Cheat Codes. A code of the wrong format shows why and keeps what
    /// was typed; the fixed code and a name add the cheat, the picture changes (ZAZKAP turns the
    /// box loop's `lda #TILE_OUTLINE` into TILE_SOLID), the file is written; off brings the idle
    /// picture back, Del deletes.
    func testCheatsFromThePauseMenuChangeThePictureAndAreSaved() throws {
        let session = try play("nes/phosphor-test.nes")
        let idle = try session.settledPicture()
        let file = phosphor.home.appendingPathComponent("data/cheats/nes/phosphor-test.json")
        func openCheats(showing value: String) throws {
            try session.send("Escape")
            try session.waitFor("the pause menu with Cheat Codes \(value)") {
                $0.contains("Paused") && $0.range(of: #"Cheat Codes +\#(value) ▸"#, options: .regularExpression) != nil
            }
            // Resume, Save State, Load State, (Undo Last Load is disabled and skipped), Fast
            // Forward, Hold Buttons, Cheat Codes.
            for _ in 0..<5 { try session.send("Down") }
            try session.send("Enter")
            try session.waitFor(text: "Cheat Codes — NES")
        }
        func storedCheats() throws -> [[String: Any]] {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
            return try XCTUnwrap(object?["cheats"] as? [[String: Any]])
        }

        try openCheats(showing: "none")
        try session.waitFor("the empty list") { $0.contains("Add cheat…") && $0.contains("Enter on/off · Del delete") }
        try session.send("Enter")
        try session.waitFor(text: "Add Cheat — NES")
        try session.send("zazka", literal: true)
        try session.send("Enter")
        try session.waitFor("the reason, with the typed code kept") {
            // The reason wraps inside the dialog.
            $0.contains("\"ZAZKA\" has 5 letters;") && $0.contains("Game Genie codes have 6 or 8") && $0.contains("zazka▏")
        }
        try session.send("p", literal: true)
        try session.send("Enter")
        try session.waitFor("the name question") { $0.contains("Name the Cheat") && $0.contains("Name for ZAZKAP") }
        try session.send("Boxes solid", literal: true)
        try session.send("Enter")
        try session.waitFor("the cheat on in the list") {
            $0.contains("added Boxes solid · 1 cheat on") && $0.range(of: #"Boxes solid +\[x\]"#, options: .regularExpression) != nil
        }
        let added = try storedCheats()
        XCTAssertEqual(added.count, 1)
        XCTAssertEqual(added.first?["code"] as? String, "ZAZKAP")
        XCTAssertEqual(added.first?["name"] as? String, "Boxes solid")
        XCTAssertEqual(added.first?["enabled"] as? Bool, true)

        try session.send("Escape")
        try session.send("Escape")
        try session.waitFor("the game running with one cheat") { !$0.contains("Paused") && $0.contains("· 1 cheat ·") }
        try session.waitForPicture("the boxes drawn solid", equal: false, to: idle)

        try openCheats(showing: "1 on")
        try session.send("Enter")  // the cheat is the first row
        try session.waitFor("the cheat off") {
            $0.contains("off: Boxes solid · 0 cheats on") && $0.range(of: #"Boxes solid +\[ \]"#, options: .regularExpression) != nil
        }
        XCTAssertEqual(try storedCheats().first?["enabled"] as? Bool, false)
        try session.send("Escape")
        try session.send("Escape")
        try session.waitFor("the game running without cheats") { !$0.contains("Paused") && !$0.contains("cheat") }
        try session.waitForPicture("the idle picture again", equal: true, to: idle)

        try openCheats(showing: "all off")
        try session.send("DC")  // Delete
        try session.waitFor("the cheat deleted") { $0.contains("deleted Boxes solid") && !$0.contains("[ ]") }
        XCTAssertEqual(try storedCheats().count, 0)
    }

    /// A coloured half-block picture: over 100 cells drawn as `▀`, `▄` or `█` (flat areas are spaces).
    static func showsPicture(_ screen: String) -> Bool {
        screen.contains("\u{1B}[38;5;") && ["▀", "▄", "█"].map { screen.components(separatedBy: $0).count - 1 }.reduce(0, +) > 100
    }
}
