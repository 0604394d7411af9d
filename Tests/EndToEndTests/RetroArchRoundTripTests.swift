import Foundation
import TestSupport
import XCTest

/// Files moving between Phosphor and the real RetroArch 1.14 (Debian's `retroarch`), run headless
/// with null drivers, a config of the test's own and `--max-frames` (issue 16). RetroArch saves
/// states only when it finds the core's `.info`, which takes both `libretro_info_path` and
/// `libretro_directory` (the core's folder): without them it writes none, as if the core had no
/// states ("Core does not support save states").
final class RetroArchRoundTripTests: XCTestCase {
    var phosphor: PhosphorProcess!
    var tmux: TmuxSession?

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/retroarch") else {
            throw XCTSkip("retroarch is not installed (make deps)")
        }
        phosphor = try PhosphorProcess()
    }
    override func tearDown() {
        tmux?.stop()
        phosphor?.cleanUp()
    }

    let gambatte = "/usr/lib/x86_64-linux-gnu/libretro/gambatte_libretro.so"
    var raFolder: URL { phosphor.home.appendingPathComponent("retroarch") }
    var raStates: URL { raFolder.appendingPathComponent("states") }
    var raSaves: URL { raFolder.appendingPathComponent("saves") }
    var phosphorSaves: URL { phosphor.home.appendingPathComponent("data/saves/gbc") }

    /// The GB cartridge under the name both programs use for its files.
    private func rom() throws -> URL {
        let rom = phosphor.home.appendingPathComponent("phosphor-test.gbc")
        if !FileManager.default.fileExists(atPath: rom.path) {
            try FileManager.default.copyItem(at: PhosphorProcess.rom("gb/phosphor-test.gbc"), to: rom)
        }
        return rom
    }

    /// Runs RetroArch on the cartridge for `frames` frames; it loads and writes the automatic
    /// state and the battery save in its own folders.
    /// RetroArch's configuration, at `~/.config/retroarch/retroarch.cfg` of the HOME both
    /// programs get (`raFolder`).
    var raConfig: URL { raFolder.appendingPathComponent(".config/retroarch/retroarch.cfg") }

    private func writeRetroArchConfig(compressed: Bool = false, autoLoad: Bool = false, sortSaves: Bool = false) throws {
        for folder in [raStates, raSaves, raConfig.deletingLastPathComponent()] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try Data("""
            video_driver = "null"
            audio_driver = "null"
            input_driver = "null"
            menu_driver = "null"
            libretro_info_path = "/usr/share/libretro/info"
            libretro_directory = "\(URL(fileURLWithPath: gambatte).deletingLastPathComponent().path)"
            savestate_auto_save = "true"
            savestate_auto_load = "\(autoLoad)"
            savestate_file_compression = "\(compressed)"
            savestate_directory = "\(raStates.path)"
            savefile_directory = "\(raSaves.path)"
            sort_savestates_enable = "false"
            sort_savefiles_enable = "\(sortSaves)"
            config_save_on_exit = "false"
            history_list_enable = "false"
            """.utf8).write(to: raConfig)
    }

    @discardableResult
    private func retroArch(frames: Int, compressed: Bool = false, autoLoad: Bool = false, sortSaves: Bool = false) throws -> String {
        try writeRetroArchConfig(compressed: compressed, autoLoad: autoLoad, sortSaves: sortSaves)
        let config = raConfig
        let (status, output) = try ToolRun.run(["retroarch", "--config", config.path, "-L", gambatte, try rom().path,
                                                "--max-frames", "\(frames)", "--verbose"],
                                               in: raFolder, environment: ["HOME": raFolder.path, "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(status, 0, output)
        return output
    }

    private func phosphorRun(_ extra: [String], frames: Int = 40) throws -> PhosphorProcess.Outcome {
        let outcome = try phosphor.run(["run", "--headless", "--frames", "\(frames)"] + extra + [try rom().path])
        XCTAssertEqual(outcome.status, 0, outcome.standardError)
        return outcome
    }

    /// The GB cartridge's boot counter (offset 4 of its battery RAM).
    private func bootCount(_ file: URL) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: file))
        return Int(bytes[4]) | Int(bytes[5]) << 8
    }

    /// The core's bytes inside a RASTATE or RZIP file (its `MEM ` block), taken out here with
    /// Python's zlib (not Phosphor's reader).
    private func memBlock(of state: URL) throws -> URL {
        let raw = phosphor.home.appendingPathComponent("\(state.lastPathComponent).core")
        let script = """
            import struct, sys
            import zlib
            data = open(sys.argv[1], 'rb').read()
            if data[:8] == b'#RZIPv\\x01#':
                at, out = 20, b''
                while at < len(data):
                    size = struct.unpack('<I', data[at:at + 4])[0]
                    out += zlib.decompress(data[at + 4:at + 4 + size]); at += 4 + size
                data = out
            assert data[:8] == b'RASTATE\\x01', data[:8]
            at = 8
            while True:
                tag, size = data[at:at + 4], struct.unpack('<I', data[at + 4:at + 8])[0]
                if tag == b'MEM ':
                    open(sys.argv[2], 'wb').write(data[at + 8:at + 8 + size]); break
                at += 8 + ((size + 7) & ~7)
            """
        let python = try ToolRun.run(["python3", "-c", script, state.path, raw.path])
        XCTAssertEqual(python.status, 0, python.output)
        return raw
    }

    func testRetroArchStatesInBothContainersLoadInPhosphorLikeTheCoresBytes() throws {
        for compressed in [false, true] {
            try? FileManager.default.removeItem(at: raFolder)
            // RetroArch boots a cartridge that has booted 4 times: its state shows BOOT 00005.
            try FileManager.default.createDirectory(at: raSaves, withIntermediateDirectories: true)
            try Data([0x50, 0x48, 0x4F, 0x53, 4, 0] + [UInt8](repeating: 0, count: 8192 - 6))
                .write(to: raSaves.appendingPathComponent("phosphor-test.srm"))
            try retroArch(frames: 100, compressed: compressed)
            let state = raStates.appendingPathComponent("phosphor-test.state.auto")
            let header = [UInt8](try Data(contentsOf: state).prefix(8))
            XCTAssertEqual(header, Array((compressed ? "#RZIPv\u{1}#" : "RASTATE\u{1}").utf8), "RetroArch's container")
            try? FileManager.default.removeItem(at: phosphor.home.appendingPathComponent("data/saves"))
            let fromContainer = try phosphorRun(["--state-in", state.path]).fields["hash"]
            try? FileManager.default.removeItem(at: phosphor.home.appendingPathComponent("data/saves"))
            let fromBytes = try phosphorRun(["--state-in", try memBlock(of: state).path]).fields["hash"]
            XCTAssertEqual(fromContainer, fromBytes, "compressed \(compressed): the state inside gives the same frame")
            try? FileManager.default.removeItem(at: phosphor.home.appendingPathComponent("data/saves"))
            XCTAssertNotEqual(fromContainer, try phosphorRun([]).fields["hash"], "the state's BOOT 00005, not a fresh boot's 00001")
        }
    }

    func testRetroArchAutoLoadsPhosphorsStateAndBothKeepOneBatterySave() throws {
        // Phosphor boots the cartridge once (counter 1); RetroArch takes its .srm and boots it again.
        _ = try phosphorRun(["--state-out", raStates.appendingPathComponent("phosphor-test.state.auto").path, "--state-at", "30"])
        XCTAssertEqual(try bootCount(phosphorSaves.appendingPathComponent("phosphor-test.srm")), 1)
        try FileManager.default.createDirectory(at: raSaves, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: phosphorSaves.appendingPathComponent("phosphor-test.srm"),
                                         to: raSaves.appendingPathComponent("phosphor-test.srm"))
        let log = try retroArch(frames: 60, autoLoad: true)
        XCTAssertNotNil(log.range(of: #"Auto-loading save state from "[^"]*phosphor-test\.state\.auto" succeeded"#, options: .regularExpression)
, log)
        XCTAssertFalse(log.contains("Failed to load state"), log)
        // The state carried the counter at 1 and RetroArch wrote that RAM back.
        XCTAssertEqual(try bootCount(raSaves.appendingPathComponent("phosphor-test.srm")), 1)

        // RetroArch's battery save, booted fresh by it (counter 2), read by Phosphor (3).
        try retroArch(frames: 30)
        XCTAssertEqual(try bootCount(raSaves.appendingPathComponent("phosphor-test.srm")), 2)
        try FileManager.default.removeItem(at: phosphorSaves.appendingPathComponent("phosphor-test.srm"))
        try FileManager.default.copyItem(at: raSaves.appendingPathComponent("phosphor-test.srm"),
                                         to: phosphorSaves.appendingPathComponent("phosphor-test.srm"))
        _ = try phosphorRun([])
        XCTAssertEqual(try bootCount(phosphorSaves.appendingPathComponent("phosphor-test.srm")), 3)
    }

    /// `"retroArchFolders": "share"`: Phosphor keeps the battery save in RetroArch's sorted save
    /// folder (`saves/Gambatte/`) and its states in RetroArch's state folder in RetroArch's
    /// container; RetroArch continues from both, and Phosphor from RetroArch's battery save.
    func testSharedFoldersAreUsedWithRetroArchsNamingAndContainer() throws {
        try writeRetroArchConfig(sortSaves: true)
        let config = phosphor.home.appendingPathComponent("config/config.json")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"retroArchFolders": "share"}"#.utf8).write(to: config)
        let home = ["HOME": raFolder.path]
        let headless = try phosphor.run(["run", "--headless", "--frames", "30", try rom().path], environment: home)
        XCTAssertEqual(headless.status, 0, headless.standardError)
        let sharedSave = raSaves.appendingPathComponent("Gambatte/phosphor-test.srm")
        XCTAssertEqual(try bootCount(sharedSave), 1, "the battery save in RetroArch's sorted folder")
        XCTAssertFalse(FileManager.default.fileExists(atPath: phosphorSaves.path), "nothing in Phosphor's own folder")

        // Played and quit: the automatic state goes to RetroArch's state folder, as RASTATE.
        let session = try TmuxSession(arguments: ["play", "--no-audio", try rom().path], home: phosphor.home, environment: home)
        tmux = session
        try session.waitForGameRunning()  // booted: the battery save counts this boot
        try session.send("Escape")
        try session.waitFor(text: "Paused")
        try session.send("End")
        try session.send("Enter")
        XCTAssertEqual(try session.waitForExit(), 0)
        let auto = raStates.appendingPathComponent("phosphor-test.state.auto")
        XCTAssertEqual([UInt8](try Data(contentsOf: auto).prefix(8)), Array("RASTATE\u{1}".utf8))
        XCTAssertEqual(try bootCount(sharedSave), 2)

        let log = try retroArch(frames: 60, autoLoad: true, sortSaves: true)
        XCTAssertNotNil(log.range(of: #"Auto-loading save state from "[^"]*phosphor-test\.state\.auto" succeeded"#, options: .regularExpression), log)
        try retroArch(frames: 30, sortSaves: true)  // boots again from the shared battery save
        XCTAssertEqual(try bootCount(sharedSave), 3)
        _ = try phosphor.run(["run", "--headless", "--frames", "30", try rom().path], environment: home)
        XCTAssertEqual(try bootCount(sharedSave), 4, "Phosphor continues RetroArch's battery save")
    }

    /// With the folders shared, RetroArch's `.opt` file sets gambatte's options: `GB` hardware
    /// mode draws the colour cartridge in grey; a value gambatte does not offer is one line.
    func testRetroArchOptFilesAreReadWhenItsFoldersAreShared() throws {
        try writeRetroArchConfig()
        let config = phosphor.home.appendingPathComponent("config/config.json")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"retroArchFolders": "share"}"#.utf8).write(to: config)
        let home = ["HOME": raFolder.path]
        func run() throws -> PhosphorProcess.Outcome {
            try? FileManager.default.removeItem(at: raSaves)
            let outcome = try phosphor.run(["run", "--headless", "--frames", "30", try rom().path], environment: home)
            XCTAssertEqual(outcome.status, 0, outcome.standardError)
            return outcome
        }
        let colour = try run().fields["hash"]
        let opt = raFolder.appendingPathComponent(".config/retroarch/config/Gambatte/Gambatte.opt")
        try FileManager.default.createDirectory(at: opt.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("gambatte_gb_hwmode = \"GB\"\n".utf8).write(to: opt)
        let grey = try run().fields["hash"]
        XCTAssertNotEqual(grey, colour, "RetroArch's option file applies")
        try Data("gambatte_gb_hwmode = \"Virtual Boy\"\n".utf8).write(to: opt)
        let refused = try run()
        XCTAssertEqual(refused.fields["hash"], colour, "an unusable value leaves the default")
        XCTAssertTrue(refused.standardError.contains("Gambatte.opt: gambatte_gb_hwmode = \"Virtual Boy\" is not one of its values"),
                      refused.standardError)
        XCTAssertEqual(try String(contentsOf: opt, encoding: .utf8), "gambatte_gb_hwmode = \"Virtual Boy\"\n", "the file is kept as it is")
    }

    /// `phosphor import-retroarch` copies RetroArch's battery saves and states once into
    /// Phosphor's folders, finding the console through the library; a file Phosphor already has
    /// is kept, and a save of a game the library does not know is named and left alone.
    func testImportCopiesOnceAndNeverOverwrites() throws {
        try writeRetroArchConfig()
        let roms = phosphor.home.appendingPathComponent("roms")
        try FileManager.default.createDirectory(at: roms, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: PhosphorProcess.rom("gb/phosphor-test.gbc"), to: roms.appendingPathComponent("phosphor-test.gbc"))
        XCTAssertEqual(try phosphor.run(["add", roms.path]).status, 0)
        try Data([0x50, 0x48, 0x4F, 0x53, 7, 0] + [UInt8](repeating: 0, count: 8192 - 6))
            .write(to: raSaves.appendingPathComponent("phosphor-test.srm"))
        try Data("not a game's".utf8).write(to: raSaves.appendingPathComponent("Mystery.srm"))
        try Data("a state".utf8).write(to: raStates.appendingPathComponent("phosphor-test.state1"))
        let home = ["HOME": raFolder.path]

        let first = try phosphor.run(["import-retroarch"], environment: home)
        XCTAssertEqual(first.status, 0, first.standardError)
        XCTAssertTrue(first.standardOutput.contains("copied 2 files from RetroArch"), first.standardOutput)
        XCTAssertTrue(first.standardOutput.contains("skipped 1 (no game of that name in the library; add its folder first): Mystery.srm"),
                      first.standardOutput)
        XCTAssertEqual(try Data(contentsOf: phosphor.home.appendingPathComponent("data/states/gbc/phosphor-test.state1")),
                       Data("a state".utf8))
        let ours = phosphorSaves.appendingPathComponent("phosphor-test.srm")
        let played = try phosphor.run(["run", "--headless", "--frames", "30", roms.appendingPathComponent("phosphor-test.gbc").path])
        XCTAssertEqual(played.status, 0, played.standardError)
        XCTAssertEqual(try bootCount(ours), 8, "Phosphor continues RetroArch's battery save")

        let again = try phosphor.run(["import-retroarch"], environment: home)
        XCTAssertTrue(again.standardOutput.contains("copied 0 files"), again.standardOutput)
        XCTAssertTrue(again.standardOutput.contains("kept yours: gbc/phosphor-test.srm"), again.standardOutput)
        XCTAssertEqual(try bootCount(ours), 8, "never overwritten")
    }
}
