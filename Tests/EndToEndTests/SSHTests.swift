import Foundation
import Glibc
import TestSupport
import XCTest

/// `phosphor play` on the far side of a real SSH connection (an sshd of the test's own on
/// 127.0.0.1, the ssh client in tmux): the picture, keys and the pause menu travel through the
/// hop, quitting gives the terminal back, and a dropped connection still writes the battery save.
final class SSHTests: XCTestCase {
    var phosphor: PhosphorProcess!
    var server: LoopbackSSHServer!
    var tmux: TmuxSession?

    /// One sshd for the class: making its keys, starting it and checking a login takes about 0.7 s,
    /// and every test makes (and ends or drops) a connection of its own anyway.
    nonisolated(unsafe) private static var sharedServer: LoopbackSSHServer?

    override func setUpWithError() throws {
        phosphor = try PhosphorProcess()
        if Self.sharedServer == nil { Self.sharedServer = try LoopbackSSHServer() }
        server = Self.sharedServer
    }

    override func tearDown() {
        tmux?.stop()  // ends the ssh client first, so sshd ends the session
        // A phosphor that failed to see the hangup would play on, orphaned, for good.
        if phosphor != nil, let leftover = phosphorPID() { kill(leftover, SIGKILL) }
        phosphor.cleanUp()
    }

    override class func tearDown() {
        sharedServer?.stop()
        sharedServer = nil
        super.tearDown()
    }

    /// Starts `phosphor play ROM` over ssh in tmux; `remoteCommand` wraps phosphor's command line
    /// (the remote shell gets none of this process's environment, so every variable is explicit).
    private func playOverSSH(_ rom: String, remoteCommand: (String) -> String = { $0 }) throws -> TmuxSession {
        let phosphorLine = TmuxSession.phosphorCommandLine(["play", "--no-audio", PhosphorProcess.rom(rom).path],
                                                           home: phosphor.home)
        let session = try TmuxSession(command: server.sshCommandLine(running: remoteCommand(phosphorLine)),
                                      home: phosphor.home)
        tmux = session
        return session
    }

    func testPlayKeysPauseMenuAndQuitThroughSSH() throws {
        let session = try playOverSSH("nes/phosphor-test.nes")
        // The whole first screen, in one capture: a capture can catch a half-drawn screen.
        try session.waitFor("the half-block picture in colour and the status bar", timeout: 20, escapes: true) {
            Self.showsPicture($0)
                && $0.contains("NES") && $0.contains("fps")
        }
        XCTAssertEqual(try session.format("alternate_on"), "1", "playing on the alternate screen")
        let idle = try session.settledPicture()
        // A: the cartridge's A box lights up (held as autorepeat holds it: a tap is four frames).
        try session.holdUntilPictureChanges("x", from: idle, "the A box to react through the hop")
        try session.waitForPicture("the picture to return after the key", equal: true, to: idle)
        try session.send("Escape")
        try session.waitFor(text: "Paused")
        try session.send("End")
        try session.send("Enter")
        XCTAssertEqual(try session.waitForExit(timeout: 20), 0, "ssh passes on phosphor's exit status")
        try session.assertModesRestored("quit over ssh")
        let auto = phosphor.home.appendingPathComponent("data/states/nes/phosphor-test.state.auto")
        XCTAssertTrue(FileManager.default.fileExists(atPath: auto.path), "the automatic state is written on the server side")
    }

    /// The client dies (as when the network goes): sshd closes the pty and the kernel sends SIGHUP
    /// to phosphor, the remote session's leader. Phosphor quits on whichever comes first, the
    /// signal or end of file from the dead terminal, and writes the battery save.
    func testDroppedConnectionEndsTheGameAndWritesTheBatterySave() throws {
        let session = try playOverSSH("gb/phosphor-test.gbc")
        let game = try dropConnectionWhilePlaying(session)
        let reasons = ["signal \(SIGHUP): quitting", "the terminal hung up: quitting"]
        waitForLog("phosphor to see the hangup") { log in reasons.contains { log.contains($0) } }
        XCTAssertTrue(poll(timeout: 15, read: { isRunning(game) ? "" : "ended" }, until: { !$0.isEmpty }).matched,
                      "phosphor ended after the hangup")
        try assertBatterySaveWritten()
    }

