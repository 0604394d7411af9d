import Foundation
import TestSupport
import XCTest

/// `phosphor run --headless` against the real Debian cores and the project's own cartridges
/// (issue: foundation — determinism, save states, SRAM, bad input).
final class HeadlessRunTests: XCTestCase {
    var phosphor: PhosphorProcess!

    override func setUpWithError() throws { phosphor = try PhosphorProcess() }
    override func tearDown() { phosphor.cleanUp() }

    let nes = PhosphorProcess.rom("nes/phosphor-test.nes")
    let gbc = PhosphorProcess.rom("gb/phosphor-test.gbc")

    /// Runs headless from a clean slate (no battery save: the GB cartridge counts its boots).
    private func headless(_ rom: URL, frames: Int, _ extra: [String] = [], keepSaves: Bool = false) throws -> PhosphorProcess.Outcome {
        if !keepSaves { try? FileManager.default.removeItem(at: phosphor.home.appendingPathComponent("data/saves")) }
        let outcome = try phosphor.run(["run", "--headless", "--frames", "\(frames)"] + extra + [rom.path])
        XCTAssertEqual(outcome.status, 0, "stderr: \(outcome.standardError)")
        return outcome
    }

    func testSummaryLineHasEveryField() throws {
        let outcome = try headless(nes, frames: 60)
        let line = outcome.lastLine
        let pattern = #"^frames=60 fps=[0-9.]+ speed=[0-9.]+x hash=[0-9a-f]{16} samples=[0-9]+$"#
        XCTAssertNotNil(line.range(of: pattern, options: .regularExpression), line)
        // NES at ~60 fps and a sample rate in the tens of kHz: a second of audio is 20k–100k frames.
        let samples = Int(outcome.fields["samples"] ?? "") ?? 0
        XCTAssertGreaterThan(samples, 20_000)
        XCTAssertLessThan(samples, 100_000)
    }

    func testSameInputGivesSameHashAndDifferentInputDifferentHash() throws {
        for rom in [nes, gbc] {
            let script = try phosphor.file("a.txt", Data("0 -\n30 a+right\n".utf8))
            let first = try headless(rom, frames: 90, ["--input", script.path]).fields["hash"]
            let second = try headless(rom, frames: 90, ["--input", script.path]).fields["hash"]
            let noInput = try headless(rom, frames: 90).fields["hash"]
            XCTAssertNotNil(first)
            XCTAssertEqual(first, second, "\(rom.lastPathComponent): same ROM and input, same hash")
            XCTAssertNotEqual(first, noInput, "\(rom.lastPathComponent): holding A+Right changes the picture")
        }
    }

    func testEveryButtonChangesThePicture() throws {
        for rom in [nes, gbc] {
            var hashes: [String: String] = [:]
            for button in ["-", "a", "b", "select", "start", "up", "down", "left", "right"] {
                let script = try phosphor.file("\(button).txt", Data("0 \(button)\n".utf8))
                hashes[button] = try headless(rom, frames: 40, ["--input", script.path]).fields["hash"]
            }
            XCTAssertEqual(Set(hashes.values).count, 9, "\(rom.lastPathComponent): each button shows differently: \(hashes)")
        }
    }

    func testSaveStateRoundTrip() throws {
        for rom in [nes, gbc] {
            let state = phosphor.home.appendingPathComponent("\(rom.lastPathComponent).state1")
            let script = try phosphor.file("s.txt", Data("0 right\n".utf8))
            let straight = try headless(rom, frames: 100,
                                        ["--input", script.path, "--state-out", state.path, "--state-at", "60"])
            XCTAssertTrue(FileManager.default.fileExists(atPath: state.path))
            let resumed = try headless(rom, frames: 40, ["--input", script.path, "--state-in", state.path])
            XCTAssertEqual(straight.fields["hash"], resumed.fields["hash"],
                           "\(rom.lastPathComponent): state at 60 + 40 frames == 100 frames straight")
        }
    }

