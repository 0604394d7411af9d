import TestSupport
import Foundation
import XCTest

/// Nothing torn: SIGKILL at random (seeded) moments while files are being written; the file on
/// disk is always one complete version, and crash leftovers don't pile up.
final class KillTrialTests: XCTestCase {
    /// Checks one probe file: "ATOM", 'A' or 'B', length, FNV-1a of the payload, payload of one byte.
    /// Returns the version letter, or nil (with a failure) when the file is torn or foreign.
    private func checkProbeFile(_ bytes: [UInt8], payloadSize: Int, trial: Int) -> Character? {
        guard bytes.count == 16 + payloadSize, Array(bytes.prefix(4)) == Array("ATOM".utf8) else {
            XCTFail("trial \(trial): file is \(bytes.count) bytes, expected \(16 + payloadSize) with the ATOM header")
            return nil
        }
        func word(_ offset: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) } }
        let payload = bytes[16...]
        var hash: UInt32 = 2_166_136_261
        for byte in payload { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let fill: UInt8 = bytes[4] == UInt8(ascii: "A") ? 0xAA : 0xBB
        guard Int(word(8)) == payloadSize, word(12) == hash, payload.allSatisfy({ $0 == fill }) else {
            XCTFail("trial \(trial): header and payload disagree (torn write)")
            return nil
        }
        return Character(UnicodeScalar(bytes[4]))
    }

    /// SIGKILLs of a process that rewrites a 256 KiB file with AtomicFile.write in a loop: 200 in
    /// `make test-long`, the first 40 of the same seeded sequence in `make test` (each trial
    /// starts a process, about a quarter of a second; 40 still land in both versions and mid-write).
    func testSIGKILLDuringAtomicWritesNeverLeavesATornFile() throws {
        // A SIGKILL leaves the page cache alone, so the file system doesn't change the outcome; a
        // tmpfs (where there is one) only makes fsync free and the trials quick.
        let shm = URL(fileURLWithPath: "/dev/shm")
        let folder = try ScratchFolder("atomic-kill", base: FileManager.default.isWritableFile(atPath: shm.path)
                                        ? shm : FileManager.default.temporaryDirectory)
        defer { folder.remove() }
        let target = folder.file("game.state1")
        let payloadSize = 256 * 1024
        var generator = SeededGenerator(seed: 0x5EED_0001)
        var seen: [Character: Int] = [:]
        var staleSeen = 0
        let trials = LongTests.size(slice: 40, full: 200)
        for trial in 0..<trials {
            let probe = try ChildProcess(Binaries.probe("AtomicWriteProbe"), [target.path, "\(payloadSize)"])
            XCTAssertTrue(probe.waitForLine("ready"), "trial \(trial): the probe wrote its first version")
            // A random moment within the next few write cycles (a cycle is a few milliseconds).
            usleep(UInt32.random(in: 0...15_000, using: &generator))
            probe.kill()
            let bytes = try [UInt8](Data(contentsOf: target))
            if let version = checkProbeFile(bytes, payloadSize: payloadSize, trial: trial) { seen[version, default: 0] += 1 }
            // At most the killed writer's own temporary is left (older ones are cleaned by the next write).
            let leftovers = folder.names().filter { $0 != "game.state1" }
            XCTAssertLessThanOrEqual(leftovers.count, 1, "trial \(trial): \(leftovers)")
            XCTAssertTrue(leftovers.allSatisfy { $0.hasPrefix(".game.state1.tmp-\(probe.pid)-") }, "\(leftovers)")
            staleSeen += leftovers.count
            if testRun?.failureCount ?? 0 > 5 { break }
        }
        print("atomic kill trials: \(trials), versions on disk: \(seen), kills that left a temporary: \(staleSeen)")
        XCTAssertEqual(seen.values.reduce(0, +), trials)
        XCTAssertGreaterThan(seen["A"] ?? 0, 0, "kills landed while either version was current")
        XCTAssertGreaterThan(seen["B"] ?? 0, 0, "kills landed while either version was current")
        XCTAssertGreaterThan(staleSeen, 0, "some kills landed mid-write (between create and rename)")
        // One clean write removes what the killed writers left.
        let probe = try ChildProcess(Binaries.probe("AtomicWriteProbe"), [target.path, "16"])
        XCTAssertTrue(probe.waitForLine("ready"))
        probe.kill()
        XCTAssertLessThanOrEqual(folder.names().count, 2, "\(folder.names())")
    }

    /// A real `phosphor run --headless` on the GB cartridge (it bumps a boot counter in battery RAM
    /// and writes the .srm ~3 emulated seconds in and on quit, plus a save state) killed at random
    /// moments: the .srm is always absent or exactly 8192 bytes with the cartridge's signature, the
    /// boot counter never goes backwards, and the state file is absent or whole. 40 kills in
    /// `make test-long`, the first 16 in `make test` (they include kills before the first write).
    func testSIGKILLDuringHeadlessRunsLeavesWholeSaves() throws {
        let home = try ScratchFolder("headless-kill")
        defer { home.remove() }
        let rom = Binaries.rom("gb/phosphor-test.gbc")
        let srm = home.file("data/saves/gbc/phosphor-test.srm")
        let state = home.file("out.state")
        // A reference state of the same frame count tells the size a whole state has.
        let reference = try ChildProcess(Binaries.phosphor, ["run", "--headless", "--frames", "20", "--state-out",
                                                             home.file("reference.state").path, "--state-at", "10", rom.path],
                                         environment: ["PHOSPHOR_HOME": home.url.path])
        XCTAssertEqual(reference.finish().status, 0)
        let stateSize = try Data(contentsOf: home.file("reference.state")).count
        XCTAssertGreaterThan(stateSize, 1000)
        try FileManager.default.removeItem(at: srm)

        var generator = SeededGenerator(seed: 0x5EED_0002)
        var lastCounter = 0
        var outcomes: [String: Int] = [:]
        let trials = LongTests.size(slice: 16, full: 40)
        for trial in 0..<trials {
            let stateAt = Int.random(in: 100...500, using: &generator)
            let child = try ChildProcess(Binaries.phosphor, ["run", "--headless", "--frames", "600", "--state-out", state.path,
                                                             "--state-at", "\(stateAt)", rom.path],
                                         environment: ["PHOSPHOR_HOME": home.url.path])
            usleep(UInt32.random(in: 20_000...450_000, using: &generator))
            child.kill()
            if let bytes = try? [UInt8](Data(contentsOf: srm)) {
                XCTAssertEqual(bytes.count, 8192, "trial \(trial): .srm is whole")
                XCTAssertEqual(Array(bytes.prefix(4)), Array("PHOS".utf8), "trial \(trial): signature")
                let counter = bytes.count >= 6 ? Int(bytes[4]) | Int(bytes[5]) << 8 : 0
                XCTAssertGreaterThanOrEqual(counter, lastCounter, "trial \(trial): the boot counter never goes back")
                outcomes[counter > lastCounter ? "srm advanced" : "srm unchanged", default: 0] += 1
                lastCounter = counter
            } else {
                outcomes["srm absent", default: 0] += 1
            }
            if let bytes = try? Data(contentsOf: state) {
                XCTAssertEqual(bytes.count, stateSize, "trial \(trial): the state file is whole")
                outcomes["state present", default: 0] += 1
                try FileManager.default.removeItem(at: state)
            }
            let leftovers = home.names(in: "data/saves/gbc").filter { !$0.hasSuffix(".srm") }
            XCTAssertLessThanOrEqual(leftovers.count, 1, "trial \(trial): \(leftovers)")
        }
        print("headless kill trials: \(trials), outcomes: \(outcomes), boot counter reached \(lastCounter)")
        XCTAssertGreaterThan(lastCounter, 1, "several runs got far enough to write their battery save")
        XCTAssertGreaterThan(outcomes["srm unchanged", default: 0] + outcomes["srm absent", default: 0], 0,
                             "some kills came before the write")
    }
}
