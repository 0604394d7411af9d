import Foundation
import XCTest
@testable import Emulation
import PhosphorKit

/// The table of per-core facts: how the user's enabled cheats become retro_cheat_set calls per
/// core (measured behaviour: README, "Cheat codes"), default options, ranks, display names.
final class CoreProfileTests: XCTestCase {
    private func code(_ text: String, _ system: GameSystem) throws -> CheatCode {
        try CheatCodeValidator.validate(text, for: system)
    }

    func testOneCallPerCheatKeepsTheListPositions() throws {
        let support = CoreProfile.named("nestopia").cheatSupport(displayName: "Nestopia")
        XCTAssertTrue(support.isSupported)
        let calls = support.coreCheats(for: [(0, try code("ZAZKAP", .nes)), (3, try code("C179:2A C128:02", .nes))])
        XCTAssertEqual(calls, [CoreCheat(index: 0, code: "ZAZKAP"), CoreCheat(index: 3, code: "C179:2A+C128:02")])
    }

    func testGambatteGetsOneGameGenieCallAndOneGameSharkCall() throws {
        // The 2016 gambatte keeps only the codes of its last call and splits them on ';'; both
        // calls are always made (an empty one clears) and retro_cheat_reset is never called.
        let support = CoreProfile.named("gambatte").cheatSupport(displayName: "Gambatte")
        XCTAssertFalse(support.resetsBeforeSetting)
        XCTAssertTrue(CoreProfile.named("nestopia").cheatSupport(displayName: "Nestopia").resetsBeforeSetting)
        let calls = support.coreCheats(for: [(0, try code("E03-D5F", .gbc)),
                                             (1, try code("010843FF", .gbc)),
                                             (2, try code("1F3-DDF 010040FF", .gbc))])
        XCTAssertEqual(calls, [CoreCheat(index: 0, code: "E03-D5F;1F3-DDF"), CoreCheat(index: 1, code: "010843FF;010040FF")])
        XCTAssertEqual(support.coreCheats(for: [(4, try code("010843FF", .gbc))]),
                       [CoreCheat(index: 0, code: "-"), CoreCheat(index: 1, code: "010843FF")])
        XCTAssertEqual(support.coreCheats(for: []), [CoreCheat(index: 0, code: "-"), CoreCheat(index: 1, code: "")])
    }

    func testPCEngineCoreSaysItIgnoresCheats() throws {
        let support = CoreProfile.named("mednafen_pce_fast").cheatSupport(displayName: "Beetle PCE Fast")
        XCTAssertFalse(support.isSupported)
        XCTAssertEqual(support.unsupportedReason, "Beetle PCE Fast ignores cheat codes (its retro_cheat_set does nothing)")
        XCTAssertEqual(support.coreCheats(for: [(0, try code("ZAZKAP", .nes))]), [])
    }

