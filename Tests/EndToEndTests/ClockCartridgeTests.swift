import Foundation
import TestSupport
import XCTest

/// The real-time clock of an MBC3 cartridge (`RETRO_MEMORY_RTC`) kept in `<game>.rtc` beside the
/// `.srm`, with gambatte and the project's clock cartridge (`Tests/Fixtures/clockcart/phosphor-clock.gb`), which
/// shows the clock it reads and copies it into its battery RAM (issue 16).
final class ClockCartridgeTests: XCTestCase {
    var phosphor: PhosphorProcess!

    override func setUpWithError() throws { phosphor = try PhosphorProcess() }
    override func tearDown() { phosphor.cleanUp() }

    let clockCartridge = PhosphorProcess.packageRoot.appendingPathComponent("Tests/Fixtures/clockcart/phosphor-clock.gb")
    var saves: URL { phosphor.home.appendingPathComponent("data/saves/gb") }

    /// Runs the cartridge headless and returns the clock it read on its last frame, in seconds
    /// (from the battery RAM it wrote: seconds, minutes, hours, day low, day high).
    private func clockAfterRun() throws -> Int {
        let outcome = try phosphor.run(["run", "--headless", "--frames", "30", clockCartridge.path])
        XCTAssertEqual(outcome.status, 0, "stderr: \(outcome.standardError)")
        let ram = [UInt8](try Data(contentsOf: saves.appendingPathComponent("phosphor-clock.srm")))
        XCTAssertGreaterThanOrEqual(ram.count, 5)
        let days = Int(ram[3]) | Int(ram[4] & 1) << 8
        return Int(ram[0] & 0x3F) + 60 * Int(ram[1] & 0x3F) + 3600 * Int(ram[2] & 0x1F) + 86_400 * days
    }

    func testClockKeepsRunningAcrossQuitAndRestartThroughTheRTCFile() throws {
        let first = try clockAfterRun()
        XCTAssertLessThanOrEqual(first, 1, "a fresh cartridge's clock starts at zero")
        let rtc = saves.appendingPathComponent("phosphor-clock.rtc")
        let written = try Data(contentsOf: rtc)
        XCTAssertFalse(written.isEmpty, "the clock was written on quit")

        // gambatte's clock follows the wall clock: three seconds later (the game not running),
        // the restored clock shows them, as a real cartridge's battery-powered clock would.
        Thread.sleep(forTimeInterval: 3)
        let second = try clockAfterRun()
        XCTAssertGreaterThanOrEqual(second, first + 3, "the clock went on from where it was")
        XCTAssertLessThan(second, first + 30)

        // Without the file the clock starts over: it is the .rtc that carried it.
        try FileManager.default.removeItem(at: rtc)
        XCTAssertLessThanOrEqual(try clockAfterRun(), 1, "no .rtc, a fresh clock")
    }

    func testWrongSizeClockFileIsKeptAsideNotOverwritten() throws {
        try FileManager.default.createDirectory(at: saves, withIntermediateDirectories: true)
        let rtc = saves.appendingPathComponent("phosphor-clock.rtc")
        let junk = Data(repeating: 0x5A, count: 3)
        try junk.write(to: rtc)
        _ = try clockAfterRun()
        let aside = try FileManager.default.contentsOfDirectory(atPath: saves.path)
            .filter { $0.hasPrefix("phosphor-clock.rtc.wrong-size-") }
        XCTAssertEqual(aside.count, 1, "the unusable file is kept under another name")
        XCTAssertEqual(try Data(contentsOf: saves.appendingPathComponent(aside[0])), junk)
        XCTAssertTrue(FileManager.default.fileExists(atPath: rtc.path), "a fresh clock was written")
    }
}
