import Foundation
import XCTest
@testable import Shell

/// Issue 11, item 2: two ROMs with the same file name must not share a battery save or states.
final class GameKeyIndexTests: XCTestCase {
    func testSameNamedROMsGetTheirOwnNamesAndTheFirstKeepsThePlainOnes() throws {
        let folder = try TemporaryFolder("game-keys")
        defer { folder.remove() }
        let data = folder.file("data")
        func rom(_ path: String) throws -> URL {
            let url = folder.file(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data([1]).write(to: url)
            return url
        }
        let a = try rom("a/Game.gbc"), b = try rom("b/Game.gbc")
        let first = GameKeyIndex.names(forROM: a, console: "gbc", data: data)
        XCTAssertEqual(first, .init(key: "Game", batterySave: "Game"), "the first keeps RetroArch's names")
        let second = GameKeyIndex.names(forROM: b, console: "gbc", data: data)
        XCTAssertNotEqual(second.key, "Game")
        XCTAssertTrue(second.key.hasPrefix("Game ["), second.key)
        XCTAssertEqual(second.batterySave, second.key)
        XCTAssertEqual(GameKeyIndex.names(forROM: a, console: "gbc", data: data), first, "stable")
        XCTAssertEqual(GameKeyIndex.names(forROM: b, console: "gbc", data: data), second, "stable")
        XCTAssertEqual(GameKeyIndex.names(forROM: b, console: "nes", data: data).key, "Game", "another console's folder")

        // Names that only sanitizing or the byte limit makes equal.
        let colon = try rom("c/Mega: Man.gbc"), underscore = try rom("c/Mega_ Man.gbc")
        XCTAssertNotEqual(GameKeyIndex.names(forROM: colon, console: "gbc", data: data).key,
                          GameKeyIndex.names(forROM: underscore, console: "gbc", data: data).key)
        let long = String(repeating: "x", count: 200)
        let long1 = try rom("d/\(long)1.gbc"), long2 = try rom("d/\(long)2.gbc")
        let key1 = GameKeyIndex.names(forROM: long1, console: "gbc", data: data).key
        let key2 = GameKeyIndex.names(forROM: long2, console: "gbc", data: data).key
        XCTAssertNotEqual(key1, key2)
        XCTAssertLessThanOrEqual(key2.utf8.count, FileNameSanitizer.maximumBytes)

        // The plain name's ROM moved away: the next new one takes it; the suffixed one stays.
        try FileManager.default.removeItem(at: a)
        let moved = try rom("e/Game.gbc")
        XCTAssertEqual(GameKeyIndex.names(forROM: moved, console: "gbc", data: data).key, "Game")
        XCTAssertEqual(GameKeyIndex.names(forROM: b, console: "gbc", data: data), second)
    }
}
