import Foundation
import XCTest
import PhosphorKit
@testable import Shell

final class ConfigStoreTests: XCTestCase {
    func testMissingFileGivesDefaultsAndSaveCreatesIt() throws {
        let folder = try TemporaryFolder("config-missing")
        defer { folder.remove() }
        let file = folder.file("config/config.json")
        var store = ConfigStore.load(from: file)
        XCTAssertNil(store.loadError)
        XCTAssertEqual(store.config, PhosphorConfig.defaults)
        XCTAssertTrue(store.canSave)
        store.config.audio.volume = 40
        try store.save()
        XCTAssertEqual(ConfigStore.load(from: file).config.audio.volume, 40)
    }

    func testRoundTripKeepsEverySetting() throws {
        let folder = try TemporaryFolder("config-roundtrip")
        defer { folder.remove() }
        var config = PhosphorConfig()
        config.libraryFolders = ["/roms/nes", "/home/u/Games"]
        config.corePreferences = [.gba: "mgba_libretro.so", .snes: "/opt/cores/bsnes.so"]
        config.video.colorMode = .palette256
        config.video.integerScale = true
        config.video.showStatusBar = false
        config.audio.device = "hw:1,0"
        config.audio.latencyMilliseconds = 48
        config.audio.volume = 0
        config.audio.muted = true
        config.audio.fastForwardAudio = .spedUp
        config.fastForward.speed = .unlimited
        config.fastForward.maximumPerSystem = [.nds: .double]
        config.hold.initialDelayMilliseconds = 700
        config.hold.repeatGapMilliseconds = 90
        config.dsLayout = .singleBottom
        config.lastStateSlots = ["Tetris (World)": 7]
        config.timeline.rewind = false
        config.timeline.rewindGranularity = 4
        config.timeline.rewindBufferMegabytes = 128
        config.timeline.slowMotion = .quarter
        config.timeline.runAheadPerSystem = [.snes: .ahead2, .gb: .preemptive1]
        config.timeline.runAheadPerGame = ["Tetris (World)": .off]
        let store = ConfigStore(file: folder.file("config.json"), config: config)
        try store.save()

        let reloaded = ConfigStore.load(from: folder.file("config.json"))
        XCTAssertNil(reloaded.loadError)
        XCTAssertEqual(reloaded.warnings, [])
        XCTAssertEqual(reloaded.config, config)
        XCTAssertEqual(reloaded.config.fastForward.effectiveSpeed(for: .nds), .double)
        XCTAssertEqual(reloaded.config.fastForward.effectiveSpeed(for: .nes), .unlimited)

        // Pretty-printed with sorted keys, and no temporary file left behind.
        let text = try String(contentsOf: folder.file("config.json"), encoding: .utf8)
        XCTAssertTrue(text.contains("\n  \"audio\""), text)
        let audioIndex = try XCTUnwrap(text.range(of: "\"audio\""))
        let videoIndex = try XCTUnwrap(text.range(of: "\"video\""))
        XCTAssertLessThan(audioIndex.lowerBound, videoIndex.lowerBound)
        XCTAssertEqual(try folder.contents(), ["config.json"])
    }

    func testOlderFileWithMissingKeysGetsDefaults() throws {
        let folder = try TemporaryFolder("config-old")
        defer { folder.remove() }
        let file = try folder.write("""
        {
          "version": 1,
          "audio": { "volume": 55 }
        }
        """, to: "config.json")
        let store = ConfigStore.load(from: file)
        XCTAssertNil(store.loadError)
        var expected = PhosphorConfig()
        expected.audio.volume = 55
        XCTAssertEqual(store.config, expected)
    }

