import Emulation
import Foundation
import PhosphorKit
import Terminal
import TestSupport
import XCTest
@testable import Shell

/// The whole interactive app inside a test: a `HeadlessTerminal` (scripted input, a manual
/// clock, every byte recorded), real ncurses drawing into it, and a `ScreenModel` reading the
/// bytes back as the user's terminal would show them. A test types, steps the loop until the
/// screen shows what it waits for, and asserts on text, colours and files.
///
/// Only one harness may be alive at a time (ncurses has one screen per process); call `finish()`.
final class AppHarness {
    let home: TemporaryFolder
    let paths: PhosphorPaths
    let services: AppServices
    let terminal: HeadlessTerminal
    let app: PhosphorApp
    let screen: ScreenModel
    private var readOffset = 0

    init(columns: Int = 100, rows: Int = 32, terminalType: String = "xterm-256color", label: String = "app",
         catalog: CoreCatalog? = nil, environment: [String: String] = [:],
         configure: (PhosphorPaths) throws -> Void = { _ in }) throws {
        home = try TemporaryFolder(label)
        paths = PhosphorPaths(config: home.url.appendingPathComponent("config"), data: home.url.appendingPathComponent("data"))
        try paths.createFolders()
        try configure(paths)
        services = AppServices(paths: paths, catalog: catalog)
        services.overrides.noAudio = true
        services.overrides.colorMode = "24bit"
        terminal = try HeadlessTerminal(columns: columns, rows: rows, terminalType: terminalType)
        app = PhosphorApp(services: services, terminal: terminal)
        // Not the test runner's own (it may run inside screen or tmux, or set NO_COLOR).
        services.environment = environment
        screen = ScreenModel(columns: columns, rows: rows)
    }

    /// A dark terminal background (OSC 11 reply), as most terminals have.
    static let darkBackground = "rgb:0000/0000/0000"
    static let lightBackground = "rgb:ffff/ffff/ffff"

    /// Answers the start-up queries as a terminal without the kitty protocol does (DA1 only),
    /// or as one with it, then opens the first screen. `background`: the OSC 11 answer (nil: the
    /// terminal does not answer it). `answersKeyboard` false: no DA1 in time (the test sends it late).
    /// `graphicsReplies`: the answers to the pixel-graphics queries, sent before DA1.
    func start(kittyKeyboard: Bool = false, background: String? = AppHarness.darkBackground, answersKeyboard: Bool = true,
               graphicsReplies: String = "", _ first: (PhosphorApp) throws -> Screen) throws {
        if let background { terminal.send("\u{1B}]11;\(background)\u{1B}\\") }
        terminal.send(graphicsReplies)
        if !answersKeyboard {
            // Nothing else in time: the negotiation gives up at its deadline.
        } else if kittyKeyboard {
            terminal.send("\u{1B}[?0u\u{1B}[?62c")
        } else {
            terminal.send("\u{1B}[?62c")
        }
        // The second round (after the push) of a kitty terminal: the flags took.
        if kittyKeyboard && answersKeyboard { terminal.send("\u{1B}[?11u\u{1B}[?62c") }
        XCTAssertTrue(app.start(first), services.exitMessage ?? "the first screen failed")
    }

    /// Starts the browser on a library of the bundled cartridges.
    func startBrowser(background: String? = AppHarness.darkBackground) throws {
        try start(background: background) { _ in try LibraryScreen(services: self.services) }
    }

    /// Types text or escape sequences (they arrive at the next step).
    func type(_ text: String) { terminal.send(text) }

    /// Runs the app loop until `condition` holds for the screen (or fails after `steps` turns).
    /// Each turn advances the manual clock by what the app asked to sleep; the core thread, if a
    /// game runs, gets about a millisecond of real time per turn.
    @discardableResult
    func step(until description: String, steps: Int = 3000, file: StaticString = #filePath, line: UInt = #line,
              _ condition: (ScreenModel) -> Bool) -> Bool {
        for _ in 0..<steps {
            app.step()
            refreshScreen()
            if condition(screen) { return true }
            if app.quitRequested { break }
        }
        if ProcessInfo.processInfo.environment["PHOSPHOR_DUMP"] != nil {
            try? Data(terminal.recorded).write(to: URL(fileURLWithPath: "/tmp/harness-output.bin"))
        }
        XCTFail("never saw \(description) in \(steps) steps (\(terminal.recorded.count) bytes written); the screen was:\n\(screen.text)",
                file: file, line: line)
        return false
    }

    /// Steps until the text is on screen.
    @discardableResult
    func step(untilText text: String, steps: Int = 3000, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        step(until: "'\(text)'", steps: steps, file: file, line: line) { $0.contains(text) }
    }

    /// A few turns of the loop (to let a key take effect where nothing visible is waited for).
    func run(steps: Int) {
        for _ in 0..<steps where !app.quitRequested {
            app.step()
            refreshScreen()
        }
    }

    private func refreshScreen() {
        let bytes = terminal.output(since: readOffset)
        readOffset += bytes.count
        if !bytes.isEmpty { screen.feed(Array(bytes)) }
    }

    /// Closes every screen (the game writes its saves) and gives the terminal back.
    func finish() {
        app.finish()
        terminal.restore()
        home.remove()
    }
}
