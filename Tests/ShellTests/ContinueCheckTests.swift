import Foundation
import XCTest
import PhosphorKit
@testable import Shell

/// `ContinueCheck`: when Continue skips the automatic state so the newer `.srm` stays.
final class ContinueCheckTests: XCTestCase {
    private let game = GameIdentity(key: "Game", system: .gb, romSize: 32768, coreName: "Gambatte", coreVersion: "1")

    func testRecordedChecksumDecidesAndALegacySidecarFallsBackToTheClock() throws {
        let folder = try TemporaryFolder("continue-check")
        defer { folder.remove() }
        let srm = folder.url.appendingPathComponent("Game.srm")
        try Data([1, 2, 3]).write(to: srm)
        let taken = Date()
        let recorded = StateMetadata(game: game, slot: .auto, created: taken, state: [9],
                                     batterySaveChecksum: ContinueCheck.checksum(of: srm))
        XCTAssertNil(ContinueCheck.reasonToSkip(recorded, batterySave: srm))
        try Data([1, 2, 4]).write(to: srm)
        XCTAssertNotNil(ContinueCheck.reasonToSkip(recorded, batterySave: srm))
        XCTAssertNil(ContinueCheck.reasonToSkip(recorded, batterySave: nil), "a game without battery RAM")

        // A sidecar from before checksums were recorded: an .srm written well after the state wins.
        var legacy = recorded
        legacy.batterySaveChecksum = nil
        try FileManager.default.setAttributes([.modificationDate: taken.addingTimeInterval(1)], ofItemAtPath: srm.path)
        XCTAssertNil(ContinueCheck.reasonToSkip(legacy, batterySave: srm))
        try FileManager.default.setAttributes([.modificationDate: taken.addingTimeInterval(60)], ofItemAtPath: srm.path)
        XCTAssertNotNil(ContinueCheck.reasonToSkip(legacy, batterySave: srm))
    }
}
