import TestSupport
import Foundation
import XCTest

/// The terminal always comes back: every way out of `phosphor play` in a pseudo-terminal that
/// speaks the kitty keyboard protocol (so flags are pushed and must be popped).
final class TerminalRestoreTests: XCTestCase {
    var home: ScratchFolder!
    let gbc = Binaries.rom("gb/phosphor-test.gbc")

    override func setUpWithError() throws { home = try ScratchFolder("restore") }
    override func tearDown() { home.remove() }

    var environment: [String: String] {
        ["PHOSPHOR_HOME": home.url.path, "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
    }

    private func play(_ extra: [String] = [], rom: URL? = nil, steps: [PTYRun.Step], kitty: Bool = true,
                      environment extraEnvironment: [String: String] = [:]) throws -> PTYRun {
        try PTYRun([Binaries.phosphor.path, "play", "--no-audio"] + extra + [(rom ?? gbc).path],
                   environment: environment.merging(extraEnvironment) { $1 }, steps: steps, kitty: kitty)
    }

    private var srm: URL { home.file("data/saves/gbc/phosphor-test.srm") }

    // Kitty encodings (flags 1|2|8 pushed): press then release.
    static let escape = "\u{1B}[27u\u{1B}[27;1:3u"
    static let end = "\u{1B}[F"
    static let enter = "\u{1B}[13u\u{1B}[13;1:3u"
    static let controlC = "\u{1B}[99;5u\u{1B}[99;5:3u"

    func testQuitFromThePauseMenuRestoresTheTerminal() throws {
        let run = try play(steps: [.wait("fps"), .send(Self.escape), .wait("Paused"), .send(Self.end), .sleep(0.3),
                                   .send(Self.enter), .exit()])
        run.assertTerminalRestored("pause menu → Quit")
        run.assertKittyFlagsPopped("pause menu → Quit")
        XCTAssertEqual(run.report.exit, 0)
    }

    /// Legacy keys (no kitty answer): a lone ESC is the Escape key 50 ms later, even while the
    /// game keeps the app loop busy, and even right after F12 (whose sequence also starts with ESC).
    func testLegacyEscapeOpensThePauseMenuAndQuitRestores() throws {
        let run = try play(steps: [.wait("fps"), .sleep(0.5), .send("\u{1B}[24~"), .sleep(1), .send("\u{1B}"),
                                   .wait("Paused", timeout: 1), .send("\u{1B}[F"), .sleep(0.3), .send("\r"), .exit()],
                           kitty: false)
        run.assertTerminalRestored("legacy Escape → Quit")
        XCTAssertEqual(run.report.exit, 0)
    }

    func testControlCRestoresTheTerminal() throws {
        let run = try play(steps: [.wait("fps"), .sleep(0.3), .send(Self.controlC), .exit()])
        run.assertTerminalRestored("Ctrl-C")
        run.assertKittyFlagsPopped("Ctrl-C")
        XCTAssertEqual(run.report.exit, 0)
    }

    func testControlCInALegacyTerminalRestoresTheTerminal() throws {
        let run = try play(steps: [.wait("fps"), .sleep(0.3), .send("\u{03}"), .exit()], kitty: false)
        run.assertTerminalRestored("Ctrl-C (legacy keys)")
        XCTAssertEqual(run.report.kitty_pushes, 0, "no kitty support, no push")
        XCTAssertEqual(run.report.exit, 0)
    }

    func testSIGTERMAndSIGHUPRestoreTheTerminalAndWriteTheBatterySave() throws {
        for signal in ["TERM", "HUP", "INT"] {
            try? FileManager.default.removeItem(at: srm)
            // Well under the ~3 s periodic write: only the quit path can have written the .srm.
            let run = try play(steps: [.wait("fps"), .sleep(0.5), .signal(signal), .exit()])
            run.assertTerminalRestored("SIG\(signal)")
            run.assertKittyFlagsPopped("SIG\(signal)")
            XCTAssertEqual(run.report.exit, 0, "SIG\(signal): a clean exit")
            // gambatte printf's "rambanks: 1": that goes to the log, also what sat in stdio's buffer at exit.
            XCTAssertFalse(run.outputText.contains("rambanks"), "SIG\(signal): core output stays off the terminal")
            let bytes = try [UInt8](Data(contentsOf: srm))
            XCTAssertEqual(bytes.count, 8192, "SIG\(signal): the battery save is written")
            XCTAssertEqual(Array(bytes.prefix(4)), Array("PHOS".utf8), "SIG\(signal)")
        }
    }

    /// The terminal itself goes away (an SSH session drops): the kernel's SIGHUP and failing
    /// writes end the game cleanly, and the battery save is written.
    func testClosedTerminalEndsTheGameAndWritesTheBatterySave() throws {
        try? FileManager.default.removeItem(at: srm)
        let run = try play(steps: [.wait("fps"), .sleep(0.5), .hangup, .exit()])
        XCTAssertNil(run.report.failure)
        XCTAssertEqual(run.report.exit, 0, "a clean exit after the hangup")
        let bytes = try [UInt8](Data(contentsOf: srm))
        XCTAssertEqual(bytes.count, 8192)
        XCTAssertEqual(Array(bytes.prefix(4)), Array("PHOS".utf8))
    }

    /// A core that segfaults in retro_run: the C crash handler restores the terminal, and the
    /// battery save loses at most the last few seconds.
    func testCrashingCoreRestoresTheTerminalAndKeepsRecentSRAM() throws {
        let core = try CrashCore.build(into: home)
        let crashFrame = 330  // 5.5 s at 60 fps
        let run = try play(["--core", core.path], steps: [.wait("fps"), .exit(timeout: 20)],
                           environment: ["CRASHCORE_FRAMES": "\(crashFrame)"])
        run.assertTerminalRestored("core crash")
        run.assertKittyFlagsPopped("core crash")
        XCTAssertEqual(run.report.signal, SIGSEGV, "the process died of the core's SIGSEGV")
        let bytes = try [UInt8](Data(contentsOf: srm))
        XCTAssertEqual(bytes.count, 8192)
        XCTAssertEqual(Array(bytes.prefix(4)), Array("CRSH".utf8))
        let seconds = (0..<4).reduce(0) { $0 | Int(bytes[4 + $1]) << (8 * $1) }
        XCTAssertGreaterThanOrEqual(seconds, crashFrame / 60 - 4, "at most the last few seconds are lost")
    }

    /// TERM=dumb and a non-UTF-8 locale: one clear line, and the screen is never touched.
    func testDumbTerminalAndNonUTF8LocaleFailBeforeTouchingTheScreen() throws {
        let cases: [(String, [String: String], String)] = [
            ("TERM=dumb", ["TERM": "dumb"], "TERM"),
            ("LANG=C", ["LANG": "C", "LC_ALL": "C"], "UTF-8"),
        ]
        for (label, variables, mentions) in cases {
            let run = try play(steps: [.exit()], environment: variables)
            XCTAssertEqual(run.report.exit, 1, label)
            XCTAssertFalse(run.output.contains(0x1B), "\(label): no escape sequence at all: \(run.outputText.debugDescription)")
            let lines = run.outputText.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
            XCTAssertEqual(lines.count, 1, "\(label): \(lines)")
            XCTAssertTrue(run.outputText.hasPrefix("phosphor: ") && run.outputText.contains(mentions), "\(label): \(run.outputText)")
            XCTAssertTrue(run.report.echo && run.report.icanon, label)
        }
    }

    /// Hundreds of resizes a second (ten seconds of them in `make test-long`, two in `make test`),
    /// then Escape still opens the pause menu within a second.
    func testResizeStormLeavesTheGameResponsive() throws {
        let seconds = LongTests.size(slice: 2, full: 10)
        let run = try play(steps: [.wait("fps"), .storm(seconds: Double(seconds), sizes: [(30, 100), (24, 80), (50, 160), (13, 41)]),
                                   .resize(rows: 30, columns: 100), .sleep(0.2), .send(Self.escape),
                                   .wait("Paused", timeout: 1), .send(Self.end), .sleep(0.2), .send(Self.enter), .exit()])
        run.assertTerminalRestored("resize storm")
        let resizes = run.report.timings.count > 1 ? run.report.timings[1] : 0
        print("resize storm: \(Int(resizes)) resizes in \(seconds) s; pause menu after \(run.report.timings.last ?? -1) s")
        XCTAssertGreaterThan(resizes, Double(200 * seconds), "hundreds of resizes a second")
        XCTAssertEqual(run.report.exit, 0)
    }
}

/// Builds Tests/Fixtures/crashcore/crashcore.c with the system C compiler.
enum CrashCore {
    static func build(into folder: ScratchFolder) throws -> URL {
        try FixtureCore.build("crashcore/crashcore.c", into: folder.url, library: "crashcore.so")
    }
}
