import Foundation
import XCTest
import PhosphorKit
@testable import Shell

final class StateStoreTests: XCTestCase {
    private let tetris = GameIdentity(key: "Tetris (World)", system: .gb, romCRC32: 0x46DF_91AD, romSize: 32768,
                                      coreName: "Gambatte", coreVersion: "v0.5.0")

    /// A 4×2 XRGB8888 frame with distinct pixels.
    private func frame(seed: UInt8) -> VideoFrame {
        var pixels: [UInt8] = []
        for index in 0..<8 { pixels += [UInt8(index * 30), seed, UInt8(255 - index * 20), 0] }
        return VideoFrame(width: 4, height: 2, format: .xrgb8888, pixels: pixels, sequence: UInt64(seed))
    }

    private func state(_ fill: UInt8, count: Int = 4096) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0) ^ fill }
    }

    /// Compares two states by size and checksum so a failure prints two short lines.
    private func assertSameBytes(_ actual: [UInt8]?, _ expected: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        let describe = { (bytes: [UInt8]?) in bytes.map { "\($0.count) bytes, \(StateMetadata.checksum(of: $0))" } ?? "nil" }
        XCTAssertEqual(describe(actual), describe(expected), file: file, line: line)
    }

    private func assertRefused(_ kind: StateStoreError.Kind, _ body: () throws -> Void,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard let storeError = error as? StateStoreError else {
                return XCTFail("unexpected \(error)", file: file, line: line)
            }
            XCTAssertEqual(storeError.kind, kind, "\(storeError)", file: file, line: line)
            XCTAssertFalse(storeError.description.contains("\n"), file: file, line: line)
        }
    }

    func testSaveAndLoadRoundTripWithPreviewAndMetadata() throws {
        let folder = try TemporaryFolder("states-roundtrip")
        defer { folder.remove() }
        let store = StateStore(folder: folder.url, game: tetris)
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        let saved = try store.save(state(1), to: .numbered(3), screenshot: frame(seed: 9), date: date)

        XCTAssertEqual(store.stateFile(.numbered(3)).lastPathComponent, "Tetris (World).state3")
        XCTAssertEqual(store.stateFile(.quick).lastPathComponent, "Tetris (World).state")
        XCTAssertEqual(store.stateFile(.auto).lastPathComponent, "Tetris (World).state.auto")
        XCTAssertEqual(try Data(contentsOf: store.stateFile(.numbered(3))), Data(state(1)))

        let loaded = try store.load(.numbered(3), expectedSize: 4096)
        assertSameBytes(loaded.bytes, state(1))
        XCTAssertEqual(loaded.metadata, saved)
        XCTAssertEqual(loaded.warnings, [])
        XCTAssertEqual(saved.stateSize, 4096)
        XCTAssertEqual(saved.created, date)
        XCTAssertEqual(saved.coreName, "Gambatte")
        XCTAssertEqual(saved.system, .gb)
        XCTAssertEqual(saved.romCRC32, 0x46DF_91AD)

        let preview = try PNGImage(decoding: [UInt8](Data(contentsOf: store.screenshotFile(.numbered(3)))))
        XCTAssertEqual(preview, PNGImage(frame(seed: 9)))

        let summaries = store.list()
        XCTAssertEqual(summaries.map(\.slot), StateSlot.all)
        XCTAssertEqual(summaries.filter(\.isOccupied).map(\.slot), [.numbered(3)])
        let summary = try XCTUnwrap(summaries.first { $0.slot == .numbered(3) })
        XCTAssertEqual(summary.metadata, saved)
        XCTAssertEqual(summary.screenshot, store.screenshotFile(.numbered(3)))
        XCTAssertNil(summary.problem)

        // Only the slot's three files and the undo marker; no temporary files.
        XCTAssertEqual(try folder.contents(), ["Tetris (World).state3", "Tetris (World).state3.json",
                                               "Tetris (World).state3.png", "Tetris (World).state3.undo-empty"])
    }

    func testLockedSlotRefusesOverwriteAndDelete() throws {
        let folder = try TemporaryFolder("states-lock")
        defer { folder.remove() }
        let store = StateStore(folder: folder.url, game: tetris)
        try store.save(state(1), to: .numbered(1), screenshot: nil)
        try store.setLocked(true, .numbered(1))
        XCTAssertTrue(store.isLocked(.numbered(1)))
        XCTAssertTrue(store.list()[1].isLocked)
        assertRefused(.locked) { try store.save(self.state(2), to: .numbered(1), screenshot: nil) }
        assertRefused(.locked) { try store.delete(.numbered(1)) }
        assertRefused(.locked) { try store.undoLastSave(.numbered(1)) }
        assertSameBytes(try store.load(.numbered(1)).bytes, state(1))

        try store.setLocked(false, .numbered(1))
        try store.delete(.numbered(1))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.stateFile(.numbered(1)).path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.metadataFile(.numbered(1)).path))
        assertRefused(.emptySlot) { _ = try store.load(.numbered(1)) }
        assertRefused(.invalidSlot) { try store.save(self.state(1), to: .numbered(10), screenshot: nil) }
    }

    func testUndoOfASaveRestoresThePreviousStateAndCanBeRedone() throws {
        let folder = try TemporaryFolder("states-undo-save")
        defer { folder.remove() }
        let store = StateStore(folder: folder.url, game: tetris)
        assertRefused(.nothingToUndo) { try store.undoLastSave(.quick) }
        try store.save(state(1), to: .quick, screenshot: frame(seed: 1))
        try store.save(state(2, count: 5000), to: .quick, screenshot: frame(seed: 2))
        assertSameBytes(try store.load(.quick).bytes, state(2, count: 5000))

        let restored = try XCTUnwrap(try store.undoLastSave(.quick))
        assertSameBytes(restored.bytes, state(1))
        assertSameBytes(try store.load(.quick).bytes, state(1))
        XCTAssertEqual(try store.load(.quick).metadata?.stateSize, 4096)
        XCTAssertEqual(try PNGImage(decoding: [UInt8](Data(contentsOf: store.screenshotFile(.quick)))),
                       PNGImage(frame(seed: 1)))

        // Undoing the undo brings the mistaken save back.
        assertSameBytes(try store.undoLastSave(.quick)?.bytes, state(2, count: 5000))

        // A save into an empty slot is undone by emptying the slot.
        try store.save(state(7), to: .numbered(9), screenshot: nil)
        XCTAssertNil(try store.undoLastSave(.numbered(9)))
        XCTAssertFalse(store.list().first { $0.slot == .numbered(9) }!.isOccupied)
    }

    func testUndoOfALoadReturnsTheStateFromBeforeIt() throws {
        let folder = try TemporaryFolder("states-undo-load")
        defer { folder.remove() }
        let store = StateStore(folder: folder.url, game: tetris)
        XCTAssertFalse(store.canUndoLoad)
        assertRefused(.nothingToUndo) { _ = try store.undoLastLoad(currentState: self.state(0)) }
        try store.save(state(1), to: .numbered(2), screenshot: nil)

        let playing = state(42, count: 4096)
        let loaded = try store.load(.numbered(2), currentState: playing)
        assertSameBytes(loaded.bytes, state(1))
        XCTAssertTrue(store.canUndoLoad)

        assertSameBytes(try store.undoLastLoad(currentState: loaded.bytes), playing)
        // And back again.
        assertSameBytes(try store.undoLastLoad(currentState: playing), state(1))

        // A refused load does not replace the kept state.
        try Data(state(5)).write(to: store.stateFile(.numbered(2)))
        assertRefused(.damaged) { _ = try store.load(.numbered(2), currentState: self.state(99)) }
        assertSameBytes(try store.undoLastLoad(currentState: state(3)), playing)
    }

    func testAnotherGamesOrCoresStateIsRefused() throws {
        let folder = try TemporaryFolder("states-identity")
        defer { folder.remove() }
        try StateStore(folder: folder.url, game: tetris).save(state(1), to: .numbered(1), screenshot: nil)

        // The same files under another game's name (copied by hand).
        var zelda = tetris
        zelda.key = "Zelda"
        for suffix in ["", ".json"] {
            try FileManager.default.copyItem(at: folder.file("Tetris (World).state1\(suffix)"),
                                             to: folder.file("Zelda.state1\(suffix)"))
        }
        assertRefused(.wrongGame) { _ = try StateStore(folder: folder.url, game: zelda).load(.numbered(1)) }

        var otherDump = tetris
        otherDump.romCRC32 = 0x1234_5678
        assertRefused(.wrongGame) { _ = try StateStore(folder: folder.url, game: otherDump).load(.numbered(1)) }

        var otherCore = tetris
        otherCore.coreName = "SameBoy"
        assertRefused(.wrongCore) { _ = try StateStore(folder: folder.url, game: otherCore).load(.numbered(1)) }

        var newerCore = tetris
        newerCore.coreVersion = "v0.6.0"
        let loaded = try StateStore(folder: folder.url, game: newerCore).load(.numbered(1))
        assertSameBytes(loaded.bytes, state(1))
        XCTAssertEqual(loaded.warnings.count, 1)

        // A state its sidecar vouches for loads whatever size the core names now (nestopia's
        // states vary in size); without the sidecar, the size is all that is left to check.
        assertSameBytes(try StateStore(folder: folder.url, game: tetris).load(.numbered(1), expectedSize: 4000).bytes, state(1))
        try FileManager.default.removeItem(at: folder.file("Tetris (World).state1.json"))
        assertRefused(.wrongSize) { _ = try StateStore(folder: folder.url, game: tetris).load(.numbered(1), expectedSize: 4000) }
    }

    func testTruncatedGarbageAndEmptyStatesAreRefused() throws {
        let folder = try TemporaryFolder("states-damaged")
        defer { folder.remove() }
        let store = StateStore(folder: folder.url, game: tetris)
        try store.save(state(1), to: .numbered(4), screenshot: nil)
        let file = store.stateFile(.numbered(4))

        try Data(state(1).prefix(1000)).write(to: file)
        assertRefused(.damaged) { _ = try store.load(.numbered(4)) }

        var garbage = state(1)
        garbage[2000] ^= 0xFF
        try Data(garbage).write(to: file)
        assertRefused(.damaged) { _ = try store.load(.numbered(4)) }

        try Data().write(to: file)
        assertRefused(.damaged) { _ = try store.load(.numbered(4)) }

        try Data("{not json".utf8).write(to: store.metadataFile(.numbered(4)))
        try Data(state(1)).write(to: file)
        assertRefused(.damaged) { _ = try store.load(.numbered(4)) }
        XCTAssertNotNil(store.list().first { $0.slot == .numbered(4) }?.problem)

        // A RetroArch state without a sidecar loads when its size is the core's state size, with
        // a warning that it was not checked; a truncated one, or one when the core names no
        // size, is refused before the core sees it.
        try FileManager.default.removeItem(at: store.metadataFile(.numbered(4)))
        let unchecked = try store.load(.numbered(4), expectedSize: state(1).count)
        XCTAssertNil(unchecked.metadata)
        XCTAssertEqual(unchecked.warnings.count, 1)
        assertRefused(.damaged) { _ = try store.load(.numbered(4)) }
        try Data(state(1).prefix(1000)).write(to: file)
        assertRefused(.wrongSize) { _ = try store.load(.numbered(4), expectedSize: state(1).count) }
    }

    func testInterruptedSaveIsDetectedAndUndoRecoversThePreviousState() throws {
        let folder = try TemporaryFolder("states-interrupted")
        defer { folder.remove() }
        let store = StateStore(folder: folder.url, game: tetris)
        try store.save(state(1), to: .numbered(5), screenshot: nil)
        try store.save(state(2), to: .numbered(5), screenshot: nil)
        // Simulate a crash after the sidecar of a third save was written but before its state:
        // the save had backed the slot up (state 2 and its sidecar) before writing anything new.
        for (from, to) in [(store.stateFile(.numbered(5)), store.undoStateFile(.numbered(5))),
                           (store.metadataFile(.numbered(5)), store.undoMetadataFile(.numbered(5)))] {
            try AtomicFile.write(try Data(contentsOf: from), to: to)
        }
        let third = StateMetadata(game: tetris, slot: .numbered(5), created: Date(), state: state(3, count: 100))
        try AtomicFile.write(try StateMetadata.encoder().encode(third), to: store.metadataFile(.numbered(5)))
        // The save that did not happen does not cost the state that is there: the backup sidecar
        // (written before the new one) describes it, so it loads fully checked, with a note.
        let survivor = try store.load(.numbered(5))
        assertSameBytes(survivor.bytes, state(2))
        XCTAssertEqual(survivor.metadata?.stateChecksum, StateMetadata.checksum(of: state(2)))
        XCTAssertEqual(survivor.warnings.count, 1)
        XCTAssertEqual(store.list().first { $0.slot == .numbered(5) }?.metadata?.stateSize, state(2).count)
        assertSameBytes(try store.undoLastSave(.numbered(5))?.bytes, state(2))
    }

    /// Issue 11: a save killed after its preview and sidecar but before its state left the new
    /// preview beside the old state; the menu must show the old state's preview (or none).
    func testAPreviewIsShownOnlyBesideTheStateItWasTakenWith() throws {
        let folder = try TemporaryFolder("states-preview-pair")
        defer { folder.remove() }
        let store = StateStore(folder: folder.url, game: tetris)
        try store.save(state(1), to: .numbered(6), screenshot: frame(seed: 1))
        let oldPreview = try Data(contentsOf: store.screenshotFile(.numbered(6)))
        try store.save(state(2), to: .numbered(6), screenshot: frame(seed: 2))
        // Put the slot back as a kill before the state's rename leaves it: old state, new rest.
        try AtomicFile.write(state(1), to: store.stateFile(.numbered(6)))
        let summary = try XCTUnwrap(store.list().first { $0.slot == .numbered(6) })
        XCTAssertEqual(summary.metadata?.stateChecksum, StateMetadata.checksum(of: state(1)))
        XCTAssertEqual(try summary.screenshot.map { try Data(contentsOf: $0) }, oldPreview)
        assertSameBytes(try store.load(.numbered(6)).bytes, state(1))
    }

    func testScreenshotNamesAreUniqueAndSanitized() throws {
        let folder = try TemporaryFolder("screenshots")
        defer { folder.remove() }
        let date = Date(timeIntervalSince1970: 1_796_065_512)  // 2026-11-30 19:05:12 UTC
        let utc = try XCTUnwrap(TimeZone(identifier: "UTC"))
        var names: [String] = []
        for seed in 0..<3 {
            let file = try ScreenshotWriter.write(frame(seed: UInt8(seed)), game: "Mega/Man: 2?", folder: folder.url,
                                                  date: date, timeZone: utc)
            names.append(file.lastPathComponent)
            XCTAssertEqual(try PNGImage(decoding: [UInt8](Data(contentsOf: file))), PNGImage(frame(seed: UInt8(seed))))
        }
        XCTAssertEqual(names, ["Mega_Man_ 2_ 2026-11-30 19-05-12.png", "Mega_Man_ 2_ 2026-11-30 19-05-12-2.png",
                               "Mega_Man_ 2_ 2026-11-30 19-05-12-3.png"])
        XCTAssertEqual(try folder.contents(), names.sorted())
        XCTAssertEqual(FileNameSanitizer.sanitized("Tetris (World)"), "Tetris (World)")
        XCTAssertEqual(FileNameSanitizer.sanitized(".hidden\u{1}"), "_hidden_")
        XCTAssertEqual(FileNameSanitizer.sanitized("   "), "game")
        XCTAssertLessThanOrEqual(FileNameSanitizer.sanitized(String(repeating: "é", count: 500)).utf8.count, 180)
        XCTAssertEqual(GameIdentity.key(forROM: URL(fileURLWithPath: "/roms/Tetris (World).gb")), "Tetris (World)")
    }

    func testSlotIdentifiersRoundTrip() {
        for slot in StateSlot.all {
            XCTAssertEqual(StateSlot(identifier: slot.identifier), slot)
        }
        XCTAssertNil(StateSlot(identifier: "0"))
        XCTAssertNil(StateSlot(identifier: "10"))
        XCTAssertFalse(StateSlot.numbered(0).isValid)
    }
}
