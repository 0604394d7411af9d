import TestSupport
import Foundation
import XCTest

/// Bad files get one clear line naming the file, change nothing, and the program keeps going
/// where it can. (Covered elsewhere: empty/random/Genesis ROMs and truncated states in
/// HeadlessRunTests, wrong-size battery saves there too, archives in LibraryTests, config/skin/
/// state-store unit cases in ShellTests.) These go through the real binary.
final class BadFilesTests: XCTestCase {
    var home: ScratchFolder!
    let gbc = Binaries.rom("gb/phosphor-test.gbc")
    let nes = Binaries.rom("nes/phosphor-test.nes")

    override func setUpWithError() throws { home = try ScratchFolder("bad") }
    override func tearDown() { home.remove() }

    private func phosphor(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        try ChildProcess(Binaries.phosphor, arguments, environment: ["PHOSPHOR_HOME": home.url.path]).finish()
    }

    private func assertOneLineError(_ result: (status: Int32, output: String, error: String), mentions: [String],
                                    _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(result.status > 0 && result.status < 128, "\(label): exits with an error, not a signal (\(result.status))",
                      file: file, line: line)
        let lines = result.error.split(separator: "\n").filter { $0.hasPrefix("phosphor:") }
        XCTAssertEqual(lines.count, 1, "\(label): \(result.error)", file: file, line: line)
        for text in mentions {
            XCTAssertTrue(lines.first?.contains(text) == true, "\(label): mentions \(text): \(result.error)", file: file, line: line)
        }
    }

    /// Every save and state file under the test home, with its bytes.
    private func userFiles() -> [String: Data] {
        var result: [String: Data] = [:]
        let data = home.file("data")
        guard let walker = FileManager.default.enumerator(at: data, includingPropertiesForKeys: nil) else { return result }
        for case let url as URL in walker where !url.hasDirectoryPath && url.lastPathComponent != "phosphor.log" {
            result[url.path] = try? Data(contentsOf: url)
        }
        return result
    }

    func testBadROMsGetOneLineAndChangeNothing() throws {
        let truncated = try home.write("truncated.gbc", try Data(contentsOf: gbc).prefix(300))
        let huge = home.file("huge.gbc")
        XCTAssertTrue(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 600 << 20)  // sparse: no real disk used
        try handle.close()
        let cases: [(URL, [String])] = [(truncated, ["truncated.gbc"]), (huge, ["huge.gbc", "MiB"])]
        for (rom, mentions) in cases {
            let before = userFiles()
            assertOneLineError(try phosphor(["run", "--headless", "--frames", "10", rom.path]), mentions: mentions, "headless \(rom.lastPathComponent)")
            let play = try PTYRun([Binaries.phosphor.path, "play", "--no-audio", rom.path],
                                  environment: ["PHOSPHOR_HOME": home.url.path, "TERM": "xterm-256color", "LANG": "C.UTF-8"],
                                  steps: [.exit(timeout: 20)])
            XCTAssertEqual(play.report.exit, 1, "play \(rom.lastPathComponent): \(play.outputText.suffix(300))")
            let lines = play.outputText.components(separatedBy: "\r\n").filter { $0.contains("phosphor: ") }
            XCTAssertEqual(lines.count, 1, "play \(rom.lastPathComponent): \(play.outputText.suffix(300).debugDescription)")
            for text in mentions { XCTAssertTrue(lines.first?.contains(text) == true, "play: mentions \(text): \(lines)") }
            XCTAssertEqual(userFiles().keys.filter { $0.hasSuffix(".srm") || $0.contains(".state") }.count,
                           before.keys.filter { $0.hasSuffix(".srm") || $0.contains(".state") }.count,
                           "\(rom.lastPathComponent): no save or state created")
        }
    }

    /// A real ROM under the wrong name is not bad input: its header says what it is, and it plays
    /// as that system (an NES ROM named `.gbc` runs on the NES core; a GB ROM named `.txt` on the
    /// GB core) instead of being refused.
    func testMisnamedROMsPlayAsTheSystemTheirHeaderNames() throws {
        let nesBytesAsGB = try home.write("nes-bytes.gbc", try Data(contentsOf: nes))
        let wrongExtension = try home.write("notes.txt", try Data(contentsOf: gbc))
        for (rom, original) in [(nesBytesAsGB, nes), (wrongExtension, gbc)] {
            let misnamed = try phosphor(["run", "--headless", "--frames", "30", rom.path])
            let proper = try phosphor(["run", "--headless", "--frames", "30", original.path])
            XCTAssertEqual(misnamed.status, 0, "\(rom.lastPathComponent): \(misnamed.error)")
            let hash = { (output: String) in output.split(separator: " ").first { $0.hasPrefix("hash=") } }
            XCTAssertEqual(hash(misnamed.output), hash(proper.output), "\(rom.lastPathComponent) runs exactly like the real file")
        }
    }

