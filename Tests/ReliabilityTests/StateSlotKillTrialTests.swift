import Foundation
import PhosphorKit
import TestSupport
import XCTest
@testable import Shell

/// Issue 11, item 3: a save state is preview, sidecar and state, three atomic writes. SIGKILL at
/// random (seeded) moments while the real `StateStore` saves into one slot: the slot always loads,
/// as one of the two versions, fully checked against a sidecar that describes it, and the menu
/// shows that version's preview (never the other one's).
final class StateSlotKillTrialTests: XCTestCase {
    func testSIGKILLDuringStateSavesLeavesASlotThatLoadsWhole() throws {
        let shm = URL(fileURLWithPath: "/dev/shm")
        let folder = try ScratchFolder("slot-kill", base: FileManager.default.isWritableFile(atPath: shm.path)
                                        ? shm : FileManager.default.temporaryDirectory)
        defer { folder.remove() }
        let stateSize = 128 * 1024
        let identity = GameIdentity(key: "probe", system: .gb, romSize: 32_768, coreName: "Probe", coreVersion: "1")
        let store = StateStore(folder: folder.url, game: identity)
        let previews: [UInt8: String] = try ([0xAA, 0xBB] as [UInt8]).reduce(into: [:]) { table, fill in
            let frame = VideoFrame(width: 32, height: 32, format: .xrgb8888,
                                   pixels: [UInt8](repeating: fill, count: 32 * 32 * 4), sequence: UInt64(fill))
            table[fill] = StateMetadata.checksum(of: [UInt8](try PNGImage(frame).encoded()))
        }
        var generator = SeededGenerator(seed: 0x5EED_0011)
        var outcomes: [String: Int] = [:]
        let trials = LongTests.size(slice: 30, full: 200)
        for trial in 0..<trials {
            let probe = try ChildProcess(Binaries.probe("StateSlotProbe"), [folder.url.path, "\(stateSize)"])
            XCTAssertTrue(probe.waitForLine("ready"), "trial \(trial): the probe saved once")
            usleep(UInt32.random(in: 0...20_000, using: &generator))
            probe.kill()
            do {
                let loaded = try store.load(.numbered(1), expectedSize: stateSize)
                let fill = loaded.bytes.first ?? 0
                XCTAssertTrue(loaded.bytes.allSatisfy { $0 == fill } && [0xAA, 0xBB].contains(fill), "trial \(trial): one version")
                let metadata = try XCTUnwrap(loaded.metadata, "trial \(trial): a sidecar describes the state")
                XCTAssertTrue(metadata.describes(loaded.bytes), "trial \(trial)")
                outcomes[fill == 0xAA ? "A" : "B", default: 0] += 1
                if !loaded.warnings.isEmpty { outcomes["interrupted save, old state kept", default: 0] += 1 }
                let summary = try XCTUnwrap(store.list().first { $0.slot == .numbered(1) })
                if let preview = summary.screenshot {
                    XCTAssertEqual(StateMetadata.checksum(of: [UInt8](try Data(contentsOf: preview))), previews[fill],
                                   "trial \(trial): the preview is the loaded state's")
                } else {
                    outcomes["no preview shown", default: 0] += 1
                }
            } catch {
                XCTFail("trial \(trial): the slot does not load: \(error)")
            }
            if testRun?.failureCount ?? 0 > 5 { break }
        }
        print("state slot kill trials: \(trials), outcomes: \(outcomes)")
        XCTAssertGreaterThan(outcomes["A", default: 0], 0)
        XCTAssertGreaterThan(outcomes["B", default: 0], 0)
    }
}
