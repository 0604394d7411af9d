import Emulation
import Foundation
import Input
import PhosphorKit
import XCTest
@testable import Shell

/// Seeded, bounded fuzzing of every user-file parser not fuzzed elsewhere (KeyDecoder and
/// RomInspector have their own): random bytes and mutations of valid files. Never a crash; every
/// refusal is one line.
final class FuzzTests: XCTestCase {
    /// Random bytes, or a valid sample with bytes flipped, inserted, deleted, duplicated or cut.
    private func inputs(from samples: [[UInt8]], count: Int, seed: UInt64) -> [[UInt8]] {
        var generator = SplitMix64(seed: seed)
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
        for bytes in inputs(from: samples, count: 3000, seed: 1) {
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
        XCTAssertGreaterThan(outcomes[0], 100, "some mutations stay valid: \(outcomes)")
        XCTAssertGreaterThan(outcomes[1], 100, "most are refused: \(outcomes)")
    }

    func testCoreInfoFileFuzz() throws {
        let info = (try? String(contentsOfFile: "/usr/share/libretro/info/gambatte_libretro.info", encoding: .utf8)) ?? ""
        let sample = Array((info.isEmpty ? "display_name = \"Nintendo - Game Boy (Gambatte)\"\nsupported_extensions = \"gb|gbc\"\n" : info).utf8)
        var parsedKeys = 0
        for bytes in inputs(from: [sample], count: 2000, seed: 2) {
            let fields = CoreInfoFile.parse(String(decoding: bytes, as: UTF8.self))
            parsedKeys += fields.count
            _ = CoreInfo(path: URL(fileURLWithPath: "/tmp/fuzz_libretro.so"), info: fields)
        }
        XCTAssertGreaterThan(parsedKeys, 1000)
    }

    func testConfigJSONFuzz() throws {
        let file = URL(fileURLWithPath: "/tmp/fuzz/config.json")
        let sample = [UInt8](try ConfigStore.encoded(PhosphorConfig()))
        var outcomes = [0, 0]
        for bytes in inputs(from: [sample], count: 2000, seed: 3) {
            do {
                let (_, warnings) = try ConfigStore.decode(bytes, file: file)
                for warning in warnings { assertOneLine(warning, "config warning", mentions: "config.json") }
                outcomes[0] += 1
            } catch {
                assertOneLine(error, "config", mentions: "config.json")
                outcomes[1] += 1
            }
        }
        XCTAssertGreaterThan(outcomes[0], 50, "\(outcomes)")
        XCTAssertGreaterThan(outcomes[1], 50, "\(outcomes)")
    }

    func testSkinJSONFuzz() throws {
        let skins = Binaries.packageRoot.appendingPathComponent("Skins")
        let samples = try ["gbc.json", "nds.json", "snes.json"].map { [UInt8](try Data(contentsOf: skins.appendingPathComponent($0))) }
        let file = URL(fileURLWithPath: "/tmp/fuzz/gbc.json")
        var outcomes = [0, 0]
        for bytes in inputs(from: samples, count: 1500, seed: 4) {
            do {
                let skin = try SkinLoader.decode(bytes, file: file, expectedSystem: nil)
                _ = skin.layout(terminalColumns: 80, rows: 24, statusBarRows: 1)
                outcomes[0] += 1
            } catch {
                assertOneLine(error, "skin", mentions: "gbc.json")
                outcomes[1] += 1
            }
        }
        XCTAssertGreaterThan(outcomes[1], 50, "\(outcomes)")
    }

    func testKeyMapJSONFuzz() {
        let samples = [Array(KeyMap.defaults(for: .snes).fileText.utf8),
                       Array(#"{ "system": "gb", "player1": { "a": "x", "b": ["z", "k"] }, "actions": { "pause-menu": [] } }"#.utf8)]
        var outcomes = [0, 0]
        for bytes in inputs(from: samples, count: 2000, seed: 5) {
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
        XCTAssertGreaterThan(outcomes[1], 100, "\(outcomes)")
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
        var generator = SplitMix64(seed: 6)
        for (round, bytes) in inputs(from: [sidecar], count: 600, seed: 6).enumerated() {
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
        XCTAssertGreaterThan(refused, 300, "loaded \(loaded), refused \(refused)")
    }
}
