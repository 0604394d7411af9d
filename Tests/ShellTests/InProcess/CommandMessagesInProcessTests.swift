import Emulation
import Foundation
import PhosphorKit
import TestSupport
import XCTest
@testable import Shell

/// The command line's and the first screen's one-line messages: options without a ROM, a
/// missing `--core`, a broken `config.json`.
final class CommandMessagesInProcessTests: XCTestCase {
    private static let brokenConfig = "{\n  \"audio\": {,\n}\n"

    private func writeBrokenConfig(_ paths: PhosphorPaths) throws {
        try FileManager.default.createDirectory(at: paths.configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(Self.brokenConfig.utf8).write(to: paths.configFile)
    }

    func testOptionsWithoutAROMOpenTheBrowserWithThoseOptions() throws {
        guard case .browser(let overrides) = try PlayCommand.request(["--no-audio", "--color", "256"], browserWithoutROM: true) else {
            return XCTFail("phosphor --no-audio did not ask for the browser")
        }
        XCTAssertTrue(overrides.noAudio)
        XCTAssertEqual(overrides.colorMode, "256")
        // `phosphor play` without a ROM is still a usage error.
        XCTAssertThrowsError(try PlayCommand.request(["--no-audio"], browserWithoutROM: false)) { error in
            XCTAssertEqual((error as? CommandLineArguments.UsageError)?.description, "play needs exactly one ROM")
        }
        // A bad option value is refused either way.
        XCTAssertThrowsError(try PlayCommand.request(["--color", "mauve"], browserWithoutROM: true))
    }

    func testMissingCoreIsOneLineNamingTheFileBeforeTheScreenOpens() throws {
        let rom = BrowserInProcessTests.bundledROM("nes/phosphor-test.nes")
        XCTAssertThrowsError(try PlayCommand.request(["--core", "/nonexistent/fceumm_libretro.so", rom.path],
                                                     browserWithoutROM: true)) { error in
            let line = ErrorText.line(error)
            XCTAssertEqual(line, "cannot play phosphor-test.nes: the core /nonexistent/fceumm_libretro.so does not exist; "
                           + "give --core the path of an installed core (phosphor cores lists them)")
            XCTAssertFalse(line.contains("PATH"), line)
        }
    }

    func testUnknownConsoleWithAnExplicitCoreDoesNotAskForTheCoreAgain() {
        let line = "\(EmulationError.unknownSystemForCore(file: "mystery.bin", core: "some_libretro.so"))"
        XCTAssertTrue(line.hasPrefix("mystery.bin: "), line)
        XCTAssertFalse(line.contains("--core"), line)
        XCTAssertFalse("\(EmulationError.unknownSystem(file: "mystery.bin"))".contains("PATH"))
        XCTAssertFalse("\(EmulationError.noCore(system: "NES"))".contains("PATH"))
    }

    func testBrokenConfigIsShownOnceInTheBrowsersStatusLine() throws {
        let harness = try AppHarness(columns: 240, label: "config-browser", configure: writeBrokenConfig)
        defer { harness.finish() }
        try harness.startBrowser()
        let expected = "\(harness.paths.configFile.path), line 2: not valid JSON"
        harness.step(untilText: expected)
        XCTAssertTrue(harness.screen.contains("using default settings"), harness.screen.text)
        // Once: a game started from here does not show it again.
        XCTAssertNil(harness.services.takeConfigNotice())
    }

    func testBrokenConfigIsShownAsThePlayScreensNotice() throws {
        let harness = try PlayHarness(columns: 240, label: "config-play", configure: writeBrokenConfig)
        defer { harness.finish() }
        harness.app.step(untilText: "\(harness.paths.configFile.path), line 2: not valid JSON")
        XCTAssertNil(harness.app.services.takeConfigNotice())
    }
}