    func testUnknownCoreGetsTheConventionAndANote() {
        let support = CoreProfile.named("fceumm").cheatSupport(displayName: "FCEUmm")
        XCTAssertTrue(support.isSupported)
        XCTAssertEqual(support.maximumCodeBytes, 255)
        XCTAssertEqual(support.note, "Phosphor has not checked whether FCEUmm applies cheats")
    }
    func testCheatFactsOfTheMeasuredCores() {
        let limits = CoreProfile.known.filter(\.cheatsMeasured).map { ($0.name, $0.maximumCheatCodeBytes) }
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: limits), [
            "nestopia": 255, "bsnes_mercury_performance": 255, "bsnes_mercury_balanced": 255,
            "bsnes_mercury_accuracy": 255, "gambatte": 4095, "mgba": 4095, "desmume": 1023, "mednafen_pce_fast": 0,
        ])
        // Only gambatte skips retro_cheat_reset; only Beetle PCE Fast refuses cheats.
        XCTAssertEqual(CoreProfile.known.filter { $0.quirks.contains(.cheatResetForgetsPatches) }.map(\.name), ["gambatte"])
        XCTAssertEqual(CoreProfile.known.filter { !$0.cheatSupport(displayName: $0.name).resetsBeforeSetting }.map(\.name),
                       ["gambatte"])
        XCTAssertEqual(CoreProfile.known.filter { !$0.cheatSupport(displayName: $0.name).isSupported }.map(\.name),
                       ["mednafen_pce_fast"])
        XCTAssertEqual(CoreProfile.named("gambatte").cheatSupport(displayName: "G").note,
                       "GameShark codes apply only in games that use the VBlank interrupt")
        XCTAssertEqual(CoreProfile.named("mgba").cheatSupport(displayName: "M").note,
                       "a ROM-patch code (GameShark type 6) stays on until the game starts again")
        XCTAssertNil(CoreProfile.named("desmume").cheatSupport(displayName: "D").note)
        XCTAssertEqual(Set(CoreProfile.known.map(\.name)).count, CoreProfile.known.count, "one entry per core")
    }

    func testDefaultOptionsTurnOnDesmumesTouchScreenOnly() {
        XCTAssertEqual(CoreProfile.named("desmume").defaultOptions,
                       ["desmume_pointer_mouse": "enable", "desmume_pointer_type": "touch"])
        XCTAssertEqual(CoreProfile.known.filter { !$0.defaultOptions.isEmpty }.map(\.name), ["desmume"])
        XCTAssertEqual(CoreProfile.named("fceumm").defaultOptions, [:])
    }

    /// The N64's OpenGL cores start at the console's own 320x240 (a terminal shows no more), and a
    /// value the user saved wins.
    func testNintendo64CoresStartAtNativeResolution() throws {
        XCTAssertEqual(CoreProfile.named("mupen64plus_next").startingOptions, ["mupen64plus-43screensize": "320x240"])
        XCTAssertEqual(CoreProfile.named("parallel_n64").startingOptions, ["parallel-n64-screensize": "320x240"])
        let definition = CoreOptions.Definition(key: "mupen64plus-43screensize", description: "Resolution",
                                                values: ["320x240", "640x480"], defaultValue: "640x480")
        let fresh = CoreOptions(file: nil, startingValues: CoreProfile.named("mupen64plus_next").startingOptions)
        fresh.define([definition])
        XCTAssertEqual(fresh.values["mupen64plus-43screensize"], "320x240")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("options-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"mupen64plus-43screensize": "640x480"}"#.utf8).write(to: file)
        let chosen = CoreOptions(file: file, startingValues: CoreProfile.named("mupen64plus_next").startingOptions)
        chosen.define([definition])
        XCTAssertEqual(chosen.values["mupen64plus-43screensize"], "640x480", "the user's saved value wins")
        let info = CoreInfo(path: URL(fileURLWithPath: "/x/mupen64plus_next_libretro.so"),
                            info: ["systemid": "nintendo_64", "database": "Nintendo - Nintendo 64"])
        XCTAssertEqual(info.systems, [.n64])
        XCTAssertEqual(CoreInfo(path: URL(fileURLWithPath: "/x/p.so"), info: ["systemid": "nintendo_64"]).systems, [.n64])
    }

    func testTheCoreGivesItsProfile() {
        let info = CoreInfo(path: URL(fileURLWithPath: "/x/gambatte_libretro.so"), name: "gambatte", displayName: "My Gambatte",
                            systems: [.gb], extensions: ["gb"], needsFullPath: false, supportsNoGame: false,
                            displayVersion: nil, softwareRendered: true)
        XCTAssertEqual(info.profile, CoreProfile.for(core: info))
        XCTAssertEqual(info.profile.name, "gambatte")
        XCTAssertEqual(info.cheatSupport.calls, .gambatteMerged)
        XCTAssertEqual(CoreProfile.named("mystery"), CoreProfile.unmeasured(name: "mystery"))
        XCTAssertEqual(CoreProfile.named("mystery").cheatSupport(displayName: "Mystery").note,
                       "Phosphor has not checked whether Mystery applies cheats")
    }

    func testCatalogOrdersCoresByTheirProfileRank() {
        func core(_ name: String, _ systems: [GameSystem]) -> CoreInfo {
            CoreInfo(path: URL(fileURLWithPath: "/x/\(name)_libretro.so"), name: name, displayName: name, systems: systems,
                     extensions: [], needsFullPath: false, supportsNoGame: false, displayVersion: nil, softwareRendered: true)
        }
        let catalog = CoreCatalog(cores: [core("mystery", [.gb]), core("mgba", [.gb, .gba]), core("sameboy", [.gb]),
                                          core("gambatte", [.gb]), core("vba_next", [.gba])])
        XCTAssertEqual(catalog.cores(for: .gb).map(\.name), ["gambatte", "sameboy", "mgba", "mystery"])
        XCTAssertEqual(catalog.cores(for: .gba).map(\.name), ["mgba", "vba_next"])
        XCTAssertEqual(catalog.core(for: .gb, preferring: "mgba")?.name, "mgba")
        XCTAssertEqual(CoreProfile.named("mystery").rank(for: .gb), 100)
    }

    func testACoreWithoutInfoFileGetsItsKnownDisplayName() {
        let folder = URL(fileURLWithPath: "/nonexistent-\(UUID())")
        XCTAssertEqual(CoreCatalog.describe(library: folder.appendingPathComponent("melonds_libretro.so"), infoFolders: []).displayName,
                       "melonDS")
        XCTAssertEqual(CoreCatalog.describe(library: folder.appendingPathComponent("mednafen_pce_fast_libretro.so"),
                                            infoFolders: []).displayName, "Beetle PCE Fast")
        XCTAssertEqual(CoreCatalog.describe(library: folder.appendingPathComponent("mystery_libretro.so"), infoFolders: []).displayName,
                       "mystery")
    }
}
