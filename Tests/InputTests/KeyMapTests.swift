import Foundation
import XCTest
import PhosphorKit
@testable import Input

final class KeyMapTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("keymaps-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testDefaultsAreConflictFreeAndCoverEveryButton() {
        for system in GameSystem.allCases {
            let map = KeyMap.defaults(for: system)
            XCTAssertEqual(map.conflicts, [], "\(system)")
            for button in system.buttons {
                XCTAssertFalse(map.keys(for: .button(port: 0, button)).isEmpty, "\(system) \(button)")
            }
            for port in map.players.indices {
                XCTAssertEqual(Set(map.players[port].keys), Set(system.buttons), "\(system) player \(port + 1)")
            }
        }
        XCTAssertEqual(KeyMap.defaults(for: .snes).players.count, 2)
        XCTAssertEqual(KeyMap.defaults(for: .gba).players.count, 1)
        let snes = KeyMap.defaults(for: .snes)
        XCTAssertEqual(snes.targets(for: .rightShift), [.button(port: 0, .select)])
        XCTAssertEqual(snes.targets(for: .backspace), [.button(port: 0, .select)])
        XCTAssertEqual(snes.targets(for: .escape), [.action(.pauseMenu)])
        // The second pause key (GNU screen holds a lone Esc back) clashes with nothing.
        XCTAssertEqual(snes.targets(for: .function(1)), [.action(.pauseMenu)])
        XCTAssertEqual(snes.conflicts.map(\.key), [])
        XCTAssertEqual(snes.targets(for: .character("i")), [.button(port: 1, .up)])
    }

    func testFileTextRoundTrips() throws {
        for system in GameSystem.allCases {
            let defaults = KeyMap.defaults(for: system)
            var empty = KeyMap(system: system, players: [], actions: [:])
            try empty.apply(fileText: defaults.fileText)
            XCTAssertEqual(empty, defaults, "\(system)")
        }
    }

    func testStoreLayersSystemAndGameFiles() throws {
        let store = KeyMapStore(folder: folder)
        try """
        {
          "player1": { "a": "k", "b": ["j", "space"] },
          "actions": { "fast-forward-hold": [] }
        }
        """.write(to: store.systemFile(for: .nes), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("nes"), withIntermediateDirectories: true)
        try #"{ "player1": { "start": ["f2"] }, "actions": { "quit": "f10" } }"#
            .write(to: store.gameFile(for: .nes, game: "Test Game"), atomically: true, encoding: .utf8)

        let result = store.load(system: .nes, game: "Test Game")
        // k and j were player 2's down and left: reported as conflicts, the map is still used.
        XCTAssertEqual(result.problems.map(\.kind), [.conflict, .conflict])
        XCTAssertEqual(result.problems.map(\.description), [
            "key map: key 'j' is bound to player1.b and player2.left",
            "key map: key 'k' is bound to player1.a and player2.down",
        ])
        XCTAssertEqual(result.map.keys(for: .button(port: 0, .a)), [.character("k")])
        XCTAssertEqual(result.map.keys(for: .button(port: 0, .b)), [.character("j"), .character(" ")])
        XCTAssertEqual(result.map.keys(for: .button(port: 0, .start)), [.function(2)])
        XCTAssertEqual(result.map.keys(for: .button(port: 0, .select)), [.rightShift, .backspace])
        XCTAssertEqual(result.map.keys(for: .action(.quit)), [.function(10)])
        XCTAssertEqual(result.map.keys(for: .action(.fastForwardHold)), [])

        // Without the game, only the system file applies.
        XCTAssertEqual(store.load(system: .nes).map.keys(for: .button(port: 0, .start)), [.enter])
    }

    func assertBadFile(_ text: String, line: Int, mentions: String, file: StaticString = #filePath, fileLine: UInt = #line) throws {
        let store = KeyMapStore(folder: folder)
        let url = store.systemFile(for: .snes)
        try Data(text.utf8).write(to: url)
        let result = store.load(system: .snes)
        XCTAssertEqual(result.map, KeyMap.defaults(for: .snes), file: file, line: fileLine)
        XCTAssertEqual(result.problems.count, 1, file: file, line: fileLine)
        let problem = try XCTUnwrap(result.problems.first)
        XCTAssertEqual(problem.kind, .invalidFile, file: file, line: fileLine)
        XCTAssertEqual(problem.line, line, file: file, line: fileLine)
        XCTAssertTrue(problem.description.hasPrefix("\(url.path):\(line): "), problem.description, file: file, line: fileLine)
        XCTAssertTrue(problem.description.contains(mentions), problem.description, file: file, line: fileLine)
        XCTAssertEqual(try Data(contentsOf: url), Data(text.utf8), "the user's file is untouched", file: file, line: fileLine)
    }

    func testMalformedFilesNameTheLineAndFallBackToDefaults() throws {
        try assertBadFile("""
        {
          "player1": {
            "a": ["x"],
            "b": ["zz"]
          }
        }
        """, line: 4, mentions: "player1.b: unknown key \"zz\"")
        try assertBadFile("""
        {
          "player1": {
            "a": ["x"]
            "b": ["z"]
          }
        }
        """, line: 4, mentions: "expected ',' or '}'")
        try assertBadFile("{\n  \"player1\": {\n    \"c\": \"x\"\n  }\n}\n", line: 3, mentions: "no \"c\" button")
        try assertBadFile("{\n\n  \"actions\": { \"teleport\": \"t\" }\n}", line: 3, mentions: "unknown action \"teleport\"")
        try assertBadFile("{\n  \"player3\": {}\n}", line: 2, mentions: "unknown entry \"player3\"")
        try assertBadFile("{\n  \"system\": \"nes\"\n}", line: 2, mentions: "\"system\" must be \"snes\"")
        try assertBadFile("[1, 2]", line: 1, mentions: "one JSON object")
        try assertBadFile("{\n  \"player1\": { \"a\": \"x\",\n \"a\": \"s\" }\n}", line: 3, mentions: "appears twice")
        try assertBadFile("{\n  \"player1\": { \"a\": [1] }\n}", line: 2, mentions: "key names are strings")
        try assertBadFile("{\n  \"player1\": {\n", line: 3, mentions: "not valid JSON")
    }

    func testSaveWritesReadableJSONAtomically() throws {
        let store = KeyMapStore(folder: folder)
        var map = KeyMap.defaults(for: .gba)
        map.setKeys([.character("p")], for: .action(.quit))
        try store.save(map, game: "Advance/Wars")
        let file = store.gameFile(for: .gba, game: "Advance/Wars")
        XCTAssertEqual(file.lastPathComponent, "Advance_Wars.json")
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains("    \"select\": [\"rshift\", \"backspace\"],\n"), text)
        XCTAssertTrue(text.contains("    \"quit\": [\"p\"]\n"), text)
        XCTAssertEqual(store.load(system: .gba, game: "Advance/Wars").map, map)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path),
                       ["Advance_Wars.json"])
    }

    func testKeyNames() {
        for name in ["z", "1", "[", "up", "enter", "space", "esc", "f5", "f12", "rshift", "kp4", "kpenter", "pagedown"] {
            XCTAssertEqual(Key(name: name)?.name, name)
        }
        XCTAssertEqual(Key(name: "F5"), .function(5))
        XCTAssertEqual(Key(name: "Z"), .character("z"))
        XCTAssertNil(Key(name: "f0"))
        XCTAssertNil(Key(name: "zz"))
        XCTAssertNil(Key(name: ""))
    }

    func testWriteDefaultIfMissingNeverOverwrites() throws {
        let store = KeyMapStore(folder: folder)
        XCTAssertTrue(try store.writeDefaultIfMissing(for: .pce))
        XCTAssertEqual(store.load(system: .pce).problems, [])
        XCTAssertEqual(store.load(system: .pce).map, KeyMap.defaults(for: .pce))
        let custom = Data("{ \"player1\": { \"a\": \"k\" }\n".utf8)  // broken on purpose
        try custom.write(to: store.systemFile(for: .pce))
        XCTAssertFalse(try store.writeDefaultIfMissing(for: .pce))
        XCTAssertEqual(try Data(contentsOf: store.systemFile(for: .pce)), custom)
    }

    func testAllTargetsListsEveryButtonAndAction() {
        let map = KeyMap.defaults(for: .nes)
        XCTAssertEqual(map.allTargets.count, 2 * GameSystem.nes.buttons.count + InputAction.allCases.count)
        XCTAssertEqual(map.allTargets.first, .button(port: 0, .up))
        XCTAssertEqual(map.allTargets.last, .action(.quit))
    }
}
