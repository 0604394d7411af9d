import Foundation
import Synchronization
import XCTest
@testable import Emulation
import PhosphorKit

/// The core thread driving a `ScriptedCore`: the same thread code as with a libretro core, with
/// frames, samples and states a test can predict exactly.
final class ScriptedCoreThreadTests: XCTestCase {
    private func makeThread(_ script: ScriptedCore.Script = ScriptedCore.Script(), options: CoreThread.Options = CoreThread.Options(realTime: false),
                            audioRing: SampleRing? = nil, journal: ScriptedCore.Journal) -> CoreThread {
        CoreThread(options: options, audioRing: audioRing, makeCore: ScriptedCore.maker(script, journal: journal))
    }

    private func waitFor(_ what: String, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(5)
        while !condition(), Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
        XCTAssertTrue(condition(), "timed out waiting for \(what)")
    }

    /// Steps `count` frames and returns the newest frame in the mailbox.
    private func step(_ thread: CoreThread, _ count: Int = 1) throws -> VideoFrame {
        for _ in 0..<count { try thread.step() }
        var latest: VideoFrame?
        while let frame = thread.mailbox.takeLatest() { latest = frame }
        return try XCTUnwrap(latest)
    }

    func testFramesArriveInTheMailboxWithTheExpectedHash() throws {
        let journal = ScriptedCore.Journal()
        let script = ScriptedCore.Script(width: 40, height: 8)
        let thread = makeThread(script, options: CoreThread.Options(frameLimit: 10, realTime: false), journal: journal)
        try thread.start()
        thread.waitUntilFinished()
        XCTAssertEqual(thread.currentStatus.state, .stopped)
        XCTAssertEqual(thread.currentStatus.frameCount, 10)
        let frame = try XCTUnwrap(thread.mailbox.takeLatest())
        XCTAssertEqual(frame.sequence, 10)
        XCTAssertEqual(frame.fnv1aHash(), ScriptedCore.picture(frame: 9, masks: [], script: script).fnv1aHash())
        // Frame 9's bar is at x = 18 and 19, white on black.
        let pixels = frame.xrgb8888()
        XCTAssertEqual(pixels[17], 0x000000)
        XCTAssertEqual(pixels[18], 0xFFFFFF)
        XCTAssertEqual(pixels[7 * 40 + 19], 0xFFFFFF)
        XCTAssertEqual(pixels[20], 0x000000)
        XCTAssertNotEqual(frame.fnv1aHash(), ScriptedCore.picture(frame: 8, masks: [], script: script).fnv1aHash())
        XCTAssertEqual(journal.entries.framesRun, 10)
        XCTAssertTrue(journal.entries.unloaded)
        XCTAssertEqual(journal.entries.callsFromOtherThreads, 0, "only the core thread touches the core")
    }

    func testInputOnEachPortChangesThePictureInEveryPixelFormat() throws {
        // A held on port 0 is green bit 3; B on port 1 turns the bar from white to (30, 31, 31).
        let expected: [PixelFormat: (background: UInt32, bar: UInt32)] = [
            .xrgb8888: (0x004200, 0xF7FFFF), .rgb1555: (0x004200, 0xF7FFFF), .rgb565: (0x004100, 0xF7FFFF),
        ]
        for format in PixelFormat.allCases {
            let script = ScriptedCore.Script(width: 16, height: 4, pixelFormat: format)
            let thread = makeThread(script, journal: ScriptedCore.Journal())
            thread.pause()
            try thread.start()
            defer { thread.stop() }
            let idle = try step(thread)
            XCTAssertEqual(idle.xrgb8888()[5], 0, "\(format)")
            thread.input.set(ButtonMask([.a]), port: 0)
            thread.input.set(ButtonMask([.b]), port: 1)
            let held = try step(thread)  // frame 1: bar at x = 2, 3
            XCTAssertEqual(held.format, format)
            XCTAssertEqual(held.xrgb8888()[5], expected[format]?.background, "\(format)")
            XCTAssertEqual(held.xrgb8888()[2], expected[format]?.bar, "\(format)")
            XCTAssertEqual(held.fnv1aHash(), ScriptedCore.picture(frame: 1, masks: [ButtonMask([.a]), ButtonMask([.b])], script: script).fnv1aHash())
            // R3 on port 0 shortens the bar to the top half.
            thread.input.set(ButtonMask([.r3]), port: 0)
            thread.input.set([], port: 1)
            let short = try step(thread).xrgb8888()  // frame 2: bar at x = 4, 5
            XCTAssertEqual(short[1 * 16 + 4], 0xFFFFFF, "\(format)")
            XCTAssertNotEqual(short[3 * 16 + 4], 0xFFFFFF, "\(format)")
        }
    }

