import Foundation
import TestSupport
import XCTest

/// Issue 11, item 1, with real kills: `phosphor play --continue` after a SIGKILL must not roll the
/// battery save back. The Game Boy test cartridge adds one to a counter in battery RAM at every
/// power-on (bytes 4–5 of the `.srm`, little-endian, after the "PHOS" signature), so a rolled-back
/// save shows as a lower count. Each trial, in its own PHOSPHOR_HOME and a pseudo-terminal:
/// (a) play and quit cleanly (SIGTERM: the automatic state and the `.srm` are written);
/// (b) play again (the cartridge boots: the count goes up), wait until that count is in the `.srm`
///     on disk (written by the pause menu's flush or by the periodic write), then SIGKILL at a
///     random (seeded) moment;
/// (c) `play --continue`, run a moment, quit cleanly: the count must not be lower than after (b),
///     and the log and the screen say the automatic state was skipped.
final class ContinueKillTrialTests: XCTestCase {
    private let rom = Binaries.rom("gb/phosphor-test.gbc")
    private let skipNotice = "the battery save is newer than the automatic state"

    private func makeHome(_ label: String) throws -> ScratchFolder {
        // The .srm and the state are written with fsync: a tmpfs (where there is one) makes that free.
        let shm = URL(fileURLWithPath: "/dev/shm")
        return try ScratchFolder(label, base: FileManager.default.isWritableFile(atPath: shm.path)
                                 ? shm : FileManager.default.temporaryDirectory)
    }

    private func environment(_ home: ScratchFolder) -> [String: String] {
        ["PHOSPHOR_HOME": home.url.path, "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
    }

    private func play(_ arguments: [String], home: ScratchFolder, steps: [PTYRun.Step]) throws -> PTYRun {
        try PTYRun([Binaries.phosphor.path] + arguments + ["--no-audio", rom.path], environment: environment(home),
                   steps: steps)
    }

    private func srm(_ home: ScratchFolder) -> URL { home.file("data/saves/gbc/phosphor-test.srm") }

    /// The cartridge's boot count in the `.srm` (nil without a whole file carrying the signature).
    private func bootCount(_ home: ScratchFolder) -> Int? {
        guard let bytes = try? [UInt8](Data(contentsOf: srm(home))), bytes.count == 8192,
              Array(bytes.prefix(4)) == Array("PHOS".utf8) else { return nil }
        return Int(bytes[4]) | Int(bytes[5]) << 8
    }

    private func log(_ home: ScratchFolder) -> String {
        (try? String(contentsOf: home.file("data/phosphor.log"), encoding: .utf8)) ?? ""
    }

    /// Plays and quits with SIGTERM (a clean quit: automatic state, then `.srm`).
    private func playAndQuit(_ arguments: [String], home: ScratchFolder, seconds: Double) throws -> PTYRun {
        try play(arguments, home: home, steps: [.wait("fps", timeout: 20), .sleep(seconds), .signal("TERM"), .exit()])
    }

    /// Without a kill, `--continue` (both spellings) resumes the automatic state: the cartridge does
    /// not boot again, so the count stays where the clean quit left it, and nothing is skipped.
    func testContinueAfterACleanQuitResumesWithoutABoot() throws {
        let home = try makeHome("continue-clean")
        defer { home.remove() }
        let first = try playAndQuit(["play"], home: home, seconds: 0.3)
        XCTAssertEqual(first.report.exit, 0, "\(first.report.failure ?? "")")
        XCTAssertEqual(bootCount(home), 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.file("data/states/gbc/phosphor-test.state.auto").path))
        for arguments in [["play", "--continue"], ["--continue"]] {
            let resumed = try playAndQuit(arguments, home: home, seconds: 0.3)
            XCTAssertEqual(resumed.report.exit, 0, "\(arguments): \(resumed.report.failure ?? "")")
            XCTAssertEqual(bootCount(home), 1, "\(arguments): resumed from the automatic state, no new boot")
        }
        // Without --continue the cartridge boots again.
        let fresh = try playAndQuit(["play"], home: home, seconds: 0.3)
        XCTAssertEqual(fresh.report.exit, 0)
        XCTAssertEqual(bootCount(home), 2)
        XCTAssertFalse(log(home).contains(skipNotice), "nothing was skipped")
    }