    /// The remote shell traps HUP and outlives the hangup, so no SIGHUP reaches phosphor: the dead
    /// terminal alone (end of file on reading it) must end the game, cleanly, with the battery save.
    func testDroppedConnectionWithoutSIGHUPStillEndsTheGame() throws {
        let exitFile = phosphor.home.appendingPathComponent("remote-exit-status")
        let session = try playOverSSH("gb/phosphor-test.gbc") {
            "trap : HUP; \($0); echo $? > \(TmuxSession.quote(exitFile.path))"
        }
        _ = try dropConnectionWhilePlaying(session)
        let status = poll(timeout: 15, read: { (try? String(contentsOf: exitFile, encoding: .utf8)) ?? "" }, until: { !$0.isEmpty })
        XCTAssertTrue(status.matched, "phosphor ended after the hangup; sshd log:\n\(server.logText)")
        XCTAssertEqual(status.last.trimmingCharacters(in: .whitespacesAndNewlines), "0", "a clean exit")
        let log = waitForLog("phosphor to see the dead terminal") { $0.contains("the terminal hung up: quitting") }
        XCTAssertFalse(log.contains("signal \(SIGHUP)"), "no SIGHUP reached phosphor: the test checks the other way out")
        try assertBatterySaveWritten()
    }

    private var srm: URL { phosphor.home.appendingPathComponent("data/saves/gbc/phosphor-test.srm") }

    /// Waits for the game, then SIGKILLs the ssh client. Returns the remote phosphor's pid.
    private func dropConnectionWhilePlaying(_ session: TmuxSession) throws -> pid_t {
        try session.waitFor("the game running over ssh", timeout: 20) { $0.contains("fps") && $0.contains("▀") }
        Thread.sleep(forTimeInterval: 0.5)
        // The periodic battery write comes every ~3 s of play: before that only the quit path writes it.
        XCTAssertFalse(FileManager.default.fileExists(atPath: srm.path), "no battery save yet before the drop")
        let game = try XCTUnwrap(phosphorPID(), "the remote phosphor")
        let client = try XCTUnwrap(try sshClientPID(in: session), "the ssh client in the pane")
        XCTAssertEqual(kill(client, SIGKILL), 0)
        return game
    }

    private func assertBatterySaveWritten(file: StaticString = #filePath, line: UInt = #line) throws {
        let bytes = try [UInt8](Data(contentsOf: srm))
        XCTAssertEqual(bytes.count, 8192, "the battery save is written", file: file, line: line)
        XCTAssertEqual(Array(bytes.prefix(4)), Array("PHOS".utf8), "the cartridge's SRAM", file: file, line: line)
    }

    /// phosphor.log once `predicate` holds for it; fails (showing the log) if it does not within 15 s.
    @discardableResult
    private func waitForLog(_ description: String, file: StaticString = #filePath, line: UInt = #line,
                            _ predicate: (String) -> Bool) -> String {
        let log = phosphor.home.appendingPathComponent("data/phosphor.log")
        let result = poll(timeout: 15, read: { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }, until: predicate)
        if !result.matched { XCTFail("timed out waiting for \(description); log:\n\(result.last)", file: file, line: line) }
        return result.last
    }

    /// The phosphor playing for this test: the process whose environment has this test's PHOSPHOR_HOME.
    private func phosphorPID() -> pid_t? {
        let marker = Array("PHOSPHOR_HOME=\(phosphor.home.path)".utf8)
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { pid_t($0) } ?? []
        return pids.first { pid in
            guard (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.hasPrefix("phosphor") == true,
                  let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
            return environment.split(separator: 0).contains { Array($0) == marker }
        }
    }

    /// Alive and not a zombie (a process whose parent went first may wait a while to be reaped).
    private func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards) else { return false }
        return !["Z", "X"].contains(stat[afterName.upperBound...].prefix(1))
    }

    /// The `ssh` process under the pane's shell.
    private func sshClientPID(in session: TmuxSession) throws -> pid_t? {
        guard let shell = try session.panePID() else { return nil }
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").compactMap { pid_t($0) }.first { pid in
            (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.hasPrefix("ssh") == true
        }
    }

    /// A coloured half-block picture: over 100 cells drawn as `▀`, `▄` or `█` (flat areas are spaces).
    static func showsPicture(_ screen: String) -> Bool {
        screen.contains("\u{1B}[38;5;") && ["▀", "▄", "█"].map { screen.components(separatedBy: $0).count - 1 }.reduce(0, +) > 100
    }
}
