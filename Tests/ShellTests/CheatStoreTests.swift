import Emulation
import Foundation
import PhosphorKit
import XCTest
@testable import Shell

/// `cheats/<system>/<game>.json`: round trip, and the broken-file rules (one line naming file,
/// line and problem; the game goes on; the file is never overwritten).
final class CheatStoreTests: XCTestCase {
    private func cheat(_ name: String, _ code: String, _ system: GameSystem = .nes, enabled: Bool = true) throws -> Cheat {
        Cheat(name: name, code: try CheatCodeValidator.validate(code, for: system), enabled: enabled)
    }

    func testMissingFileIsAnEmptyListAndTheFirstChangeCreatesIt() throws {
        let folder = try TemporaryFolder("cheats-missing")
        defer { folder.remove() }
        let paths = PhosphorPaths(config: folder.file("config"), data: folder.file("data"))
        let file = CheatStore.file(paths: paths, system: .nes, gameKey: "Zelda (USA)")
        XCTAssertEqual(file.path, folder.file("data/cheats/nes/Zelda (USA).json").path)
        var store = CheatStore.load(from: file, system: .nes)
        XCTAssertNil(store.loadError)
        XCTAssertEqual(store.list.cheats, [])
        var list = store.list
        list.cheats = [try cheat("Boxes solid", "zazkap"), try cheat("", "C179:2A", enabled: false)]
        try store.update(list)

        let reloaded = CheatStore.load(from: file, system: .nes)
        XCTAssertNil(reloaded.loadError)
        XCTAssertEqual(reloaded.warnings, [])
        XCTAssertEqual(reloaded.list, list)
        XCTAssertEqual(reloaded.list.enabledCount, 1)
        XCTAssertEqual(reloaded.list.cheats.map(\.code), ["ZAZKAP", "C179:2A"], "stored normalized")
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertEqual(text, """
        {
          "cheats" : [
            {
              "code" : "ZAZKAP",
              "enabled" : true,
              "name" : "Boxes solid"
            },
            {
              "code" : "C179:2A",
              "enabled" : false,
              "name" : ""
            }
          ]
        }

        """)
    }

    func testTheCoreGetsOnlyEnabledValidCheatsWithTheirListPositions() throws {
        var list = CheatList(system: .nes)
        list.cheats = [try cheat("a", "ZAZKAP", enabled: false), try cheat("b", "C179:2A"),
                       Cheat(name: "c", code: "NOPE", enabled: true, system: .nes), try cheat("d", "OZPKGO EYPKIP")]
        let calls = list.coreCheats(CoreProfile.named("nestopia").cheatSupport(displayName: "Nestopia"))
        XCTAssertEqual(calls, [CoreCheat(index: 1, code: "C179:2A"), CoreCheat(index: 3, code: "OZPKGO+EYPKIP")])
        XCTAssertEqual(list.enabledCount, 2)
    }

    func testACodeOfTheWrongFormatIsNamedKeptAsWrittenAndNeverApplied() throws {
        let folder = try TemporaryFolder("cheats-invalid")
        defer { folder.remove() }
        let original = """
        {
          "cheats": [
            { "name": "good", "code": "ZAZKAP", "enabled": true },
            { "name": "typo",
              "code": "ZAZKAQ", "enabled": true, "colour": "red" }
          ]
        }
        """
        let file = try folder.write(original, to: "game.json")
        var store = CheatStore.load(from: file, system: .nes)
        XCTAssertNil(store.loadError)
        XCTAssertEqual(store.warnings.map(\.description), [
            "\(file.path), line 5: cheats[1].code: not a Game Genie or Pro Action Rocky code: \"ZAZKAQ\" has \"Q\", which is neither a Game Genie letter (A P Z L G I T Y E O X U K S V N) nor a hex digit; this cheat stays off",
            "\(file.path), line 5: unknown key \"cheats[1].colour\" (ignored)",
        ])
        XCTAssertEqual(store.list.cheats.map(\.isValid), [true, false])
        XCTAssertEqual(store.list.enabledCount, 1)
        XCTAssertEqual(store.list.coreCheats(CoreProfile.named("nestopia").cheatSupport(displayName: "N")),
                       [CoreCheat(index: 0, code: "ZAZKAP")])
        // Saving after another change writes the invalid cheat back exactly as it was written.
        var list = store.list
        list.cheats[0].enabled = false
        try store.update(list)
        let reloaded = CheatStore.load(from: file, system: .nes)
        XCTAssertEqual(reloaded.list.cheats.map(\.code), ["ZAZKAP", "ZAZKAQ"])
        XCTAssertEqual(reloaded.list.cheats.map(\.enabled), [false, true])
    }

