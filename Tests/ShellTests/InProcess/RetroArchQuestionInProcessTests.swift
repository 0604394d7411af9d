import Foundation
import TestSupport
import XCTest
@testable import Shell

/// The browser's first-run question about RetroArch's folders (issue 16): asked once when the
/// user has `~/.config/retroarch` and nothing was chosen, the answer saved in `config.json`.
final class RetroArchQuestionInProcessTests: XCTestCase {
    func testAskedWhenRetroArchIsThereAndTheAnswerIsSaved() throws {
        let home = try TemporaryFolder("retroarch-home")
        defer { home.remove() }
        try FileManager.default.createDirectory(at: home.url.appendingPathComponent(".config/retroarch"), withIntermediateDirectories: true)
        let harness = try AppHarness(label: "retroarch-question", environment: ["HOME": home.url.path])
        defer { harness.finish() }
        try harness.startBrowser()
        harness.step(until: "the question") { $0.contains("RetroArch found") && $0.contains("Use RetroArch's folders") }
        harness.type("\r")  // the first answer: share
        harness.step(until: "the question closed") { !$0.contains("RetroArch found") }
        let saved = try String(contentsOf: harness.paths.configFile, encoding: .utf8)
        XCTAssertTrue(saved.contains(#""retroArchFolders" : "share""#), saved)
        XCTAssertTrue(harness.services.config.sharesRetroArchFolders)
    }

    func testNotAskedWithoutRetroArchAfterAnAnswerOrInAPhosphorHome() throws {
        let home = try TemporaryFolder("retroarch-home")
        defer { home.remove() }
        let environment = ["HOME": home.url.path]
        XCTAssertFalse(RetroArchFolders.shouldAsk(config: PhosphorConfig(), environment: environment), "no RetroArch folder")
        try FileManager.default.createDirectory(at: home.url.appendingPathComponent(".config/retroarch"), withIntermediateDirectories: true)
        XCTAssertTrue(RetroArchFolders.shouldAsk(config: PhosphorConfig(), environment: environment))
        var answered = PhosphorConfig()
        answered.retroArchFolders = .own
        XCTAssertFalse(RetroArchFolders.shouldAsk(config: answered, environment: environment), "answered before")
        XCTAssertFalse(RetroArchFolders.shouldAsk(config: PhosphorConfig(), environment: environment.merging(["PHOSPHOR_HOME": "/x"]) { $1 }),
                       "a layout of its own never looks at the user's RetroArch")
    }
}
