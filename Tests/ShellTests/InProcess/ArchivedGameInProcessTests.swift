import Emulation
import Foundation
import PhosphorKit
import TestSupport
import XCTest
@testable import Shell

/// A game inside a zip started from the browser is named after the archive (issue 16): its
/// lock and automatic state are `My Game.*`, not the inner file's name.
final class ArchivedGameInProcessTests: XCTestCase {
    func testAZippedGameFromTheLibraryIsNamedAfterTheArchive() throws {
        let roms = try TemporaryFolder("archived-roms")
        defer { roms.remove() }
        let inner = roms.url.appendingPathComponent("Inner Name.nes")
        try FileManager.default.copyItem(at: BrowserInProcessTests.bundledROM("nes/phosphor-test.nes"), to: inner)
        let zip = Process()
        zip.executableURL = URL(fileURLWithPath: "/usr/bin/zip")
        zip.arguments = ["-q", "-j", roms.url.appendingPathComponent("My Game.zip").path, inner.path]
        try zip.run()
        zip.waitUntilExit()
        XCTAssertEqual(zip.terminationStatus, 0)
        try FileManager.default.removeItem(at: inner)

        let core = CoreInfo(path: URL(fileURLWithPath: "/nonexistent/scripted_libretro.so"), name: "scripted",
                            displayName: "Scripted Core", systems: [.nes], extensions: ["nes"], needsFullPath: false,
                            supportsNoGame: false, displayVersion: "1.0", softwareRendered: true)
        let harness = try AppHarness(label: "archived-browser", catalog: CoreCatalog(cores: [core]))
        defer { harness.finish() }
        harness.services.overrides.makeCore = ScriptedCore.maker(ScriptedCore.Script(title: "phosphor-test"), journal: ScriptedCore.Journal())
        try harness.startBrowser()
        harness.step(until: "the bundled cartridges") { $0.contains("6 of 6") }
        harness.type("\u{01}")  // Ctrl-A: add the folder with the zip
        harness.step(untilText: "Add Folder")
        harness.type("\u{1B}[200~\(roms.url.path)\u{1B}[201~\r")
        harness.step(until: "the zipped game listed") { $0.contains("7 of 7") }
        harness.type("Inner")
        harness.step(until: "only the zipped game") { $0.contains("Inner▏") && $0.contains("1 of") }
        harness.type("\r")
        let lock = harness.paths.states.appendingPathComponent("nes/My Game.lock")
        harness.step(until: "the game running under the archive's name") { _ in FileManager.default.fileExists(atPath: lock.path) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: harness.paths.states.appendingPathComponent("nes/Inner Name.lock").path))
    }
}
