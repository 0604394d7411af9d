import Foundation
import XCTest

/// `phosphor play` with ROM names that carry an escape sequence, a bidi override or bytes that
/// are not UTF-8: nothing from the name reaches the terminal raw — not the screen, not the
/// notices, not an error line.
final class HostileNameTests: XCTestCase {
    var home: ScratchFolder!
    var pane: TmuxPane?

    override func setUpWithError() throws { home = try ScratchFolder("hostile") }
    override func tearDown() {
        pane?.stop()
        home.remove()
    }

    /// Sets the window title (OSC 2), turns on concealed text, and reverses the rest of the line.
    static let hostileName = "\u{1B}]2;PWNED\u{07}\u{1B}[8mev\u{202E}il"

    var environment: [String: String] {
        ["PHOSPHOR_HOME": home.url.path, "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
    }

    private func assertNothingFromTheName(_ bytes: [UInt8], _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        for (needle, what) in [("\u{1B}]2;PWNED", "the OSC title sequence"), ("\u{1B}[8m", "the conceal SGR"),
                               ("\u{202E}", "the bidi override")] {
            XCTAssertNil(bytes.firstRange(of: Array(needle.utf8)), "\(label): \(what) reached the terminal", file: file, line: line)
        }
    }

    func testPlayingAHostileNamedROMNeverSendsItsBytes() throws {
        let rom = try home.write(Self.hostileName + ".gbc", try Data(contentsOf: Binaries.rom("gb/phosphor-test.gbc")))
        // F12 (screenshot) puts a notice with the game's name on the status line: wait for it
        // (and the rest of its line) rather than a fixed 1.5 s. The name's sanitized "PWNED" is
        // waited for, not the word "screenshot": the encoder skips cells that already show the
        // right character, so a word over an earlier notice (the optional-BIOS one a core with
        // missing files shows at start) may reach the terminal in pieces.
        let run = try PTYRun([Binaries.phosphor.path, "play", "--no-audio", rom.path], environment: environment,
                             steps: [.wait("fps"), .sleep(1), .send("\u{1B}[24~"), .wait("PWNED", timeout: 5), .sleep(0.2),
                                     .send("\u{03}"), .exit(timeout: 20)], kitty: false)
        XCTAssertNil(run.report.failure, run.outputText.suffix(300).debugDescription)
        XCTAssertEqual(run.report.exit, 0)
        XCTAssertEqual(home.names(in: "data/screenshots").count, 1, "F12 took a screenshot (its notice names the game)")
        for name in home.names(in: "data/screenshots") {
            XCTAssertFalse(name.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" }, "file name: \(name.debugDescription)")
        }
        assertNothingFromTheName(run.output, "playing")
        // The same in tmux: the window title was not changed by the name.
        let command = TmuxPane.commandLine(["play", "--no-audio", rom.path], environment: environment) + "; echo EXIT=$?; sleep 600"
        let pane = try TmuxPane(command: command)
        self.pane = pane
        try pane.waitFor(text: "fps")
        Thread.sleep(forTimeInterval: 1)
        try pane.send("F12")
        let screen = try pane.waitFor("the screenshot notice", escapes: true) { $0.contains("screenshot") }
        XCTAssertFalse(screen.contains("\u{202E}"), screen)
        XCTAssertNotEqual(try pane.format("pane_title"), "PWNED")
        XCTAssertFalse(try pane.format("pane_title").contains("PWNED"))
    }

    func testErrorLinesAboutHostileNamesAreSanitized() throws {
        let empty = try home.write(Self.hostileName + ".gbc", Data())
        let noise = try home.write(Self.hostileName + ".nes", Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
        for rom in [empty, noise] {
            // In a terminal: the error comes before the screen is touched, and carries no escape at all.
            let run = try PTYRun([Binaries.phosphor.path, "play", rom.path], environment: environment, steps: [.exit()])
            XCTAssertEqual(run.report.exit, 1, run.outputText)
            XCTAssertFalse(run.output.contains(0x1B), "no escape byte at all: \(run.outputText.debugDescription)")
            assertNothingFromTheName(run.output, "play error")
            XCTAssertTrue(run.outputText.contains("\u{FFFD}"), "the removed characters are shown as U+FFFD: \(run.outputText)")
            // Headless: the same one line on stderr.
            let headless = try ChildProcess(Binaries.phosphor, ["run", "--headless", "--frames", "5", rom.path],
                                            environment: ["PHOSPHOR_HOME": home.url.path]).finish()
            XCTAssertNotEqual(headless.status, 0)
            XCTAssertFalse(headless.error.utf8.contains(0x1B), headless.error.debugDescription)
            XCTAssertEqual(headless.error.split(separator: "\n").filter { $0.hasPrefix("phosphor:") }.count, 1, headless.error)
        }
    }

    /// A name that is not valid UTF-8 cannot even be passed through Swift's arguments intact:
    /// the error says so instead of a bare "no such file", and shows no raw bytes.
    func testNonUTF8NameGetsAClearError() throws {
        let path = home.url.path + "/"
        let name: [UInt8] = [0xFF, 0xFE] + Array("bad.gbc".utf8)
        let bytes = Array(path.utf8) + name + [0]
        let descriptor = bytes.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self),
                                                              O_WRONLY | O_CREAT, 0o644) }
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        close(descriptor)
        let run = try PTYRun(["/bin/sh", "-c", "exec \"$0\" play \"$1\"$(printf '\\377\\376bad.gbc')", Binaries.phosphor.path, path],
                             environment: environment, steps: [.exit()])
        XCTAssertEqual(run.report.exit, 1, run.outputText)
        XCTAssertFalse(run.output.contains(0xFF) || run.output.contains(0xFE), "no raw invalid bytes: \(run.outputText.debugDescription)")
        XCTAssertTrue(run.outputText.contains("not valid UTF-8"), run.outputText)
        XCTAssertFalse(run.output.contains(0x1B))
    }
}