    /// RetroArch's containers, built here with Python's zlib (not Phosphor's writer): the state
    /// inside a RASTATE and an RZIP file resumes exactly like the core's own bytes.
    func testRetroArchStateContainersLoadLikeTheCoresBytes() throws {
        let raw = phosphor.home.appendingPathComponent("phosphor-test.state")
        let script = try phosphor.file("s.txt", Data("0 right\n".utf8))
        let straight = try headless(gbc, frames: 100, ["--input", script.path, "--state-out", raw.path, "--state-at", "60"])
        let wrap = """
        import struct, sys, zlib
        core = open(sys.argv[1], 'rb').read()
        def block(tag, data):
            out = tag + struct.pack('<I', len(data)) + data
            return out + b'\\0' * (-len(out) % 8)
        plain = b'RASTATE\\x01' + block(b'MEM ', core) + block(b'END ', b'')
        open(sys.argv[2], 'wb').write(plain)
        chunk = 65536
        rzip = b'#RZIPv\\x01#' + struct.pack('<IQ', chunk, len(plain))
        for start in range(0, len(plain), chunk):
            packed = zlib.compress(plain[start:start + chunk])
            rzip += struct.pack('<I', len(packed)) + packed
        open(sys.argv[3], 'wb').write(rzip)
        """
        let plain = phosphor.home.appendingPathComponent("ra-plain.state")
        let rzip = phosphor.home.appendingPathComponent("ra-rzip.state")
        _ = try runCommand(["/usr/bin/env", "python3", "-c", wrap, raw.path, plain.path, rzip.path])
        for file in [plain, rzip] {
            let resumed = try headless(gbc, frames: 40, ["--input", script.path, "--state-in", file.path])
            XCTAssertEqual(resumed.fields["hash"], straight.fields["hash"], "\(file.lastPathComponent) resumes like the core's bytes")
        }
        var damaged = try Data(contentsOf: rzip)
        damaged[damaged.count - 20] ^= 0xFF
        try damaged.write(to: rzip)
        let outcome = try phosphor.run(["run", "--headless", "--frames", "10", "--state-in", rzip.path, gbc.path])
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.standardError.contains("ra-rzip.state is a RetroArch save state, but"), outcome.standardError)
        XCTAssertEqual(outcome.standardError.split(separator: "\n").count, 1, outcome.standardError)
    }

    func testBatterySaveSurvivesRestart() throws {
        let first = try headless(gbc, frames: 30).fields["hash"]
        let srm = phosphor.home.appendingPathComponent("data/saves/gbc/phosphor-test.srm")
        XCTAssertTrue(FileManager.default.fileExists(atPath: srm.path), "SRAM written on quit")
        let second = try headless(gbc, frames: 30, keepSaves: true).fields["hash"]
        XCTAssertNotEqual(first, second, "the boot counter read back from SRAM shows a new number")
        try FileManager.default.removeItem(at: srm)
        let fresh = try headless(gbc, frames: 30).fields["hash"]
        XCTAssertEqual(first, fresh, "without the save the cartridge starts from zero again")
    }

    func testWrongSizeBatterySaveIsKeptAsideNotOverwritten() throws {
        let folder = phosphor.home.appendingPathComponent("data/saves/gbc")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let srm = folder.appendingPathComponent("phosphor-test.srm")
        let junk = Data(repeating: 0x5A, count: 100)
        try junk.write(to: srm)
        let outcome = try headless(gbc, frames: 10, keepSaves: true)
        XCTAssertTrue(outcome.standardError.contains("battery save is 100 bytes"), outcome.standardError)
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("wrong-size") }
        XCTAssertEqual(kept.count, 1)
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent(kept[0])), junk)
    }

    func testScreenshotIsAPNGOfTheFrame() throws {
        let png = phosphor.home.appendingPathComponent("shot.png")
        _ = try headless(nes, frames: 30, ["--screenshot", png.path])
        let bytes = try Data(contentsOf: png)
        XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertGreaterThan(bytes.count, 100)
    }

    func testPerSystemCorePreferenceFromTheConfig() throws {
        let gambatte = try headless(gbc, frames: 30).fields["hash"]
        let config = phosphor.home.appendingPathComponent("config/config.json")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"cores": {"gbc": "mgba"}}"#.utf8).write(to: config)
        let mgba = try headless(gbc, frames: 30).fields["hash"]
        XCTAssertNotEqual(gambatte, mgba, "another core draws the same cartridge differently")
        let log = try String(contentsOf: phosphor.home.appendingPathComponent("data/phosphor.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("mgba"), "the log names the chosen core")
        let explicit = try headless(gbc, frames: 30, ["--core", "/usr/lib/x86_64-linux-gnu/libretro/gambatte_libretro.so"])
        XCTAssertEqual(explicit.fields["hash"], gambatte, "--core overrides the config")
    }

    // MARK: Bad input: one line on stderr, non-zero exit, no crash.

    private func assertOneLineError(_ arguments: [String], mentions text: String,
                                    file: StaticString = #filePath, line: UInt = #line) throws {
        let outcome = try phosphor.run(arguments)
        XCTAssertNotEqual(outcome.status, 0, file: file, line: line)
        XCTAssertLessThan(outcome.status, 128, "exited, not killed by a signal", file: file, line: line)
        let lines = outcome.standardError.split(separator: "\n").filter { $0.hasPrefix("phosphor:") }
        XCTAssertEqual(lines.count, 1, outcome.standardError, file: file, line: line)
        XCTAssertTrue(outcome.standardError.contains(text), outcome.standardError, file: file, line: line)
    }

    func testBadInputsGiveOneLineErrors() throws {
        try assertOneLineError(["run", "--headless", "--frames", "5", "/nonexistent/game.nes"], mentions: "no such file")
        let empty = try phosphor.file("empty.nes", Data())
        try assertOneLineError(["run", "--headless", "--frames", "5", empty.path], mentions: "empty")
        var generator = SystemRandomNumberGenerator()
        let noise = Data((0..<40_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let random = try phosphor.file("random.nes", noise)
        try assertOneLineError(["run", "--headless", "--frames", "5", random.path], mentions: "random.nes")
        let genesis = try phosphor.file("game.md", Data(repeating: 0, count: 4096))
        try assertOneLineError(["run", "--headless", "--frames", "5", genesis.path], mentions: "Genesis")
        try assertOneLineError(["run", "--headless", nes.path], mentions: "--frames")
    }

    /// Issue 11, item 5: `--state-in` checks a state's identity before the core sees it: by the
    /// sidecar `--state-out` writes next to it, else by the core's state size.
    func testStateInChecksIdentityBeforeTheCoreSeesIt() throws {
        let gbState = phosphor.home.appendingPathComponent("gb.state")
        _ = try headless(gbc, frames: 20, ["--state-out", gbState.path, "--state-at", "10"])
        let sidecar = gbState.appendingPathExtension("json")
        XCTAssertTrue(FileManager.default.fileExists(atPath: sidecar.path), "--state-out writes the identity next to the state")
        // The GB state with its sidecar, offered to the NES game: refused by identity, naming the file.
        try assertOneLineError(["run", "--headless", "--frames", "5", "--state-in", gbState.path, nes.path],
                               mentions: "gb.state")
        // Without a sidecar, a state of exactly the core's size loads; one byte short is refused.
        let bare = try phosphor.file("bare.state", Data(contentsOf: gbState))
        _ = try headless(gbc, frames: 5, ["--state-in", bare.path])
        let short = try phosphor.file("short.state", Data(contentsOf: gbState).dropLast())
        try assertOneLineError(["run", "--headless", "--frames", "5", "--state-in", short.path, gbc.path],
                               mentions: "short.state")
    }

    func testTruncatedStateIsRefused() throws {
        let state = phosphor.home.appendingPathComponent("good.state")
        _ = try headless(nes, frames: 20, ["--state-out", state.path, "--state-at", "10"])
        let bytes = try Data(contentsOf: state)
        let truncated = try phosphor.file("truncated.state", bytes.prefix(bytes.count / 2))
        try assertOneLineError(["run", "--headless", "--frames", "5", "--state-in", truncated.path, nes.path],
                               mentions: "save state refused")
    }
}
