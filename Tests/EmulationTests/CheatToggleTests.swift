import Foundation
import XCTest
@testable import Emulation
@testable import PhosphorKit

/// Cheats switched on and off while a real Debian core runs, through the same calls the pause
/// menu makes (`CoreInfo.cheatSupport` + `CoreHost.setCheats`). Each code changes something the test
/// cartridge redraws every frame, so on and off show without a reset; "on" must look exactly like
/// holding the buttons the patch imitates.
final class CheatToggleTests: XCTestCase {
    /// Starts the cartridge on its system's default core, paused, and hands `body` the thread
    /// and a function that runs N frames and returns the last frame's hash.
    private func withCore<T>(_ system: GameSystem, _ rom: String, input: [JoypadButton] = [],
                             _ body: (CoreThread, CoreInfo, (Int) throws -> UInt64) throws -> T) throws -> T {
        guard let core = CoreCatalog.discover().core(for: system) else { throw XCTSkip("no \(system) core installed") }
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Roms/\(rom)")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("cheat-toggle-\(UUID())")
        defer { try? FileManager.default.removeItem(at: home) }
        let thread = CoreThread(configuration: CoreHost.Configuration(
            core: core, rom: url, paths: PhosphorPaths(environment: ["PHOSPHOR_HOME": home.path]), system: system),
            options: CoreThread.Options(realTime: false))
        thread.pause()
        try thread.start()
        defer { thread.stop() }
        thread.input.set(ButtonMask(input), port: 0)
        return try body(thread, core) { count in
            for _ in 0..<count { try thread.step() }
            var latest: VideoFrame?
            while let frame = thread.mailbox.takeLatest() { latest = frame }
            return try XCTUnwrap(latest).fnv1aHash()
        }
    }

    /// Runs the cartridge, then applies each list of codes in turn (as the pause menu does),
    /// returning the frame hash after `frames` frames of each step (the first entry: no cheats yet).
    private func hashes(_ system: GameSystem, _ rom: String, input: [JoypadButton] = [], steps: [[String]],
                        frames: Int = 30) throws -> [UInt64] {
        try withCore(system, rom, input: input) { thread, core, frameHash in
            let support = core.cheatSupport
            var result = [try frameHash(120)]
            for codes in steps {
                let enabled = try codes.enumerated().map { ($0.offset, try CheatCodeValidator.validate($0.element, for: system)) }
                let calls = support.coreCheats(for: enabled)
                try thread.perform { try $0.setCheats(calls) }
                result.append(try frameHash(frames))
            }
            return result
        }
    }

    /// The hash with `input` held and no cheats.
    private func heldHash(_ system: GameSystem, _ rom: String, _ input: [JoypadButton]) throws -> UInt64 {
        try hashes(system, rom, input: input, steps: [])[0]
    }

    func testCodesThatCouldOverflowACoreBufferAreNeverHandedOver() throws {
        try withCore(.nes, "nes/phosphor-test.nes") { thread, _, frameHash in
            try thread.perform { try $0.setCheats([CoreCheat(index: 0, code: "ZAZKAP")]) }
            let solid = try frameHash(30)
            // nestopia copies the code into 256 bytes on its stack: 256 bytes are refused, and the
            // cheats already on stay on.
            XCTAssertThrowsError(try thread.perform { try $0.setCheats([CoreCheat(index: 0, code: String(repeating: "A", count: 256))]) }) {
                XCTAssertTrue("\($0)".contains("retro_cheat_set"), "\($0)")
            }
            XCTAssertThrowsError(try thread.perform { try $0.setCheats([CoreCheat(index: 0, code: "ZAZ\u{0}KAP")]) })
            XCTAssertEqual(try frameHash(30), solid)
            XCTAssertEqual(try thread.perform { ($0 as? CoreHost)?.activeCheats }, [CoreCheat(index: 0, code: "ZAZKAP")])
            // A reset hands the kept cheats over again.
            try thread.perform { $0.reset() }
            XCTAssertEqual(try frameHash(60), solid)
        }
    }

    func testNestopiaGameGenieOnAndOff() throws {
        // `lda buttons` in the box loop becomes `lda #$F0`: A, B, Select and Start look held.
        let result = try hashes(.nes, "nes/phosphor-test.nes", steps: [["OZPKGO EYPKIP"], [], ["C11C?A5:A9+C11D?00:F0"]])
        XCTAssertNotEqual(result[1], result[0])
        XCTAssertEqual(result[2], result[0], "off again")
        XCTAssertEqual(result[3], result[1], "the raw code with compare values does the same")
    }

    func testGambatteGameGenieOnAndOffWithoutRestart() throws {
        // `ld a, T_OUTLINE` becomes `ld a, T_SOLID`: all eight boxes look held. The 2016 gambatte
        // forgets patches on retro_cheat_reset without undoing them; this only works because
        // Phosphor never calls it for gambatte.
        let held = try heldHash(.gbc, "gb/phosphor-test.gbc", [.a, .b, .select, .start, .up, .down, .left, .right])
        let result = try hashes(.gbc, "gb/phosphor-test.gbc", steps: [["022-DFF"], [], ["022-DFF-EAE", "E03-D5F"], ["E03-D5F"]])
        XCTAssertEqual(result[1], held)
        XCTAssertEqual(result[2], result[0], "off again")
        XCTAssertEqual(result[3], held, "with a compare value, next to a second cheat")
        XCTAssertEqual(result[4], result[0], "the palette cheat alone shows nothing mid-game (it is read at boot)")
    }

    func testBsnesMercuryProActionReplayOnAndOff() throws {
        // The backdrop base colour's low byte 04 becomes 44: the picture of A held.
        let held = try heldHash(.snes, "snes/phosphor-test.sfc", [.a])
        let result = try hashes(.snes, "snes/phosphor-test.sfc", steps: [["00805944"], [], ["FE69-D40D"], ["008059:44"]])
        XCTAssertEqual(result[1], held)
        XCTAssertEqual(result[2], result[0], "off again")
        XCTAssertNotEqual(result[3], result[0], "a Game Genie code for the same byte")
        XCTAssertEqual(result[4], held, "the raw code")
    }

    func testMGBACodeBreakerOnAndOff() throws {
        // DISPCNT forced blank (a white screen) while on; the game rewrites DISPCNT only at boot,
        // so after "off" the register keeps the cheat's value: the picture stays until a reset.
        let result = try hashes(.gba, "gba/phosphor-test.gba", steps: [["84000000 0080"], ["99C7EBB5 9C769810"], []])
        XCTAssertNotEqual(result[1], result[0])
        XCTAssertEqual(result[2], result[1], "the encrypted GameShark code writes the same register")
        XCTAssertEqual(result[3], result[2], "off: the register keeps the last value written (the game sets it only at boot)")
    }

    func testDesmumeActionReplayOrder() throws {
        // 16-bit write of the base colour xor A's bit: the picture of A held. Two cheats write the
        // same word; the later one in the list wins.
        let held = try heldHash(.nds, "ds/phosphor-test.nds", [.a])
        let result = try hashes(.nds, "ds/phosphor-test.nds", steps: [["1200007C 000040AC"], ["0200007C 0000001F", "1200007C 000040AC"],
                                                                     ["1200007C 000040AC", "0200007C 0000001F"]])
        XCTAssertEqual(result[1], held)
        XCTAssertEqual(result[2], held)
        XCTAssertNotEqual(result[3], held)
        XCTAssertNotEqual(result[3], result[0])
    }
}
