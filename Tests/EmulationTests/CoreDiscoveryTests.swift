import Foundation
import XCTest
@testable import Emulation
@testable import PhosphorKit

final class CoreDiscoveryTests: XCTestCase {
    func testInfoFileParsing() {
        let info = CoreInfoFile.parse("""
            # comment
            display_name = "Nintendo - Game Boy / Color (Gambatte)"
            supported_extensions = "gb|gbc|dmg"
            database = "Nintendo - Game Boy|Nintendo - Game Boy Color"
            needs_fullpath = "false"
            broken line without equals
            """)
        XCTAssertEqual(info["display_name"], "Nintendo - Game Boy / Color (Gambatte)")
        let core = CoreInfo(path: URL(fileURLWithPath: "/x/gambatte_libretro.so"), info: info)
        XCTAssertEqual(core.name, "gambatte")
        XCTAssertEqual(core.systems, [.gb, .gbc])
        XCTAssertEqual(core.extensions, ["gb", "gbc", "dmg"])
        XCTAssertFalse(core.needsFullPath)
    }

    /// RetroArch's own files come with CRLF line ends, tabs and odd spacing (cheat and option
    /// files too): only spaces and tabs around keys and values are trimmed, one pair of quotes goes.
    func testInfoFileSpacingQuotesAndLineEnds() {
        let info = CoreInfoFile.parse("\tkey = \"a value\" \r\nempty = \"\"\r\n  # note = \"x\"\r\nbare=  word\t\n" +
                                      "quote = \"\n inner = \"say \"hi\"\"\nname = \"Pokémon – Gelb\"\nno equals\n=orphan\n")
        XCTAssertEqual(info, ["key": "a value", "empty": "", "bare": "word", "quote": "\"", "inner": "say \"hi\"",
                              "name": "Pokémon – Gelb", "": "orphan"])
    }

    func testSystemIDFallbackAndHardwareRenderFlag() {
        let core = CoreInfo(path: URL(fileURLWithPath: "/x/foo_libretro.so"),
                            info: ["systemid": "pc_engine", "required_hw_api": "OpenGL >= 3.3"])
        XCTAssertEqual(core.systems, [.pce])
        XCTAssertFalse(core.softwareRendered)
    }

    func testCorePathIsSearchedFirstAndPreferencesApply() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cores-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A user core shadows the Debian one of the same name; an unknown one gets no system.
        XCTAssertTrue(FileManager.default.createFile(atPath: folder.appendingPathComponent("gambatte_libretro.so").path, contents: Data()))
        try "display_name = \"My Gambatte\"\ndatabase = \"Nintendo - Game Boy\"\n"
            .write(to: folder.appendingPathComponent("gambatte_libretro.info"), atomically: true, encoding: .utf8)
        XCTAssertTrue(FileManager.default.createFile(atPath: folder.appendingPathComponent("mystery_libretro.so").path, contents: Data()))
        let catalog = CoreCatalog.discover(environment: ["PHOSPHOR_CORE_PATH": folder.path, "HOME": "/nonexistent"])
        let gambatte = try XCTUnwrap(catalog.cores.first { $0.name == "gambatte" })
        XCTAssertEqual(gambatte.path.deletingLastPathComponent().path, folder.path)
        XCTAssertEqual(gambatte.displayName, "My Gambatte")
        XCTAssertEqual(catalog.cores.first { $0.name == "mystery" }?.systems, [])
        XCTAssertEqual(catalog.cores.filter { $0.name == "gambatte" }.count, 1)
        if catalog.cores.contains(where: { $0.name == "mgba" }) {
            XCTAssertEqual(catalog.core(for: .gb)?.name, "gambatte")
            XCTAssertEqual(catalog.core(for: .gb, preferring: "mgba")?.name, "mgba")
        }
        XCTAssertNil(catalog.core(for: .genesis, preferring: "nothing"))
    }

    func testInputScripts() throws {
        let script = try InputScript(parsing: "# start\n0 -\n30 a+right\n\n90 start # menu\n")
        XCTAssertEqual(script.buttons(at: 0), [])
        XCTAssertEqual(script.buttons(at: 30), ButtonMask([.a, .right]))
        XCTAssertEqual(script.buttons(at: 89), ButtonMask([.a, .right]))
        XCTAssertEqual(script.buttons(at: 1000), ButtonMask([.start]))
        XCTAssertThrowsError(try InputScript(parsing: "0 a\nten b\n", file: "in.txt")) { error in
            XCTAssertEqual("\(error)", "in.txt:2: expected 'FRAME BUTTONS', got 'ten b'")
        }
        XCTAssertThrowsError(try InputScript(parsing: "5 jump", file: "in.txt")) { error in
            XCTAssertTrue("\(error)".hasPrefix("in.txt:1: unknown button 'jump'"))
        }
    }

    func testLegacyCoreOptionParsing() {
        let definition = CoreOptions.definition(key: "nestopia_palette", legacyValue: "Palette; cxa2025as|consumer|canonical")
        XCTAssertEqual(definition?.description, "Palette")
        XCTAssertEqual(definition?.values, ["cxa2025as", "consumer", "canonical"])
        XCTAssertEqual(definition?.defaultValue, "cxa2025as")
        XCTAssertNil(CoreOptions.definition(key: "x", legacyValue: "no separator"))
    }

    func testCoreOptionsPersistAndIgnoreInvalidSavedValues() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("options-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try #"{"speed": "warp", "mode": "fast"}"#.write(to: file, atomically: true, encoding: .utf8)
        let options = CoreOptions(file: file)
        options.define([.init(key: "mode", description: "Mode", values: ["slow", "fast"], defaultValue: "slow"),
                        .init(key: "speed", description: "Speed", values: ["1x", "2x"], defaultValue: "1x")])
        XCTAssertEqual(options.values["mode"], "fast", "a saved valid value wins")
        XCTAssertEqual(options.values["speed"], "1x", "a saved value the core doesn't offer is ignored")
        XCTAssertFalse(options.set("ludicrous", for: "speed"))
        XCTAssertTrue(options.set("2x", for: "speed"))
        let saved = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: file))
        XCTAssertEqual(saved["speed"], "2x")
        XCTAssertEqual(options.cValue(for: "speed").map { String(cString: $0) }, "2x")
    }
}
