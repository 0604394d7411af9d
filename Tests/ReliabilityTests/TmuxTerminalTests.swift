import Foundation
import XCTest

/// `phosphor play` in a real terminal (tmux): the terminal's own view of its modes after every
/// way out, `stty -a` in the same pane afterwards, suspend and resume, tiny windows, hostile names.
final class TmuxTerminalTests: XCTestCase {
    var home: ScratchFolder!
    var pane: TmuxPane?
    let gbc = Binaries.rom("gb/phosphor-test.gbc")

    override func setUpWithError() throws { home = try ScratchFolder("tmux") }
    override func tearDown() {
        pane?.stop()
        home.remove()
    }

    var environment: [String: String] {
        ["PHOSPHOR_HOME": home.url.path, "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
    }

    /// Runs phosphor, then prints its exit status and `stty -a` in the same pane.
    private func start(_ arguments: [String], columns: Int = 100, rows: Int = 30) throws -> TmuxPane {
        let command = TmuxPane.commandLine(arguments, environment: environment)
            + "; echo \"EXIT=$?\"; stty -a | tr ' ' '\\n' | grep -E '^-?(echo|icanon|isig)$' | tr '\\n' ' '; echo STTY-END; sleep 600"
        let pane = try TmuxPane(command: command, columns: columns, rows: rows)
        self.pane = pane
        return pane
    }

    private func assertLineModeBack(_ screen: String, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let end = screen.range(of: "STTY-END") else { return XCTFail("\(label): no stty output:\n\(screen)", file: file, line: line) }
        let lineText = screen[..<end.lowerBound].split(separator: "\n").last.map(String.init) ?? ""
        let flags = Set(lineText.split(separator: " ").map(String.init))
        XCTAssertEqual(flags, ["echo", "icanon", "isig"], "\(label): stty after exit: \(lineText)", file: file, line: line)
    }

    func testQuitFromThePauseMenuGivesTheTerminalBack() throws {
        let pane = try start(["play", "--no-audio", gbc.path])
        try pane.waitFor(text: "fps")
        XCTAssertEqual(try pane.format("alternate_on"), "1", "playing on the alternate screen")
        XCTAssertEqual(try pane.format("mouse_sgr_flag"), "1", "SGR mouse on while playing")
        try pane.send("Escape")
        let menu = try pane.waitFor("the pause menu", timeout: 5) { $0.contains("Paused") }
        if !menu.contains("Paused") {
            print(String(decoding: (try? Data(contentsOf: home.file("data/phosphor.log"))) ?? Data(), as: UTF8.self))
        }
        try pane.send("End")
        Thread.sleep(forTimeInterval: 0.2)
        try pane.send("Enter")
        let screen = try pane.waitFor(text: "STTY-END")
        XCTAssertTrue(screen.contains("EXIT=0"), screen)
        try pane.assertModesRestored("pause menu → Quit")
        assertLineModeBack(screen, "pause menu → Quit")
    }

    func testSignalsGiveTheTerminalBack() throws {
        for (label, deliver) in [("Ctrl-C", { (pane: TmuxPane, _: Int32) in try pane.send("C-c") }),
                                 ("SIGTERM", { (_: TmuxPane, pid: Int32) in kill(pid, SIGTERM) }),
                                 ("SIGHUP", { (_: TmuxPane, pid: Int32) in kill(pid, SIGHUP) })] {
            let pane = try start(["play", "--no-audio", gbc.path])
            try pane.waitFor(text: "fps")
            let pid = try XCTUnwrap(try pane.phosphorPID(), label)
            _ = try deliver(pane, pid)
            let screen = try pane.waitFor(text: "STTY-END")
            XCTAssertTrue(screen.contains("EXIT=0"), "\(label): \(screen)")
            try pane.assertModesRestored(label)
            assertLineModeBack(screen, label)
            pane.stop()
        }
    }

    /// Signals whose default action ends the process: each gives the terminal back and the
    /// process still dies of it (the shell sees 128 + N). SIGQUIT used to hang in Swift's
    /// interactive backtracer on the raw alternate screen; SIGUSR1 and SIGALRM left raw mode,
    /// the alternate screen and mouse reporting on.
    func testFatalSignalsGiveTheTerminalBack() throws {
        for (label, number) in [("SIGQUIT", SIGQUIT), ("SIGUSR1", SIGUSR1), ("SIGALRM", SIGALRM), ("SIGUSR2", SIGUSR2)] {
            let pane = try start(["play", "--no-audio", gbc.path])
            try pane.waitFor(text: "fps")
            let pid = try XCTUnwrap(try pane.phosphorPID(), label)
            kill(pid, number)
            let screen = try pane.waitFor(text: "STTY-END", timeout: 10)
            XCTAssertTrue(screen.contains("EXIT=\(128 + number)"), "\(label): \(screen)")
            try pane.assertModesRestored(label)
            assertLineModeBack(screen, label)
            pane.stop()
        }
    }

    /// SIGKILL runs no handler: the terminal stays raw. The next start must not save those raw
    /// modes as the ones to give back: it restores sane cooked modes on exit instead.
    func testStartAfterAKilledRunRestoresSaneModes() throws {
        let first = TmuxPane.commandLine(["play", "--no-audio", gbc.path], environment: environment)
        let command = first + "; echo \"KILLED=$?\"; " + first
            + "; echo \"EXIT=$?\"; stty -a | tr ' ' '\\n' | grep -E '^-?(echo|icanon|isig)$' | tr '\\n' ' '; echo STTY-END; sleep 600"
        let pane = try TmuxPane(command: command)
        self.pane = pane
        try pane.waitFor(text: "fps")
        let firstPID = try XCTUnwrap(try pane.phosphorPID())
        kill(firstPID, SIGKILL)
        try pane.waitFor("the second run") { _ in
            guard let pid = try? pane.phosphorPID() else { return false }
            return pid != firstPID
        }
        try pane.waitFor("the second run's picture") { $0.contains("fps") && !$0.contains("KILLED=") }
        try pane.send("C-c")
        let screen = try pane.waitFor(text: "STTY-END", timeout: 10)
        XCTAssertTrue(screen.contains("EXIT=0"), screen)
        assertLineModeBack(screen, "start after SIGKILL")
    }

    func testCrashingCoreGivesTheTerminalBack() throws {
        let core = try CrashCore.build(into: home)
        let command = "CRASHCORE_FRAMES=90 " + TmuxPane.commandLine(["play", "--no-audio", "--core", core.path, gbc.path],
                                                                     environment: environment)
            + "; echo \"EXIT=$?\"; stty -a | tr ' ' '\\n' | grep -E '^-?(echo|icanon|isig)$' | tr '\\n' ' '; echo STTY-END; sleep 600"
        let pane = try TmuxPane(command: command)
        self.pane = pane
        let screen = try pane.waitFor(text: "STTY-END", timeout: 15)
        XCTAssertTrue(screen.contains("EXIT=139"), "died of SIGSEGV: \(screen)")
        try pane.assertModesRestored("core crash")
        assertLineModeBack(screen, "core crash")
    }

    /// Ctrl-Z typed in the game: raw mode makes it byte 0x1A, not SIGTSTP, and it must stop
    /// Phosphor all the same, with the terminal given back; `fg` brings the picture back.
    func testCtrlZKeySuspendsAndResumes() throws {
        let pane = try TmuxPane(command: "env -i PATH=/usr/bin:/bin TERM=screen PS1='$ ' bash --norc --noprofile -i")
        self.pane = pane
        try pane.waitFor(text: "$")
        try pane.send(TmuxPane.commandLine(["play", "--no-audio", gbc.path], environment: environment), literal: true)
        try pane.send("Enter")
        try pane.waitFor(text: "fps")
        let pid = try XCTUnwrap(try pane.phosphorPID())
        try pane.send("C-z")
        try pane.waitFor(text: "Stopped")
        try pane.assertModesRestored("Ctrl-Z")
        let state = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8).split(separator: " ")[2]
        XCTAssertEqual(state, "T", "phosphor is stopped")
        try pane.send("fg", "Enter")
        try pane.waitFor("the game picture again") { _ in (try? pane.format("alternate_on")) == "1" }
        try pane.waitFor(text: "fps")
        try pane.send("C-c")
        try pane.waitFor("the main screen") { _ in (try? pane.format("alternate_on")) == "0" }
    }

