import Foundation
import Glibc
import TestSupport
import XCTest

/// Key release through XInput2 in a real X terminal (issue 12, item 4): phosphor plays the NES
/// test cartridge in xterm (no kitty protocol) on Xvfb, and `xdotool keydown`/`keyup` (XTEST,
/// real key events) hold Right. The game's button is held exactly as long as the key is down:
/// one press and one release, not the tap model's short press, gap and autorepeat. Leaving the
/// window lets go at once; keys typed in another window do not count.
///
/// How long the button was held comes from phosphor's log ("buttons port 0: 128 at T ms").
/// Skips only when Xvfb cannot start; CI (root, no terminal) runs it.
final class XInputKeyReleaseTests: XCTestCase {
    private var display: XvfbDisplay?
    private var pids: [pid_t] = []

    override func tearDown() {
        for pid in pids.reversed() { stopBackgroundProcess(pid) }
        display?.stop()
        super.tearDown()
    }

    func testHeldKeyIsHeldExactlyAsLongAsItIsDown() throws {
        for tool in ["/usr/bin/xterm", "/usr/bin/xdotool"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XvfbDisplay.Failure("\(tool) is missing: `make deps` installs xterm and xdotool")
        }
        let display = try XvfbDisplay()
        self.display = display
        let phosphor = try PhosphorProcess()
        defer { phosphor.cleanUp() }
        let log = phosphor.home.appendingPathComponent("data/phosphor.log")
        // SSH variables are dropped: under SSH a local display is (rightly) not used.
        let environment = ["/usr/bin/env", "-u", "SSH_CONNECTION", "-u", "SSH_TTY", "DISPLAY=\(display.name)",
                           "PHOSPHOR_HOME=\(phosphor.home.path)", "TERM=xterm"]
        pids.append(try startBackgroundProcess(
            environment + ["/usr/bin/xterm", "-class", "PhosphorGame", "-geometry", "100x40+0+0", "-e",
                           PhosphorProcess.binary.path, "--no-audio", PhosphorProcess.rom("nes/phosphor-test.nes").path],
            logFile: phosphor.home.appendingPathComponent("xterm.log").path))
        pids.append(try startBackgroundProcess(
            environment + ["/usr/bin/xterm", "-class", "PhosphorOther", "-geometry", "40x10+700+500", "-e", "sleep", "600"],
            logFile: phosphor.home.appendingPathComponent("xterm-other.log").path))
        let game = try window(class: "PhosphorGame", display: display)
        let other = try window(class: "PhosphorOther", display: display)
        let started = poll(timeout: 30, read: { Self.read(log) }, until: { $0.contains("[warning] key release: XInput2") })
        XCTAssertTrue(started.matched, "phosphor said it uses XInput2; log:\n\(started.last)")
        // XKB's repeat controls as Xvfb has them (X11's defaults), read through XkbGetControls.
        XCTAssertTrue(started.last.contains("autorepeat 660 ms then every 40 ms"), started.last)
        try xdotool(display, ["windowfocus", "--sync", game])
        Thread.sleep(forTimeInterval: 1)

        // Hold Right for 1.5 s: longer than X's 660 ms repeat delay, so the tap model would show
        // a short press, a gap and a hold that ends a repeat gap late.
        let down = try timed { try xdotool(display, ["keydown", "Right"]) }
        Thread.sleep(forTimeInterval: 1.5)
        let up = try timed { try xdotool(display, ["keyup", "Right"]) }
        let first = try buttonChanges(log, count: 2)
        XCTAssertEqual(first.map(\.mask), [128, 0], "one press and one release of Right: \(first)")
        assertDuration(of: first, between: down, and: up, "Right held as long as it was down")

        // Right goes down in the game's window, then the focus moves: it is let go at once, and
        // Left typed into the other window never reaches the game.
        let secondDown = try timed { try xdotool(display, ["keydown", "Right"]) }
        Thread.sleep(forTimeInterval: 0.4)
        let focusMoved = try timed { try xdotool(display, ["windowfocus", "--sync", other]) }
        Thread.sleep(forTimeInterval: 0.4)
        try xdotool(display, ["keyup", "Right"])
        try xdotool(display, ["keydown", "Left"])
        Thread.sleep(forTimeInterval: 0.3)
        try xdotool(display, ["keyup", "Left"])
        Thread.sleep(forTimeInterval: 0.5)
        let all = try buttonChanges(log, count: 4)
        XCTAssertEqual(all.count, 4, "nothing from the other window: \(all)")
        XCTAssertEqual(all.dropFirst(2).map(\.mask), [128, 0])
        if all.count == 4 { assertDuration(of: Array(all[2...]), between: secondDown, and: focusMoved, "let go when the focus left") }
    }

