import Emulation
import Foundation
import PhosphorKit
import TestSupport
import XCTest
@testable import Shell

/// Optional BIOS files the core's `.info` lists but the system folder lacks: one notice on the
/// play screen's status bar at start, counting them (the log names each).
final class FirmwareNoticeInProcessTests: XCTestCase {
    private let firmware = [
        CoreInfo.Firmware(path: "present.bin", description: "present.bin (Here)", isOptional: true),
        CoreInfo.Firmware(path: "extra.bin", description: "extra.bin (Extra BIOS)", isOptional: true),
        CoreInfo.Firmware(path: "sub/more.rom", description: "more.rom (More BIOS)", isOptional: true),
    ]

    func testMissingOptionalBIOSFilesGetOneNoticeCountingThem() throws {
        let game = try PlayHarness(label: "bios-optional", firmware: firmware) { paths in
            try FileManager.default.createDirectory(at: paths.system, withIntermediateDirectories: true)
            try Data([1]).write(to: paths.system.appendingPathComponent("present.bin"))
        }
        defer { game.finish() }
        game.app.step(until: "the BIOS notice") {
            $0.lines.last?.contains("2 optional BIOS files missing for Scripted Core (see phosphor cores)") ?? false
        }
        XCTAssertFalse(game.screen.contains("extra.bin"), "the files are named in the log, not the status bar")
        game.stepUntilPicture([])
    }

    func testNoNoticeWhenEveryOptionalFileIsThere() throws {
        let game = try PlayHarness(label: "bios-present", firmware: [firmware[0]]) { paths in
            try FileManager.default.createDirectory(at: paths.system, withIntermediateDirectories: true)
            try Data([1]).write(to: paths.system.appendingPathComponent("present.bin"))
        }
        defer { game.finish() }
        game.stepUntilPicture([])
        game.app.run(steps: 20)
        XCTAssertFalse(game.screen.contains("BIOS"), game.screen.lines.last ?? "")
    }
}
