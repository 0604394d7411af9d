import Foundation
import XCTest
@testable import Library

final class RetroArchDatabaseTests: XCTestCase {
    func testMessagePackValuesOfEveryWidthRoundTrip() throws {
        let values: [MessagePackValue] = [
            .null, .bool(true), .bool(false), .uint(0), .uint(127), .uint(200), .uint(65_000), .uint(4_000_000_000),
            .uint(UInt64.max), .int(-1), .int(-32), .int(-100), .int(-30_000), .int(-2_000_000_000), .int(Int64.min),
            .string(""), .string("Pokémon"), .string(String(repeating: "x", count: 40)), .string(String(repeating: "y", count: 300)),
            .binary([0x46, 0xDF, 0x91, 0xAD]), .binary([UInt8](repeating: 7, count: 70_000)),
            .array([.uint(1), .string("a")]), .array((0..<20).map { .uint(UInt64($0)) }),
            .map([(.string("k"), .map([(.string("inner"), .int(-5))]))]),
            .map((0..<20).map { (.string("key\($0)"), .uint(UInt64($0))) }),
        ]
        for wide in [false, true] {
            var writer = MessagePackWriter(wide: wide)
            values.forEach { writer.write($0) }
            var reader = MessagePackReader(bytes: writer.bytes)
            for value in values { XCTAssertEqual(try reader.readValue(), value) }
            XCTAssertTrue(reader.isAtEnd)
        }
    }

    func testTruncatedOrUnknownMessagePackThrows() {
        var writer = MessagePackWriter()
        writer.write(.map([(.string("name"), .string("Tetris (World)"))]))
        for cut in 1..<writer.bytes.count {
            var reader = MessagePackReader(bytes: Array(writer.bytes[0..<cut]))
            XCTAssertThrowsError(try reader.readValue(), "cut at \(cut)")
        }
        var reader = MessagePackReader(bytes: [0xC1])
        XCTAssertThrowsError(try reader.readValue()) { XCTAssertEqual($0 as? MessagePackError, .unsupportedType(0xC1, offset: 0)) }
        // A map32 header claiming four billion pairs in a few bytes: refused, not allocated.
        reader = MessagePackReader(bytes: [0xDF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        XCTAssertThrowsError(try reader.readValue())
        // Nesting without end: refused before the stack runs out.
        reader = MessagePackReader(bytes: [UInt8](repeating: 0x91, count: 10_000))
        XCTAssertThrowsError(try reader.readValue()) { XCTAssertEqual($0 as? MessagePackError, .tooDeep(offset: 32)) }
    }

    func testDatabaseEntriesKeepNameROMNameAndCRC() throws {
        for wide in [false, true] {
            let bytes = retroArchDatabase([
                databaseRecord(name: "Tetris (World) (Rev 1)", romName: "Tetris (World) (Rev 1).gb", crc: 0x46DF_91AD),
                databaseRecord(name: "No CRC (Japan)"),
                .map([(.string("description"), .string("a record without a name"))]),
            ], wide: wide)
            let database = try RetroArchDatabase(bytes: bytes)
            XCTAssertEqual(database.entries, [
                .init(name: "Tetris (World) (Rev 1)", romName: "Tetris (World) (Rev 1).gb", crc32: 0x46DF_91AD),
                .init(name: "No CRC (Japan)"),
            ])
        }
    }

    func testDamagedDatabasesThrowWhatIsWrong() throws {
        let good = retroArchDatabase((0..<5).map { databaseRecord(name: "Game \($0)", crc: UInt32($0 + 1)) })
        XCTAssertEqual(try RetroArchDatabase(bytes: good).entries.count, 5)
        XCTAssertThrowsError(try RetroArchDatabase(bytes: Array("RARCHDX\0".utf8) + Array(good[8...]))) {
            XCTAssertEqual($0 as? RetroArchDatabaseError, .notADatabase)
        }
        // Cut anywhere: an error, never a partial list.
        for cut in stride(from: 0, to: good.count - 1, by: 7) {
            XCTAssertThrowsError(try RetroArchDatabase(bytes: Array(good[0..<cut])), "cut at \(cut)")
        }
        let miscounted = retroArchDatabase([databaseRecord(name: "A", crc: 1)], declaredCount: 3)
        XCTAssertThrowsError(try RetroArchDatabase(bytes: miscounted)) {
            XCTAssertEqual($0 as? RetroArchDatabaseError, .countMismatch(declared: 3, found: 1))
        }
        XCTAssertThrowsError(try RetroArchDatabase(bytes: retroArchDatabase([.string("not a record")]))) {
            XCTAssertEqual($0 as? RetroArchDatabaseError, .recordNotAMap(index: 0))
        }
    }

    func testPlaylistsInJSONAndTheOldSixLineFormat() throws {
        let json = """
        {
          "version": "1.5",
          "default_core_path": "",
          "items": [
            {"path": "/roms/tetris.gb", "label": "Tetris (World) (Rev 1)", "core_path": "DETECT", "core_name": "DETECT",
             "crc32": "46DF91AD|crc", "db_name": "Nintendo - Game Boy.lpl"},
            {"path": "/roms/set.zip#inner/zelda.gbc", "label": "Zelda (USA)", "crc32": "DETECT", "db_name": ""},
            {"path": "/roms/nolabel.gb", "label": ""}
          ]
        }
        """
        let playlist = try RetroArchPlaylist(data: Data(json.utf8))
        XCTAssertEqual(playlist.items, [
            .init(path: "/roms/tetris.gb", label: "Tetris (World) (Rev 1)", crc32: 0x46DF_91AD, databaseName: "Nintendo - Game Boy"),
            .init(path: "/roms/set.zip#inner/zelda.gbc", label: "Zelda (USA)"),
        ])
        XCTAssertEqual(playlist.items.map(\.fileName), ["tetris.gb", "zelda.gbc"])

        let old = "/roms/tetris.gb\nTetris (World) (Rev 1)\nDETECT\nDETECT\n46DF91AD|crc\nNintendo - Game Boy.lpl\n"
            + "/roms/b.gb\r\nB (Japan)\r\nDETECT\r\nDETECT\r\n00000000|crc\r\nNintendo - Game Boy.lpl\r\n"
        XCTAssertEqual(try RetroArchPlaylist(data: Data(old.utf8)).items, [
            .init(path: "/roms/tetris.gb", label: "Tetris (World) (Rev 1)", crc32: 0x46DF_91AD, databaseName: "Nintendo - Game Boy"),
            .init(path: "/roms/b.gb", label: "B (Japan)", crc32: nil, databaseName: "Nintendo - Game Boy"),
        ])
        XCTAssertThrowsError(try RetroArchPlaylist(data: Data("{\"items\": [".utf8)))
        XCTAssertThrowsError(try RetroArchPlaylist(data: Data("{\"version\": \"1.5\"}".utf8))) {
            XCTAssertEqual($0 as? RetroArchPlaylistError, .noItems)
        }
        XCTAssertThrowsError(try RetroArchPlaylist(data: Data("/roms/a.gb\nA\nDETECT\n".utf8))) {
            XCTAssertEqual($0 as? RetroArchPlaylistError, .oldFormatCutShort(lines: 3))
        }
    }
}