    // MARK: Helpers

    /// When a command ran: it took effect somewhere between `start` and `end`.
    private struct Span {
        var start: Date
        var end: Date
    }

    private func timed(_ body: () throws -> Void) throws -> Span {
        let start = Date()
        try body()
        return Span(start: start, end: Date())
    }

    /// The button went on and off as many milliseconds apart as the key was down: at least from
    /// the end of the press command to the start of the release command, at most from the start
    /// of one to the end of the other, give or take the UI's tick (16 ms) and the focus check (50 ms).
    private func assertDuration(of changes: [(mask: Int, milliseconds: Int)], between down: Span, and up: Span,
                                _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        let held = Double(changes[1].milliseconds - changes[0].milliseconds)
        let shortest = up.start.timeIntervalSince(down.end) * 1000 - 70
        let longest = up.end.timeIntervalSince(down.start) * 1000 + 70
        XCTAssertTrue((shortest...longest).contains(held),
                      "\(message): held \(Int(held)) ms, the key was down \(Int(shortest + 70))...\(Int(longest - 70)) ms", file: file, line: line)
    }

    private static func read(_ log: URL) -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// The "buttons port 0" lines of the log, waiting until at least `count` are there (or 10 s),
    /// plus a moment for any that should not come.
    private func buttonChanges(_ log: URL, count: Int) throws -> [(mask: Int, milliseconds: Int)] {
        _ = poll(timeout: 10, read: { Self.read(log) }, until: { Self.parse($0).count >= count })
        Thread.sleep(forTimeInterval: 0.3)
        return Self.parse(Self.read(log))
    }

    private static func parse(_ log: String) -> [(mask: Int, milliseconds: Int)] {
        log.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "buttons port 0: ") else { return nil }
            let fields = line[range.upperBound...].split(separator: " ")
            guard fields.count >= 3, let mask = Int(fields[0]), let time = Int(fields[2]) else { return nil }
            return (mask, time)
        }
    }

    private func window(class name: String, display: XvfbDisplay) throws -> String {
        let found = poll(timeout: 60, read: { (try? xdotool(display, ["search", "--class", name])) ?? "" },
                         until: { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty })
        guard found.matched, let id = found.last.split(separator: "\n").first else { throw XvfbDisplay.Failure("no \(name) window on \(display.name)") }
        return String(id)
    }

    @discardableResult
    private func xdotool(_ display: XvfbDisplay, _ arguments: [String]) throws -> String {
        try runCommand(["/usr/bin/env", "DISPLAY=\(display.name)", "/usr/bin/xdotool"] + arguments)
    }
}

/// An Xvfb server of the test's own on a free display number; skips the test when none starts.
final class XvfbDisplay {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    let name: String
    private let pid: pid_t

    init() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") else {
            throw XCTSkip("Xvfb is not installed (`make deps` installs xvfb)")
        }
        for number in 70..<100 where !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") {
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("phosphor-xvfb-\(number).log").path
            let started = try startBackgroundProcess(["/usr/bin/Xvfb", ":\(number)", "-screen", "0", "1024x768x24",
                                                      "-nolisten", "tcp"], logFile: log)
            let socket = "/tmp/.X11-unix/X\(number)"
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, isBackgroundProcessRunning(started), !FileManager.default.fileExists(atPath: socket) {
                Thread.sleep(forTimeInterval: 0.05)
            }
            // The display is ours only if the lock names our server: two tests (the two halves of
            // `make test`) may pick the same free number at once, and the loser's socket check
            // then sees the winner's socket while its own server is still on its way out.
            let lock = (try? String(contentsOfFile: "/tmp/.X\(number)-lock", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if isBackgroundProcessRunning(started), FileManager.default.fileExists(atPath: socket), lock == String(started) {
                name = ":\(number)"
                pid = started
                return
            }
            stopBackgroundProcess(started)
        }
        throw XCTSkip("Xvfb did not start on any display from :70 to :99")
    }

    func stop() { stopBackgroundProcess(pid) }
}