    /// Ctrl-Z from outside (SIGTSTP) under a job-control shell: the shell gets a normal terminal
    /// back, and `fg` brings the game picture back.
    func testSuspendAndResume() throws {
        let pane = try TmuxPane(command: "env -i PATH=/usr/bin:/bin TERM=screen PS1='$ ' bash --norc --noprofile -i")
        self.pane = pane
        try pane.waitFor(text: "$")
        try pane.send(TmuxPane.commandLine(["play", "--no-audio", gbc.path], environment: environment), literal: true)
        try pane.send("Enter")
        try pane.waitFor(text: "fps")
        let pid = try XCTUnwrap(try pane.phosphorPID())
        kill(pid, SIGTSTP)
        try pane.waitFor(text: "Stopped")
        try pane.assertModesRestored("suspended")
        let state = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8).split(separator: " ")[2]
        XCTAssertEqual(state, "T", "phosphor is stopped")
        try pane.send("fg", "Enter")
        try pane.waitFor("the game picture again") { _ in (try? pane.format("alternate_on")) == "1" }
        try pane.waitFor(text: "fps")
        try pane.waitFor("half blocks of the picture and the status bar", escapes: true) {
            ($0.contains("▀") || $0.contains("▄")) && $0.contains("fps")
        }
        XCTAssertEqual(try pane.format("mouse_sgr_flag"), "1", "mouse reporting back on after resume")
        try pane.send("C-c")
        // Keys typed before phosphor has exited are flushed with its tty input: wait for the shell.
        try pane.waitFor("the main screen") { _ in (try? pane.format("alternate_on")) == "0" }
        Thread.sleep(forTimeInterval: 0.5)
        try pane.send("echo EXIT=$?", "Enter")
        try pane.waitFor(text: "EXIT=0")
        try pane.assertModesRestored("after resume and Ctrl-C")
    }

    /// Below 40×12: a message, no crash, and the game pauses (a 120-frame run doesn't finish
    /// while the window is too small; it does once the window grows).
    func testTooSmallTerminalShowsAMessageAndPauses() throws {
        let pane = try start(["play", "--no-audio", "--frames", "120", gbc.path], columns: 30, rows: 10)
        try pane.waitFor(text: "small")
        Thread.sleep(forTimeInterval: 3)  // 120 frames take 2 s at 60 fps: a game that ran on would be done
        let screen = try pane.capture()
        XCTAssertFalse(screen.contains("EXIT="), "the game paused while too small:\n\(screen)")
        try pane.resize(columns: 100, rows: 30)
        let after = try pane.waitFor(text: "STTY-END", timeout: 15)
        XCTAssertTrue(after.contains("EXIT=0"), after)
    }
}
