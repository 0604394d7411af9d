import TestSupport
import Emulation
import Foundation
import Input
import PhosphorKit
import XCTest
@testable import Shell

/// Seeded, bounded fuzzing of every user-file parser not fuzzed elsewhere (KeyDecoder and
/// RomInspector have their own): random bytes and mutations of valid files. Never a crash; every
/// refusal is one line.
///
/// Every count below is the `make test-long` size; `make test` runs a fifth of each, from the same
/// seeds (`scaled`), and the thresholds on the outcomes shrink with it, so what a run asserts
/// about the mix of accepted and refused inputs stays the same.
final class FuzzTests: XCTestCase {
    private static let divisor = LongTests.size(slice: 5, full: 1)

    /// `fullSize` (a count of inputs, or a threshold on how many of them had some outcome) at this run's size.
    private func scaled(_ fullSize: Int) -> Int { fullSize / Self.divisor }

    /// Random bytes, or a valid sample with bytes flipped, inserted, deleted, duplicated or cut.
    private func inputs(from samples: [[UInt8]], count: Int, seed: UInt64) -> [[UInt8]] {
        var generator = SeededGenerator(seed: seed)
        let interesting: [UInt8] = Array("{}[]\",:0123456789-.eE \n\ttruefalsenull\\u".utf8) + [0, 0x1B, 0xFF, 0xC3, 0x80]
        var result: [[UInt8]] = []
        for round in 0..<count {
            if round % 4 == 0 {
                let length = Int.random(in: 0...512, using: &generator)
                result.append((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
                continue
            }
            var bytes = samples[Int.random(in: 0..<samples.count, using: &generator)]
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<6, using: &generator) {
                case 0 where !bytes.isEmpty: bytes[position] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.insert(interesting.randomElement(using: &generator)!, at: position)
                case 2 where !bytes.isEmpty: bytes.remove(at: position)
                case 3 where !bytes.isEmpty:
                    let end = min(bytes.count, position + Int.random(in: 1...64, using: &generator))
                    bytes.insert(contentsOf: bytes[position..<end], at: position)
                case 4: bytes = Array(bytes.prefix(position))
                default: if !bytes.isEmpty { bytes[position] = interesting.randomElement(using: &generator)! }
                }
            }
            result.append(bytes)
        }
        return result
    }

