import Foundation
import TestSupport
import XCTest

/// Issue 11, item 4: one running copy per game, through SIGKILL. A real `run --headless` holds the
/// game; a second copy is refused in one line naming the first's pid; after the first is
/// SIGKILLed at a random (seeded) moment, the next copy takes the stale lock over and runs.
final class GameLockKillTrialTests: XCTestCase {
    func testSecondCopyIsRefusedAndAKilledCopysLockIsTakenOver() throws {
        let home = try ScratchFolder("lock-kill")
        defer { home.remove() }
        let rom = Binaries.rom("gb/phosphor-test.gbc")
        let lockFile = home.file("data/states/gbc/phosphor-test.lock")
        let environment = ["PHOSPHOR_HOME": home.url.path]
        var generator = SeededGenerator(seed: 0x5EED_0013)
        let trials = LongTests.size(slice: 8, full: 200)
        var refused = 0
        for trial in 0..<trials {
            let first = try ChildProcess(Binaries.phosphor, ["run", "--headless", "--frames", "100000000", rom.path],
                                         environment: environment)
            // The lock is taken once the file names the first copy's pid.
            let deadline = Date().addingTimeInterval(20)
            while (try? String(contentsOf: lockFile, encoding: .utf8)) != "\(first.pid)\n", Date() < deadline { usleep(2_000) }
            let second = try ChildProcess(Binaries.phosphor, ["run", "--headless", "--frames", "5", rom.path],
                                          environment: environment).finish()
            XCTAssertNotEqual(second.status, 0, "trial \(trial): the second copy ran beside the first")
            XCTAssertTrue(second.error.contains("pid \(first.pid)"), "trial \(trial): \(second.error)")
            XCTAssertEqual(second.error.trimmingCharacters(in: .newlines).split(separator: "\n").count, 1, "trial \(trial): one line")
            if second.status != 0 { refused += 1 }
            usleep(UInt32.random(in: 0...50_000, using: &generator))
            first.kill()
            let third = try ChildProcess(Binaries.phosphor, ["run", "--headless", "--frames", "5", rom.path],
                                         environment: environment).finish()
            XCTAssertEqual(third.status, 0, "trial \(trial): the killed copy's lock was not taken over: \(third.error)")
            if testRun?.failureCount ?? 0 > 5 { break }
        }
        print("game lock kill trials: \(trials), second copies refused: \(refused)")
    }
}