    func testMalformedJSONNamesFileAndLineUsesDefaultsAndNeverOverwrites() throws {
        let folder = try TemporaryFolder("config-malformed")
        defer { folder.remove() }
        let original = """
        {
          "audio": {
            "volume": 55,
          },
          "dsLayout": "stacked"
        }
        """
        let file = try folder.write(original, to: "config.json")
        var store = ConfigStore.load(from: file)
        let error = try XCTUnwrap(store.loadError)
        XCTAssertEqual(error.line, 4)
        XCTAssertTrue(error.description.hasPrefix("\(file.path), line 4: not valid JSON"), error.description)
        XCTAssertFalse(error.description.contains("\n"))
        XCTAssertEqual(store.config, PhosphorConfig.defaults)

        // A later save is refused and leaves the user's bytes exactly as they were.
        store.config.audio.volume = 10
        XCTAssertFalse(store.canSave)
        XCTAssertThrowsError(try store.save()) { thrown in
            XCTAssertTrue("\(thrown)".contains("not saved"), "\(thrown)")
        }
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), original)
        XCTAssertEqual(try folder.contents(), ["config.json"])
    }

    func testWrongTypeNamesKeyAndLine() throws {
        let folder = try TemporaryFolder("config-type")
        defer { folder.remove() }
        let file = try folder.write("""
        {
          "video": {
            "colorMode": "auto",
            "integerScale": "yes"
          }
        }
        """, to: "config.json")
        let store = ConfigStore.load(from: file)
        let error = try XCTUnwrap(store.loadError)
        XCTAssertEqual(error.line, 4)
        XCTAssertEqual(error.problem, "video.integerScale must be true or false, found a string")
        XCTAssertEqual(store.config, PhosphorConfig.defaults)
    }

    func testOutOfRangeValuesAreRejectedWithTheirLine() throws {
        let cases: [(String, Int, String)] = [
            ("{\n\"audio\": {\"volume\": 150}\n}", 2, "audio.volume must be a whole number from 0 to 100 (found 150)"),
            ("{\n\n\"hold\": {\n\"repeatGapMilliseconds\": 2.5}}", 4, "hold.repeatGapMilliseconds must be a whole number from 10 to 1000 (found 2.5)"),
            ("{\"fastForward\": {\"speed\": \"5x\"}}", 1, "fastForward.speed must be one of \"2x\", \"3x\", \"4x\", \"8x\", \"unlimited\" (found \"5x\")"),
            ("{\"lastStateSlots\": {\"Zelda\": 12}}", 1, "lastStateSlots.Zelda must be a whole number from 1 to 9 (found 12)"),
            ("{\"video\": {\"colorMode\": \"8\"}}", 1, "video.colorMode must be one of \"auto\", \"24bit\", \"256\", \"16\" (found \"8\")"),
            ("[1, 2]", 1, "the document must be an object, found a list"),
            ("{\n\"runAhead\": {\"systems\": {\"nes\": \"5\"}}}", 2,
             "runAhead.systems.nes must be one of \"off\", \"1\", \"2\", \"3\", \"4\", \"preemptive-1\", \"preemptive-2\", \"preemptive-3\", \"preemptive-4\" (found \"5\")"),
            ("{\"rewind\": {\"bufferMegabytes\": 0}}", 1, "rewind.bufferMegabytes must be a whole number from 1 to 4096 (found 0)"),
            ("{\"slowMotion\": \"1/3\"}", 1, "slowMotion must be one of \"1/2\", \"1/4\" (found \"1/3\")"),
        ]
        let folder = try TemporaryFolder("config-range")
        defer { folder.remove() }
        for (text, line, problem) in cases {
            let file = try folder.write(text, to: "config.json")
            let store = ConfigStore.load(from: file)
            XCTAssertEqual(store.loadError, UserFileError(file: file, line: line, problem: problem), text)
            XCTAssertEqual(store.config, PhosphorConfig.defaults)
        }
    }

    func testUnknownKeysWarnButTheRestLoads() throws {
        let folder = try TemporaryFolder("config-unknown")
        defer { folder.remove() }
        let file = try folder.write("""
        {
          "vidoe": {},
          "audio": {
            "volume": 30,
            "reverb": true
          },
          "cores": { "saturn": "yabause_libretro.so", "gb": "gambatte_libretro.so" }
        }
        """, to: "config.json")
        let store = ConfigStore.load(from: file)
        XCTAssertNil(store.loadError)
        XCTAssertEqual(store.config.audio.volume, 30)
        XCTAssertEqual(store.config.corePreferences, [.gb: "gambatte_libretro.so"])
        XCTAssertEqual(store.warnings.map(\.line), [2, 5, 7])
        XCTAssertTrue(store.warnings[0].problem.contains("\"vidoe\""), store.warnings[0].problem)
        XCTAssertTrue(store.warnings[1].problem.contains("\"audio.reverb\""))
        XCTAssertTrue(store.warnings[2].problem.contains("\"cores.saturn\""))
        XCTAssertTrue(store.canSave)
    }

    func testHugeFileIsRefusedUnreadAndKept() throws {
        let folder = try TemporaryFolder("config-huge")
        defer { folder.remove() }
        let padding = String(repeating: " ", count: ConfigStore.maximumFileSize)
        let file = try folder.write("{\(padding)}", to: "config.json")
        var store = ConfigStore.load(from: file)
        let error = try XCTUnwrap(store.loadError)
        XCTAssertTrue(error.description.hasPrefix(file.path), error.description)
        XCTAssertTrue(error.problem.contains("limit is 1.0 MiB"), error.problem)
        store.config.video.integerScale = true
        XCTAssertThrowsError(try store.save())
        XCTAssertEqual(try Data(contentsOf: file).count, ConfigStore.maximumFileSize + 2)
    }

    func testFIFOIsRefusedAsNotARegularFileWithoutBlocking() throws {
        let folder = try TemporaryFolder("config-fifo")
        defer { folder.remove() }
        let file = folder.file("config.json")
        XCTAssertEqual(mkfifo(file.path, 0o600), 0, String(cString: strerror(errno)))
        // Reading a FIFO with no writer would block forever; the store must not open it.
        let store = ConfigStore.load(from: file)
        XCTAssertEqual(store.loadError?.description, "\(file.path): is not a regular file")
        XCTAssertFalse(store.canSave)
    }

    func testEncodedDefaultsDecodeToDefaults() throws {
        let bytes = try ConfigStore.encoded(PhosphorConfig.defaults)
        let (config, warnings) = try ConfigStore.decode([UInt8](bytes), file: URL(fileURLWithPath: "/x/config.json"))
        XCTAssertEqual(config, PhosphorConfig.defaults)
        XCTAssertEqual(warnings, [])
    }
}