    /// 200 trials under PHOSPHOR_LONG_TESTS=1, the first 4 of the same seeded sequence by default (one of them waits for the periodic write).
    func testContinueAfterSIGKILLNeverRollsTheBatterySaveBack() throws {
        var generator = SeededGenerator(seed: 0x5EED_0021)
        let trials = LongTests.size(slice: 4, full: 200)
        var outcomes: [String: Int] = [:]
        let started = Date()
        for trial in 0..<trials {
            let home = try makeHome("continue-kill")
            defer { home.remove() }

            // (a) A clean quit: the automatic state records the .srm it was taken with.
            let first = try playAndQuit(["play"], home: home, seconds: 0.3)
            XCTAssertEqual(first.report.exit, 0, "trial \(trial) (a): \(first.report.failure ?? "")")
            guard let quitCount = bootCount(home) else {
                XCTFail("trial \(trial) (a): no battery save after a clean quit")
                continue
            }

            // (b) Boots again; once the higher count is on disk, SIGKILL at a random moment.
            let wanted = quitCount + 1
            // The status bar is up before the first frame: give the cartridge a few frames to boot.
            var steps: [PTYRun.Step] = [.wait("fps", timeout: 20), .sleep(0.3)]
            // Mostly the pause menu's flush (quick); one trial in four waits for the periodic write.
            let periodic = trial % 4 == 3
            if !periodic { steps += [.send(TerminalRestoreTests.escape), .wait("Paused")] }
            steps.append(.waitFile(srm(home).path, offset: 4, bytes: [UInt8(wanted & 0xFF), UInt8(wanted >> 8)],
                                   timeout: 15))
            let resume = !periodic && Bool.random(using: &generator)
            if resume { steps.append(.send(TerminalRestoreTests.escape)) }
            steps += [.sleep(Double.random(in: 0...0.8, using: &generator)), .signal("KILL"), .exit()]
            outcomes[periodic ? "periodic write" : resume ? "pause flush, killed playing" : "pause flush, killed paused",
                     default: 0] += 1
            let killed = try play(["play"], home: home, steps: steps)
            XCTAssertNil(killed.report.failure, "trial \(trial) (b): \(killed.report.failure ?? "")")
            XCTAssertEqual(killed.report.signal, 9, "trial \(trial) (b): killed")
            let killedCount = bootCount(home) ?? -1
            XCTAssertEqual(killedCount, wanted, "trial \(trial) (b): the newer count is on disk")

            // (c) Continue, run a moment, quit cleanly.
            let resumed = try play(["play", "--continue"], home: home,
                                   steps: [.wait("fps", timeout: 20), .sleep(0.4), .signal("TERM"), .exit()])
            XCTAssertNil(resumed.report.failure, "trial \(trial) (c): \(resumed.report.failure ?? "")")
            // The start notice is on the status bar with the first picture.
            XCTAssertTrue(resumed.outputText.contains("battery save is newer"), "trial \(trial) (c): the screen says so")
            XCTAssertEqual(resumed.report.exit, 0, "trial \(trial) (c)")
            let finalCount = bootCount(home) ?? -1
            XCTAssertGreaterThanOrEqual(finalCount, killedCount,
                                        "trial \(trial): the boot count went \(killedCount) → \(finalCount) after Continue")
            XCTAssertTrue(log(home).contains(skipNotice), "trial \(trial): the log says the automatic state was skipped")
            outcomes[finalCount > killedCount ? "booted from the .srm" : finalCount == killedCount ? "count kept" : "rolled back",
                     default: 0] += 1
            if testRun?.failureCount ?? 0 > 5 { break }
        }
        print("continue kill trials: \(trials) in \(String(format: "%.1f", Date().timeIntervalSince(started))) s, outcomes: \(outcomes)")
    }
}