    /// A core that asks for Vulkan when it loads is refused with one line saying why (OpenGL cores
    /// run: EmulationTests.OpenGLCoreTests).
    func testHardwareRenderedCoreIsRefusedClearly() throws {
        let core = try CrashCore.build(into: home)
        let result = try ChildProcess(Binaries.phosphor, ["run", "--headless", "--frames", "10", "--core", core.path, gbc.path],
                                      environment: ["PHOSPHOR_HOME": home.url.path, "CRASHCORE_HW_RENDER": "1"]).finish()
        assertOneLineError(result, mentions: ["needs Vulkan", "renders OpenGL offscreen"], "Vulkan-only core")
    }

    func testBadStatesViaStateInAreRefusedWithOneLine() throws {
        let nesState = home.file("nes.state")
        XCTAssertEqual(try phosphor(["run", "--headless", "--frames", "20", "--state-out", nesState.path, "--state-at", "10", nes.path]).status, 0)
        let gbState = home.file("gb.state")
        XCTAssertEqual(try phosphor(["run", "--headless", "--frames", "20", "--state-out", gbState.path, "--state-at", "10", gbc.path]).status, 0)
        var generator = SeededGenerator(seed: 7)
        let garbage = try home.write("garbage.state", Data((0..<60_000).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        let empty = try home.write("empty.state", Data())
        // Another game's (and so another core's) state, garbage of a plausible size, and nothing.
        for (state, rom, label) in [(nesState, gbc, "NES state into the GB game"), (gbState, nes, "GB state into the NES game"),
                                    (garbage, gbc, "random bytes"), (empty, gbc, "empty file")] {
            let saved = try Data(contentsOf: state)
            let result = try phosphor(["run", "--headless", "--frames", "5", "--state-in", state.path, rom.path])
            assertOneLineError(result, mentions: [state.lastPathComponent], label)
            XCTAssertEqual(try Data(contentsOf: state), saved, "\(label): the state file is unchanged")
        }
    }

    // MARK: Config, key map and skin files through `phosphor play`

    private enum Broken: CaseIterable {
        case malformed, wrongTypes, unknownKeys, huge

        func bytes(valid: String) -> Data {
            switch self {
            case .malformed: Data((String(valid.dropLast(3)) + "\u{1B}[31m,,").utf8)
            case .wrongTypes: Data(#"{ "video": "big", "audio": [1, 2], "player1": 7, "system": false, "screens": "many" }"#.utf8)
            case .unknownKeys: Data(#"{ "flux-capacitor": true, "nested": { "deep": [1, 2, 3] } }"#.utf8)
            case .huge: Data(("{ \"padding\": \"" + String(repeating: "x", count: 3 << 20) + "\" }").utf8)
            }
        }
    }

    /// Plays 30 frames with one broken user file in place: the game still runs to the end, the
    /// file is byte-identical afterwards, and the log names it.
    private func playWithBrokenFile(_ relativePath: String, valid: String) throws {
        for broken in Broken.allCases {
            try? FileManager.default.removeItem(at: home.file("config"))
            try? FileManager.default.removeItem(at: home.file("data"))
            let bytes = broken.bytes(valid: valid)
            let file = try home.write(relativePath, bytes)
            let run = try PTYRun([Binaries.phosphor.path, "play", "--frames", "30", "--no-audio", gbc.path],
                                 environment: ["PHOSPHOR_HOME": home.url.path, "TERM": "xterm-256color", "LANG": "C.UTF-8",
                                               "LC_ALL": "C.UTF-8"],
                                 steps: [.exit(timeout: 20)])
            let label = "\(relativePath) \(broken)"
            XCTAssertEqual(run.report.exit, 0, "\(label): the game ran its 30 frames: \(run.outputText.suffix(300))")
            XCTAssertEqual(try Data(contentsOf: file), bytes, "\(label): the user's file is byte-identical")
            let log = String(decoding: (try? Data(contentsOf: home.file("data/phosphor.log"))) ?? Data(), as: UTF8.self)
            let mentions = log.split(separator: "\n").filter { $0.contains(file.lastPathComponent) }
            if broken == .unknownKeys && relativePath == "config/config.json" {
                XCTAssertFalse(mentions.isEmpty, "\(label): unknown keys are warned about: \(log)")
            } else if broken != .unknownKeys {
                XCTAssertFalse(mentions.isEmpty, "\(label): the log names the file: \(log)")
            }
            for line in mentions { XCTAssertFalse(line.contains("\u{1B}"), "\(label): \(line.debugDescription)") }
        }
    }

    func testBrokenConfigKeyMapAndSkinNeverStopTheGameNorGetOverwritten() throws {
        let skin = try String(contentsOf: Binaries.packageRoot.appendingPathComponent("Skins/gbc.json"), encoding: .utf8)
        try playWithBrokenFile("config/config.json", valid: #"{ "video": { "showStatusBar": true } }"#)
        try playWithBrokenFile("config/keymaps/gbc.json", valid: #"{ "system": "gbc", "player1": { "a": ["x"] } }"#)
        try playWithBrokenFile("data/skins/gbc.json", valid: skin)
    }
}
