import Foundation
import TestSupport
import XCTest

/// BIOS files a core's `.info` lists, checked before the core loads (issue 16), with the
/// project's own fixture core (Tests/Fixtures/crashcore) and an info file of the test's own.
final class FirmwareCheckTests: XCTestCase {
    var phosphor: PhosphorProcess!

    override func setUpWithError() throws { phosphor = try PhosphorProcess() }
    override func tearDown() { phosphor.cleanUp() }

    /// `biosneeder_libretro.so` (crashcore, which runs any ROM) with an info file listing a
    /// required and an optional BIOS.
    private func coreNeedingABIOS() throws -> URL {
        let folder = phosphor.home.appendingPathComponent("cores")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let library = folder.appendingPathComponent("biosneeder_libretro.so")
        let source = PhosphorProcess.packageRoot.appendingPathComponent("Tests/Fixtures/crashcore/crashcore.c")
        let compile = try ToolRun.run(["cc", "-shared", "-fPIC", "-O1", "-o", library.path, source.path])
        XCTAssertEqual(compile.status, 0, "cc crashcore.c: \(compile.output)")
        try Data("""
            display_name = "BIOS Needer"
            supported_extensions = "gb|gbc"
            database = "Nintendo - Game Boy Color"
            firmware_count = 2
            firmware0_desc = "needed.bin (Test BIOS)"
            firmware0_path = "needed.bin"
            firmware0_opt = "false"
            firmware1_desc = "extra.bin (Extra BIOS)"
            firmware1_path = "extra.bin"
            firmware1_opt = "true"
            """.utf8).write(to: folder.appendingPathComponent("biosneeder_libretro.info"))
        return library
    }

    func testAMissingRequiredBIOSIsOneLineNamingTheFileAndTheFolder() throws {
        let core = try coreNeedingABIOS()
        let system = phosphor.home.appendingPathComponent("data/system")
        let rom = PhosphorProcess.rom("gb/phosphor-test.gbc").path
        let environment = ["CRASHCORE_FRAMES": "100000"]
        let refused = try phosphor.run(["run", "--headless", "--frames", "10", "--core", core.path, rom], environment: environment)
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.standardError,
                       "phosphor: BIOS Needer needs needed.bin (Test BIOS) in \(system.path)\n")
        XCTAssertEqual(refused.standardOutput, "")

        let listed = try phosphor.run(["cores"], environment: ["PHOSPHOR_CORE_PATH": core.deletingLastPathComponent().path])
        XCTAssertTrue(listed.standardOutput.contains("BIOS: REQUIRED missing: needed.bin; optional missing: extra.bin (in \(system.path))"),
                      listed.standardOutput)

        // Put there, the game runs; the optional one missing is only a notice in the log.
        try FileManager.default.createDirectory(at: system, withIntermediateDirectories: true)
        try Data([0]).write(to: system.appendingPathComponent("needed.bin"))
        let played = try phosphor.run(["run", "--headless", "--frames", "10", "--core", core.path, rom], environment: environment)
        XCTAssertEqual(played.status, 0, played.standardError)
        XCTAssertTrue(played.lastLine.hasPrefix("frames=10 "), played.standardOutput)
        let log = try String(contentsOf: phosphor.home.appendingPathComponent("data/phosphor.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("BIOS Needer: optional BIOS not in \(system.path): extra.bin"), log)
        let relisted = try phosphor.run(["cores"], environment: ["PHOSPHOR_CORE_PATH": core.deletingLastPathComponent().path])
        XCTAssertTrue(relisted.standardOutput.contains("BIOS: optional missing: extra.bin"), relisted.standardOutput)
    }
}
