import Foundation
import XCTest

/// Every installed Debian core loads the project's cartridge for its system and produces
/// pictures and sound, and the cartridges react to their buttons (issue: foundation).
final class EveryCoreTests: XCTestCase {
    /// Cartridge, the Debian core that plays it, and a button the cartridge shows.
    static let cartridges: [(rom: String, core: String, button: String)] = [
        ("nes/phosphor-test.nes", "nestopia", "a"),
        ("gb/phosphor-test.gbc", "gambatte", "a"),
        ("snes/phosphor-test.sfc", "bsnes_mercury_performance", "a"),
        ("gba/phosphor-test.gba", "mgba", "a"),
        ("pce/phosphor-test.pce", "mednafen_pce_fast", "a"),
        ("ds/phosphor-test.nds", "desmume", "a"),
    ]

    func testEveryInstalledCoreRunsItsCartridge() throws {
        let phosphor = try PhosphorProcess()
        defer { phosphor.cleanUp() }
        let cores = try phosphor.run(["cores"]).standardOutput
        var ran = 0
        for cartridge in Self.cartridges {
            guard cores.contains("/\(cartridge.core)_libretro.so") else { continue }
            ran += 1
            let rom = PhosphorProcess.rom(cartridge.rom).path
            let idle = try phosphor.run(["run", "--headless", "--frames", "120", rom])
            XCTAssertEqual(idle.status, 0, "\(cartridge.rom): \(idle.standardError)")
            let samples = Int(idle.fields["samples"] ?? "") ?? 0
            XCTAssertGreaterThan(samples, 120 * 400, "\(cartridge.rom): about two seconds of audio")
            let script = try phosphor.file("press.txt", Data("0 \(cartridge.button)\n".utf8))
            let pressed = try phosphor.run(["run", "--headless", "--frames", "120", "--input", script.path, rom])
            XCTAssertEqual(pressed.status, 0, pressed.standardError)
            XCTAssertNotEqual(idle.fields["hash"], pressed.fields["hash"], "\(cartridge.rom): the picture reacts to \(cartridge.button)")
        }
        XCTAssertGreaterThanOrEqual(ran, 6, "make deps installs all six Debian cores")
    }
}