    private func assertOneLine(_ error: Error, _ label: String, mentions name: String? = nil,
                               file: StaticString = #filePath, line: UInt = #line) {
        let text = "\(error)"
        XCTAssertFalse(text.isEmpty, label, file: file, line: line)
        XCTAssertFalse(text.contains("\n") || text.contains("\r"), "\(label): \(text.debugDescription)", file: file, line: line)
        XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F },
                       "\(label): no control characters: \(text.debugDescription)", file: file, line: line)
        if let name { XCTAssertTrue(text.contains(name), "\(label): names the file: \(text)", file: file, line: line) }
    }

    func testInputScriptFuzz() {
        let samples = [Array("0 -\n30 a+right\n120 start # comment\n200 b+select+up\n".utf8)]
        var outcomes = [0, 0]
        for bytes in inputs(from: samples, count: scaled(3000), seed: 1) {
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                let script = try InputScript(parsing: text, file: "moves.txt")
                _ = script.buttons(at: UInt64.random(in: 0...1000))
                outcomes[0] += 1
            } catch {
                assertOneLine(error, "input script", mentions: "moves.txt")
                outcomes[1] += 1
            }
        }
        XCTAssertGreaterThan(outcomes[0], scaled(100), "some mutations stay valid: \(outcomes)")
        XCTAssertGreaterThan(outcomes[1], scaled(100), "most are refused: \(outcomes)")
    }

    func testCoreInfoFileFuzz() throws {
        let info = (try? String(contentsOfFile: "/usr/share/libretro/info/gambatte_libretro.info", encoding: .utf8)) ?? ""
        let sample = Array((info.isEmpty ? "display_name = \"Nintendo - Game Boy (Gambatte)\"\nsupported_extensions = \"gb|gbc\"\n" : info).utf8)
        var parsedKeys = 0
        for bytes in inputs(from: [sample], count: scaled(2000), seed: 2) {
            let fields = CoreInfoFile.parse(String(decoding: bytes, as: UTF8.self))
            parsedKeys += fields.count
            _ = CoreInfo(path: URL(fileURLWithPath: "/tmp/fuzz_libretro.so"), info: fields)
        }
        XCTAssertGreaterThan(parsedKeys, scaled(1000))
    }

    func testConfigJSONFuzz() throws {
        let file = URL(fileURLWithPath: "/tmp/fuzz/config.json")
        let sample = [UInt8](try ConfigStore.encoded(PhosphorConfig()))
        var outcomes = [0, 0]
        for bytes in inputs(from: [sample], count: scaled(2000), seed: 3) {
            do {
                let (_, warnings) = try ConfigStore.decode(bytes, file: file)
                for warning in warnings { assertOneLine(warning, "config warning", mentions: "config.json") }
                outcomes[0] += 1
            } catch {
                assertOneLine(error, "config", mentions: "config.json")
                outcomes[1] += 1
            }
        }
        XCTAssertGreaterThan(outcomes[0], scaled(50), "\(outcomes)")
        XCTAssertGreaterThan(outcomes[1], scaled(50), "\(outcomes)")
    }

    func testSkinJSONFuzz() throws {
        let skins = Binaries.packageRoot.appendingPathComponent("Skins")
        let samples = try ["gbc.json", "nds.json", "snes.json"].map { [UInt8](try Data(contentsOf: skins.appendingPathComponent($0))) }
        let file = URL(fileURLWithPath: "/tmp/fuzz/gbc.json")
        var outcomes = [0, 0]
        for bytes in inputs(from: samples, count: scaled(1500), seed: 4) {
            do {
                let skin = try SkinLoader.decode(bytes, file: file, expectedSystem: nil)
                _ = skin.layout(terminalColumns: 80, rows: 24, statusBarRows: 1)
                outcomes[0] += 1
            } catch {
                assertOneLine(error, "skin", mentions: "gbc.json")
                outcomes[1] += 1
            }
        }
        XCTAssertGreaterThan(outcomes[1], scaled(50), "\(outcomes)")
    }

    func testKeyMapJSONFuzz() {
        let samples = [Array(KeyMap.defaults(for: .snes).fileText.utf8),
                       Array(#"{ "system": "gb", "player1": { "a": "x", "b": ["z", "k"] }, "actions": { "pause-menu": [] } }"#.utf8)]
        var outcomes = [0, 0]
        for bytes in inputs(from: samples, count: scaled(2000), seed: 5) {
            var map = KeyMap.defaults(for: .snes)
            let before = map
            do {
                try map.apply(fileText: String(decoding: bytes, as: UTF8.self))
                outcomes[0] += 1
            } catch {
                XCTAssertEqual(map, before, "nothing changes when a key map file is refused")
                XCTAssertFalse(error.message.contains("\n"), error.message.debugDescription)
                XCTAssertGreaterThanOrEqual(error.line, 1)
                outcomes[1] += 1
            }
        }
        XCTAssertGreaterThan(outcomes[1], scaled(100), "\(outcomes)")
    }

    /// The state file and its JSON sidecar, mutated on disk, loaded through the StateStore.
    func testStateStoreFuzz() throws {
        let folder = try ScratchFolder("fuzz-states")
        defer { folder.remove() }
        let game = GameIdentity(key: "Fuzz", system: .gb, romCRC32: 0x1234_5678, romSize: 32768, coreName: "Gambatte", coreVersion: "v1")
        let store = StateStore(folder: folder.url, game: game)
        let good = (0..<2048).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try store.save(good, to: .numbered(1), screenshot: nil)
        let sidecar = [UInt8](try Data(contentsOf: store.metadataFile(.numbered(1))))
        var loaded = 0
        var refused = 0
        var generator = SeededGenerator(seed: 6)
        for (round, bytes) in inputs(from: [sidecar], count: scaled(600), seed: 6).enumerated() {
            try Data(bytes).write(to: store.metadataFile(.numbered(1)))
            var state = good
            if round % 3 == 0 { state = inputs(from: [good], count: 2, seed: UInt64(round))[1] }
            if round % 7 == 0 { state = (0..<Int.random(in: 0...3000, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) } }
            try Data(state).write(to: store.stateFile(.numbered(1)))
            do {
                let result = try store.load(.numbered(1))
                XCTAssertEqual(result.bytes, state)
                loaded += 1
            } catch {
                assertOneLine(error, "state", mentions: "state1")
                refused += 1
            }
        }
        XCTAssertGreaterThan(refused, scaled(300), "loaded \(loaded), refused \(refused)")
    }

    /// Cheat files mutated on disk: a broken one is refused with one line naming it and is never
    /// overwritten; a readable one loads, its invalid codes each named on one line and never
    /// handed to a core; every valid cheat's code is normalized.
    func testCheatFileFuzz() throws {
        let folder = try ScratchFolder("fuzz-cheats")
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("game.json")
        let samples = [Array("""
            {
              "cheats": [
                { "name": "Boxes solid", "code": "ZAZKAP", "enabled": true },
                { "name": "Palette", "code": "C179?16:2A+OZPKGO", "enabled": false },
                { "code": "B6527E56" }
              ]
            }
            """.utf8)]
        let support = CoreProfile.named("nestopia").cheatSupport(displayName: "Nestopia")
        var outcomes = [0, 0, 0]  // loaded clean, loaded with warnings, refused
        for bytes in inputs(from: samples, count: scaled(2000), seed: 7) {
            try Data(bytes).write(to: file)
            var store = CheatStore.load(from: file, system: .nes)
            if let error = store.loadError {
                assertOneLine(error, "cheat file", mentions: "game.json")
                var list = store.list
                list.cheats.append(Cheat(name: "x", code: "ZAZKAP", enabled: true, system: .nes))
                XCTAssertThrowsError(try store.update(list))
                XCTAssertEqual([UInt8](try Data(contentsOf: file)), bytes, "a broken file is never overwritten")
                outcomes[2] += 1
                continue
            }
            for warning in store.warnings { assertOneLine(warning, "cheat warning", mentions: "game.json") }
            outcomes[store.warnings.isEmpty ? 0 : 1] += 1
            for call in store.list.coreCheats(support) {
                XCTAssertEqual(try? CheatCodeValidator.validate(call.code, for: .nes).text, call.code, "only normalized valid codes reach the core")
                XCTAssertLessThanOrEqual(call.code.utf8.count, support.maximumCodeBytes)
            }
        }
        XCTAssertGreaterThan(outcomes[0], scaled(10), "\(outcomes)")
        XCTAssertGreaterThan(outcomes[1], scaled(20), "\(outcomes)")
        XCTAssertGreaterThan(outcomes[2], scaled(500), "\(outcomes)")
    }

    /// Random and mutated codes for every console: either a normalized code that validates to
    /// itself again and fits the cores' buffers, or one line without control characters.
    func testCheatCodeValidatorFuzz() {
        let samples: [GameSystem: [String]] = [
            .nes: ["ZAZKAP", "OZPKGO EYPKIP", "B6527E56", "C179?16:2A", "ZAXKAPPA+C128:02"],
            .gbc: ["E03-D5F", "022-DFF-EAE", "010843FF", "e03d5f;010040ff"],
            .snes: ["FE69-D40D", "00805944", "008059:44 DD69-D46D"],
            .gba: ["99C7EBB5 9C769810", "84000000 0080", "600000C6 000039A2\n84000000 0080"],
            .nds: ["0200007C 0000001F", "1200007C 000040AC+2200007C 000000AC"],
            .pce: ["01234567"],
        ]
        var generator = SeededGenerator(seed: 8)
        let alphabet = Array("APZLGITYEOXUKSVN0123456789abcdefQ-:?+;, \n\t\u{0}\u{1B}é")
        var outcomes = [0, 0]
        for (round, (system, codes)) in samples.sorted(by: { $0.key.rawValue < $1.key.rawValue }).enumerated() {
            let mutated = inputs(from: codes.map { Array($0.utf8) }, count: scaled(700), seed: 9 + UInt64(round))
            let random = (0..<scaled(300)).map { _ in
                String((0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            }
            // Valid codes as people paste them: any case, any of the separators between parts.
            let respelled = (0..<scaled(100)).map { _ in
                String(codes.randomElement(using: &generator)!.map { character -> Character in
                    if "+; \n".contains(character) { return ["+", ";", "\n", " + ", "\r\n"].randomElement(using: &generator)!.first! }
                    return Bool.random(using: &generator) ? Character(character.lowercased()) : character
                })
            }
            for text in respelled where system != .pce {
                XCTAssertNotNil(try? CheatCodeValidator.validate(text, for: system), "\(system): \(text.debugDescription)")
            }
            for text in mutated.map({ String(decoding: $0, as: UTF8.self) }) + random + respelled {
                do {
                    let code = try CheatCodeValidator.validate(text, for: system)
                    XCTAssertEqual(try? CheatCodeValidator.validate(code.text, for: system).text, code.text, "normalizing twice changes nothing")
                    XCTAssertLessThanOrEqual(code.text.utf8.count, CheatCodeValidator.maximumLength(for: system))
                    XCTAssertFalse(code.text.unicodeScalars.contains { $0.value < 0x20 || $0.value > 0x7E }, code.text.debugDescription)
                    outcomes[0] += 1
                } catch {
                    assertOneLine(error, "\(system) code \(text.debugDescription)")
                    outcomes[1] += 1
                }
            }
        }
        XCTAssertGreaterThan(outcomes[0], scaled(500), "\(outcomes)")
        XCTAssertGreaterThan(outcomes[1], scaled(4000), "\(outcomes)")
    }
}