    func testStatesRoundTripThroughPerformAndForeignOrDamagedBytesAreRefused() throws {
        let journal = ScriptedCore.Journal()
        let thread = makeThread(ScriptedCore.Script(title: "game A"), journal: journal)
        thread.pause()
        try thread.start()
        defer { thread.stop() }
        _ = try step(thread, 5)
        let state = try thread.perform { try $0.serializeState() }
        thread.input.set(ButtonMask([.start]), port: 0)
        let later = try step(thread, 5)
        XCTAssertEqual(try thread.perform { $0.frameCount }, 10)

        try thread.perform { try $0.unserializeState(state) }
        XCTAssertEqual(try thread.perform { $0.frameCount }, 5)
        XCTAssertEqual(try step(thread, 5).fnv1aHash(), later.fnv1aHash(), "the same frames again from the state")

        let before = try thread.perform { $0.frameCount }
        var corrupt = state
        corrupt[20] ^= 0x01
        let foreign = try ScriptedCore(script: ScriptedCore.Script(title: "game B"),
                                       connections: CoreConnections(mailbox: FrameMailbox(), input: InputState()))
            .serializeState()
        for (bytes, reason) in [(Array(state.prefix(state.count - 1)), "truncated"), (corrupt, "corrupt"),
                                (foreign, "another game"), ([UInt8](repeating: 7, count: state.count), "not a scripted core state")] {
            XCTAssertThrowsError(try thread.perform { try $0.unserializeState(bytes) }) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(error)")
            }
        }
        XCTAssertEqual(try thread.perform { $0.frameCount }, before, "a refused state leaves the game as it was")
        XCTAssertEqual(journal.entries.serializations, 1)
        XCTAssertEqual(journal.entries.unserializations, 5)
    }

    func testPauseResumeAndStop() throws {
        let journal = ScriptedCore.Journal()
        let thread = makeThread(options: CoreThread.Options(realTime: true), journal: journal)
        try thread.start()
        waitFor("frames") { thread.currentStatus.frameCount >= 3 }
        thread.pause()
        waitFor("pause") { thread.currentStatus.state == .paused }
        XCTAssertEqual(journal.entries.batteryFlushes, 1, "pausing writes the battery save")
        let paused = try thread.perform { $0.frameCount }
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertEqual(try thread.perform { $0.frameCount }, paused)
        thread.resume()
        waitFor("running again") { thread.currentStatus.frameCount >= paused + 3 }
        XCTAssertEqual(thread.currentStatus.state, .running)
        thread.stop()
        XCTAssertEqual(thread.currentStatus.state, .stopped)
        XCTAssertNotNil(thread.currentStatus.threadCPU)
        XCTAssertTrue(journal.entries.unloaded)
        XCTAssertThrowsError(try thread.perform { $0.frameCount }, "no jobs after stop")
        XCTAssertEqual(journal.entries.callsFromOtherThreads, 0)
    }

    func testAThrowInLoadIsReportedAsCrashed() {
        let journal = ScriptedCore.Journal()
        let thread = makeThread(ScriptedCore.Script(failures: [.load]), journal: journal)
        XCTAssertThrowsError(try thread.start()) { error in
            XCTAssertEqual(error as? EmulationError,
                           .coreLoadFailed(core: "scripted", reason: "the script says this load fails"))
        }
        guard case .crashed(let message) = thread.currentStatus.state else {
            return XCTFail("state is \(thread.currentStatus.state)")
        }
        XCTAssertTrue(message.contains("the script says this load fails"), message)
        XCTAssertEqual(journal.entries.loads, 0)
        XCTAssertFalse(journal.entries.unloaded)
    }

    func testScriptedFailuresOfStates() throws {
        let thread = makeThread(ScriptedCore.Script(failures: [.serialize, .unserialize]), journal: ScriptedCore.Journal())
        thread.pause()
        try thread.start()
        defer { thread.stop() }
        XCTAssertThrowsError(try thread.perform { try $0.serializeState() }) {
            XCTAssertEqual($0 as? EmulationError, .stateUnsupported(core: "scripted"))
        }
        XCTAssertThrowsError(try thread.perform { try $0.unserializeState([1, 2, 3]) }) {
            XCTAssertEqual($0 as? EmulationError, .stateRejected(reason: "the script says this state load fails"))
        }
    }

    func testOptionsFrameLimitCheatsAndBeforeFrame() throws {
        let journal = ScriptedCore.Journal()
        let seen = Mutex<[UInt64]>([])
        let cheats = [CoreCheat(index: 0, code: "ZAZKAP"), CoreCheat(index: 2, code: "AAAAAA")]
        let options = CoreThread.Options(frameLimit: 30, realTime: false, cheats: cheats,
                                         beforeFrame: { core, frame in
                                             XCTAssertEqual(core.frameCount, frame)
                                             seen.withLock { $0.append(frame) }
                                         })
        let thread = makeThread(options: options, journal: journal)
        try thread.start()
        thread.waitUntilFinished()
        XCTAssertEqual(thread.currentStatus.state, .stopped, "the frame limit stops the thread by itself")
        XCTAssertEqual(journal.entries.framesRun, 30)
        XCTAssertEqual(journal.entries.cheatHandOvers, [ScriptedCore.Journal.CheatHandOver(frame: 0, cheats: cheats)],
                       "handed over once, before frame 0")
        XCTAssertEqual(seen.withLock { $0 }, Array(0...30), "every frame, and once more at the limit")
        thread.stop()
    }

    func testCopyOnlyFinalFramesPublishesTheLastSixtyAndOneASecond() throws {
        let thread = makeThread(options: CoreThread.Options(frameLimit: 200, realTime: false, copyOnlyFinalFrames: true),
                                journal: ScriptedCore.Journal())
        try thread.start()
        thread.waitUntilFinished()
        // Frames 0, 60 and 120, then 140…199.
        XCTAssertEqual(thread.mailbox.publishedCount, 63)
        XCTAssertEqual(thread.mailbox.takeLatest()?.sequence, 200)
    }

    func testToneGoesToTheRingAndTheTapAndFastForwardMutesTheRingOnly() throws {
        for mute in [true, false] {
            let journal = ScriptedCore.Journal()
            let tapped = Mutex<[Int16]>([])
            let ring = SampleRing(minimumCapacity: 1 << 16)
            let options = CoreThread.Options(frameLimit: 6, realTime: false, muteWhileFastForwarding: mute,
                                             audioTap: { samples in tapped.withLock { $0 += samples } })
            let thread = makeThread(options: options, audioRing: ring, journal: journal)
            thread.setSpeed(4)
            try thread.start()
            thread.waitUntilFinished()
            // 32 kHz at 60 fps: 533 or 534 sample frames a frame, 3200 in six frames.
            XCTAssertEqual(thread.currentStatus.audioFrames, 3200)
            let samples = tapped.withLock { $0 }
            XCTAssertEqual(samples.count, 6400)
            // A 500 Hz square wave: 32 sample frames up, 32 down, both channels alike.
            XCTAssertEqual(Array(samples[0..<4]), [8000, 8000, 8000, 8000])
            XCTAssertEqual(samples[62], 8000)
            XCTAssertEqual(samples[64], -8000)
            XCTAssertEqual(samples[128], 8000)
            XCTAssertEqual(journal.entries.fastForwardedFrames, 6)
            XCTAssertEqual(journal.entries.mutedFrames, mute ? 6 : 0)
            XCTAssertEqual(ring.count, mute ? 0 : 6400)
        }
    }

    func testBatterySaveIsWrittenAndReadBack() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scripted-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("game.srm")
        let script = ScriptedCore.Script(batterySave: file)
        for frames: UInt64 in [12, 5] {
            let thread = makeThread(script, options: CoreThread.Options(frameLimit: frames, realTime: false),
                                    journal: ScriptedCore.Journal())
            try thread.start()
            thread.waitUntilFinished()
            XCTAssertNil(thread.currentStatus.batterySaveFailure)
        }
        let saved = try [UInt8](Data(contentsOf: file))
        XCTAssertEqual(saved.count, 16)
        XCTAssertEqual(saved.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }.littleEndian, 17,
                       "the second run went on from the first run's save")
    }
}
