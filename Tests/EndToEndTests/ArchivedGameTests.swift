import Foundation
import TestSupport
import XCTest

/// Games inside `.zip` and `.7z` from the command line, named after the archive as RetroArch
/// names them (`My Game.zip` → `My Game.srm`), and the move of a battery save named after the
/// inner file by earlier versions (issue 16).
final class ArchivedGameTests: XCTestCase {
    var phosphor: PhosphorProcess!
    var tmux: TmuxSession?

    override func setUpWithError() throws { phosphor = try PhosphorProcess() }
    override func tearDown() {
        tmux?.stop()
        phosphor.cleanUp()
    }

    var saves: URL { phosphor.home.appendingPathComponent("data/saves/gbc") }

    /// `My Game.<kind>` holding the GBC test cartridge as `Inner Name.gbc` (and `extra` files).
    private func archive(_ kind: String, name: String = "My Game", extra: [URL] = []) throws -> URL {
        let folder = phosphor.home.appendingPathComponent("roms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let inner = folder.appendingPathComponent("Inner Name.gbc")
        try FileManager.default.copyItem(at: PhosphorProcess.rom("gb/phosphor-test.gbc"), to: inner)
        let archive = folder.appendingPathComponent("\(name).\(kind)")
        let files = [inner.lastPathComponent] + extra.map(\.path)
        let command = kind == "zip" ? ["zip", "-q", "-j", archive.path] + files : ["7z", "a", "-bd", "-bso0", archive.path] + files
        let result = try ToolRun.run(command, in: folder)
        XCTAssertEqual(result.status, 0, result.output)
        try FileManager.default.removeItem(at: inner)
        return archive
    }

    private func headless(_ rom: URL) throws -> PhosphorProcess.Outcome {
        let outcome = try phosphor.run(["run", "--headless", "--frames", "30", rom.path])
        XCTAssertEqual(outcome.status, 0, "stderr: \(outcome.standardError)")
        return outcome
    }

    /// The GB cartridge's boot counter in a battery save (offset 4, 16-bit little-endian).
    private func bootCount(_ file: URL) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: file))
        return Int(bytes[4]) | Int(bytes[5]) << 8
    }

    func testZipAnd7zRunHeadlessLikeTheROMAndAreNamedAfterTheArchive() throws {
        let plain = try headless(PhosphorProcess.rom("gb/phosphor-test.gbc")).fields["hash"]
        for kind in ["zip", "7z"] {
            try? FileManager.default.removeItem(at: saves)
            let game = try archive(kind)
            XCTAssertEqual(try headless(game).fields["hash"], plain, "\(kind): the game inside plays as the ROM does")
            _ = try headless(game)  // boots again: the counter (in the picture too) goes to 2
            let srm = saves.appendingPathComponent("My Game.srm")
            XCTAssertEqual(try bootCount(srm), 2, "\(kind): one battery save named after the archive, kept across runs")
            XCTAssertFalse(FileManager.default.fileExists(atPath: saves.appendingPathComponent("Inner Name.srm").path))
            // The index gives every file its own names: drop it so the next archive kind gets the plain name too.
            try FileManager.default.removeItem(at: phosphor.home.appendingPathComponent("data/game-keys.json"))
        }
    }

    func testArchivesWithoutOneGameGiveOneLineErrors() throws {
        let second = phosphor.home.appendingPathComponent("second.nes")
        try FileManager.default.copyItem(at: PhosphorProcess.rom("nes/phosphor-test.nes"), to: second)
        let two = try archive("zip", name: "Two", extra: [second])
        let outcome = try phosphor.run(["run", "--headless", "--frames", "3", two.path])
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.standardError.split(separator: "\n").last.map(String.init),
                       "phosphor: Two.zip holds 2 games; add its folder to the library (phosphor add DIR) and pick one in the browser")

        let junk = phosphor.home.appendingPathComponent("junk.7z")
        try Data("not an archive".utf8).write(to: junk)
        let refused = try phosphor.run(["play", junk.path])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.standardError.hasPrefix("phosphor: junk.7z: no game inside"), refused.standardError)
        XCTAssertEqual(refused.standardError.split(separator: "\n").count, 1)
    }

    /// Before, a zipped game was named after its inner file. Its `.srm` moves to the archive's
    /// name (RetroArch's); when both exist neither is touched and the archive's is used.
    func testBatterySaveNamedAfterTheInnerFileMovesToTheArchiveName() throws {
        let game = try archive("zip")
        _ = try headless(game)
        // What an earlier version did: the extracted file itself was the game.
        let extracted = try XCTUnwrap(FileManager.default.enumerator(atPath: phosphor.home.appendingPathComponent("data/extracted").path)?
            .compactMap { $0 as? String }.first { $0.hasSuffix("/Inner Name.gbc") })
        try FileManager.default.removeItem(at: saves)
        try FileManager.default.removeItem(at: phosphor.home.appendingPathComponent("data/game-keys.json"))
        _ = try headless(phosphor.home.appendingPathComponent("data/extracted").appendingPathComponent(extracted))
        _ = try headless(phosphor.home.appendingPathComponent("data/extracted").appendingPathComponent(extracted))
        let former = saves.appendingPathComponent("Inner Name.srm")
        XCTAssertEqual(try bootCount(former), 2)

        _ = try headless(game)
        let current = saves.appendingPathComponent("My Game.srm")
        XCTAssertEqual(try bootCount(current), 3, "the old save moved to the archive's name and went on counting")
        XCTAssertFalse(FileManager.default.fileExists(atPath: former.path))

        // Both names have a file: nothing is overwritten.
        let other = Data([0x50, 0x48, 0x4F, 0x53, 40, 0] + [UInt8](repeating: 0, count: 8192 - 6))
        try other.write(to: former)
        _ = try headless(game)
        XCTAssertEqual(try Data(contentsOf: former), other, "the other save is kept as it was")
        XCTAssertEqual(try bootCount(current), 4, "the archive's own save is the one played")
    }

    func testPlayOpensAZippedGameInTheTerminal() throws {
        let game = try archive("zip")
        let session = try TmuxSession(arguments: ["play", "--no-audio", "--frames", "60", game.path], home: phosphor.home)
        tmux = session
        XCTAssertEqual(try session.waitForExit(), 0)
        XCTAssertEqual(try bootCount(saves.appendingPathComponent("My Game.srm")), 1)
    }
}
