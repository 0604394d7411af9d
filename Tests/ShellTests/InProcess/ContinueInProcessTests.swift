import Emulation
import Foundation
import PhosphorKit
import TestSupport
import XCTest
@testable import Shell

/// Issue 11, item 1: Continue must never put save RAM older than the `.srm` back. Game sessions on
/// a `ScriptedCore` whose battery RAM counts every frame ever run (so it only grows) and is
/// written to a real `.srm`. No terminal: the session is the part that loads Continue.
final class ContinueInProcessTests: XCTestCase {
    private var home: TemporaryFolder!
    private var services: AppServices!
    private var srm: URL!
    private let rom = BrowserInProcessTests.bundledROM("nes/phosphor-test.nes")

    override func setUpWithError() throws {
        home = try TemporaryFolder("continue")
        let paths = PhosphorPaths(config: home.url.appendingPathComponent("config"), data: home.url.appendingPathComponent("data"))
        try paths.createFolders()
        let core = CoreInfo(path: URL(fileURLWithPath: "/nonexistent/scripted_libretro.so"), name: "scripted",
                            displayName: "Scripted Core", systems: [.nes], extensions: ["nes"], needsFullPath: false,
                            supportsNoGame: false, displayVersion: "1.0", softwareRendered: true)
        services = AppServices(paths: paths, catalog: CoreCatalog(cores: [core]))
        services.overrides.noAudio = true
        srm = paths.saves.appendingPathComponent("nes/phosphor-test.srm")
        try FileManager.default.createDirectory(at: srm.deletingLastPathComponent(), withIntermediateDirectories: true)
        services.overrides.makeCore = ScriptedCore.maker(ScriptedCore.Script(title: "phosphor-test", batterySave: srm))
    }

    override func tearDown() { home.remove() }

    private func start(resume: Bool) throws -> GameSession {
        let launch = GameLaunch(rom: rom, system: .nes, title: "Phosphor Test", gameID: nil, resume: resume)
        return try GameSession(launch: launch, services: services, releaseEvents: false, now: .now)
    }

    /// The frames-ever-run counter in the core's battery RAM right now.
    private func counter(_ session: GameSession) throws -> UInt64 {
        try session.thread.perform { core in
            let ram = (core as? ScriptedCore)?.batteryRAM ?? []
            return ram.count >= 8 ? ram.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }.littleEndian : 0
        }
    }

    private func srmCounter() throws -> UInt64 {
        let ram = try [UInt8](Data(contentsOf: srm))
        return ram.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }.littleEndian
    }

    /// Lets the game run until its battery RAM counter grew by `frames`.
    private func play(_ session: GameSession, frames: UInt64) throws {
        let start = try counter(session)
        let deadline = ContinuousClock.now + .seconds(10)
        while try counter(session) < start + frames, ContinuousClock.now < deadline { usleep(2_000) }
    }

    /// A session that ends without `close` (as after SIGKILL or a core crash, the `.srm` holds the
    /// newest save RAM and no automatic state was written).
    private func abandon(_ session: GameSession) {
        session.thread.stop()
        session.lock?.release()  // the kernel does this when a process dies
    }

    /// Issue 11, item 4: a second copy of a running game is refused in one line naming the
    /// first one's pid, and starts once the first has closed.
    func testASecondCopyOfARunningGameIsRefusedNamingThePid() throws {
        let first = try start(resume: false)
        XCTAssertThrowsError(try start(resume: false)) { error in
            XCTAssertTrue("\(error)".contains("pid \(getpid())"), "\(error)")
            XCTAssertFalse("\(error)".contains("\n"))
        }
        first.close(now: .now)
        let second = try start(resume: false)
        second.close(now: .now)
    }

    func testContinueAfterACleanQuitResumesTheAutomaticState() throws {
        let first = try start(resume: false)
        try play(first, frames: 20)
        first.close(now: .now)
        let saved = try srmCounter()
        let resumed = try start(resume: true)
        defer { resumed.close(now: .now) }
        XCTAssertEqual(resumed.startNotices.first { $0.contains("battery save is newer") }, nil)
        // The automatic state's battery RAM is the .srm's: the state was loaded and nothing rolled back.
        XCTAssertGreaterThanOrEqual(try counter(resumed), saved)
        XCTAssertGreaterThanOrEqual(try resumed.thread.perform { $0.frameCount }, 20, "the automatic state was loaded")
    }

    /// Simulated kills (sessions abandoned without `close`) between clean quits: the battery
    /// save's counter never goes back, in memory or on disk. 200 under PHOSPHOR_LONG_TESTS=1.
    func testContinueAfterAKillNeverRollsTheBatterySaveBack() throws {
        var generator = SeededGenerator(seed: 0x5EED_0012)
        var outcomes: [String: Int] = [:]
        let trials = LongTests.size(slice: 8, full: 200)
        for trial in 0..<trials {
            // Now and then a clean quit writes a fresh automatic state.
            if trial == 0 || Int.random(in: 0..<4, using: &generator) == 0 {
                let clean = try start(resume: trial > 0)
                try play(clean, frames: UInt64.random(in: 1...10, using: &generator))
                clean.close(now: .now)
            }
            let killed = try start(resume: Bool.random(using: &generator))
            try play(killed, frames: UInt64.random(in: 1...10, using: &generator))
            abandon(killed)
            let onDisk = try srmCounter()
            let continued = try start(resume: true)
            let inMemory = try counter(continued)
            XCTAssertGreaterThanOrEqual(inMemory, onDisk, "trial \(trial): Continue put older save RAM back")
            if continued.startNotices.contains(where: { $0.contains("battery save is newer") }) {
                outcomes["auto state skipped", default: 0] += 1
            } else {
                outcomes["auto state loaded", default: 0] += 1
            }
            try play(continued, frames: 2)
            continued.close(now: .now)
            XCTAssertGreaterThanOrEqual(try srmCounter(), onDisk, "trial \(trial): the .srm went back")
            if testRun?.failureCount ?? 0 > 3 { break }
        }
        print("continue kill trials: \(trials), outcomes: \(outcomes)")
        XCTAssertGreaterThan(outcomes["auto state skipped", default: 0], 0)
    }

    /// `phosphor play --continue ROM` and `phosphor --continue ROM` ask for what the browser's
    /// Continue row does (`GameLaunch.resume`); without it a ROM starts from power-on; the option
    /// without a ROM is one usage line, not the browser.
    func testContinueOptionResumesTheGameOnTheCommandLine() throws {
        for (arguments, browserWithoutROM) in [(["--continue", "--no-audio", rom.path], false),
                                               (["--no-audio", "--continue", rom.path], true)] {
            guard case .play(let launch, let overrides) = try PlayCommand.request(arguments, browserWithoutROM: browserWithoutROM) else {
                return XCTFail("\(arguments) did not ask to play")
            }
            XCTAssertTrue(launch.resume, "\(arguments)")
            XCTAssertTrue(overrides.noAudio, "\(arguments)")
        }
        guard case .play(let plain, _) = try PlayCommand.request([rom.path], browserWithoutROM: true) else {
            return XCTFail("phosphor ROM did not ask to play")
        }
        XCTAssertFalse(plain.resume)
        XCTAssertThrowsError(try PlayCommand.request(["--continue"], browserWithoutROM: true)) { error in
            XCTAssertEqual((error as? CommandLineArguments.UsageError)?.description,
                           "--continue needs a ROM (phosphor play --continue ROM)")
        }
        XCTAssertTrue(PhosphorCommand.usage.contains("[--continue]"))
    }
}