    func testBrokenFilesNameFileAndLineAndAreNeverOverwritten() throws {
        let cases: [(String, Int?, String)] = [
            ("{\n  \"cheats\": [\n    { \"code\": \"ZAZKAP\", }\n  ]\n}", 3, "not valid JSON: a ',' before '}' (trailing commas are not allowed) (column 25)"),
            ("{\n  \"cheats\": { \"code\": \"ZAZKAP\" }\n}", 2, "cheats must be a list, found an object"),
            ("{\n  \"cheats\": [\n    { \"name\": \"no code\" }\n  ]\n}", 3, "cheats[0] has no \"code\""),
            ("{\n  \"cheats\": [\n    { \"code\": \"ZAZKAP\",\n      \"enabled\": \"yes\" }\n  ]\n}", 4, "cheats[0].enabled must be true or false, found a string"),
            ("{\n  \"cheats\": [ 7 ]\n}", 2, "cheats[0] must be an object, found a number"),
            ("[]", 1, "the document must be an object, found a list"),
            ("{ \"codes\": [] }", 1, "\"cheats\" is missing (a list of cheats)"),
            ("", 1, "not valid JSON: the file is empty (column 1)"),
        ]
        let folder = try TemporaryFolder("cheats-broken")
        defer { folder.remove() }
        for (text, line, problem) in cases {
            let file = try folder.write(text, to: "game.json")
            var store = CheatStore.load(from: file, system: .nes)
            XCTAssertEqual(store.loadError, UserFileError(file: file, line: line, problem: problem), text)
            XCTAssertEqual(store.list.cheats, [], "the game runs without cheats")
            XCTAssertFalse(store.canSave)
            var list = store.list
            list.cheats.append(try cheat("new", "ZAZKAP"))
            XCTAssertThrowsError(try store.update(list)) { thrown in
                XCTAssertTrue("\(thrown)".contains("cheats not changed: the file could not be read"), "\(thrown)")
                XCTAssertFalse("\(thrown)".contains("\n"))
            }
            XCTAssertEqual(store.list.cheats, [], "the refused change is not kept either")
            XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), text, "the user's file is untouched")
            XCTAssertEqual(try folder.contents(), ["game.json"])
        }
    }

    func testAHugeFileIsRefusedUnread() throws {
        let folder = try TemporaryFolder("cheats-huge")
        defer { folder.remove() }
        let file = try folder.write(String(repeating: " ", count: CheatStore.maximumFileSize + 1), to: "game.json")
        let store = CheatStore.load(from: file, system: .nes)
        XCTAssertEqual(store.loadError?.problem, "is 1.0 MiB; the limit is 1.0 MiB, so it was not read")
    }

    func testAFailedWriteKeepsTheChangeForThisRunAndSaysSo() throws {
        let folder = try TemporaryFolder("cheats-readonly")
        defer { folder.remove() }
        // A file where the cheats folder should be: the folder can't be created.
        _ = try folder.write("not a folder", to: "cheats")
        var store = CheatStore.load(from: folder.file("cheats/nes/game.json"), system: .nes)
        var list = store.list
        list.cheats = [try cheat("solid", "ZAZKAP")]
        XCTAssertThrowsError(try store.update(list)) { thrown in
            XCTAssertTrue("\(thrown)".hasPrefix("game.json not saved:"), "\(thrown)")
        }
        XCTAssertEqual(store.list, list, "the game goes on with the new list")
    }
}
