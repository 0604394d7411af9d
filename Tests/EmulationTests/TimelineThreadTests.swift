import Foundation
import XCTest
@testable import Emulation
import PhosphorKit

/// Rewind, run-ahead, slow motion and frame advance on the core thread with a `ScriptedCore`:
/// what each does to frames, sound, cheats and pacing, counted in the core's journal.
final class TimelineThreadTests: XCTestCase {
    private func hash(_ thread: CoreThread) throws -> UInt64 {
        var latest: VideoFrame?
        while let frame = thread.mailbox.takeLatest() { latest = frame }
        return try XCTUnwrap(latest).fnv1aHash()
    }

    private func waitFor(_ what: String, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !condition(), Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
        XCTAssertTrue(condition(), "timed out waiting for \(what)")
    }

    func testHoldingRewindRunsBackMutedAndReleasingPlaysOnWithCheatsAndButtons() throws {
        let journal = ScriptedCore.Journal()
        let script = ScriptedCore.Script(width: 32, height: 8)
        let ring = SampleRing(minimumCapacity: 1 << 16)
        let cheat = CoreCheat(index: 0, code: "APEETPEY")
        let thread = CoreThread(options: CoreThread.Options(realTime: false, cheats: [cheat], rewind: RewindSettings()), audioRing: ring,
                                makeCore: ScriptedCore.maker(script, journal: journal))
        thread.pause()
        try thread.start()
        defer { thread.stop() }
        thread.input.set(ButtonMask([.a]), port: 0)
        var shown: [UInt64] = []
        for _ in 0..<60 {
            try thread.step()
            shown.append(try hash(thread))
        }
        // Running backwards (the thread's own loop, as holding the key does), then stopped.
        let muted = journal.entries.mutedFrames
        thread.setRewinding(true)
        thread.resume()
        waitFor("30 frames of rewind") { journal.entries.recentRestores >= 30 }
        thread.pause()
        thread.setRewinding(false)
        waitFor("the pause") { thread.currentStatus.state == .paused }
        let restores = journal.entries.recentRestores
        let frame = try thread.perform { $0.frameCount }
        XCTAssertLessThan(frame, 60 - 29)
        XCTAssertEqual(journal.entries.mutedFrames - muted, UInt64(restores), "every rewind frame is muted")
        XCTAssertEqual(try hash(thread), shown[Int(frame) - 1], "the frame shown is the one shown back then")
        XCTAssertEqual(journal.entries.cheatHandOvers.count, 1 + restores, "cheats handed over again after each step")
        // Playing on: the held button is pressed again in the next frame.
        try thread.step()
        XCTAssertEqual(try hash(thread), ScriptedCore.picture(frame: frame, masks: [ButtonMask([.a]), []], script: script).fnv1aHash())
    }

    func testRunAheadHidesFramesAndTheirSound() throws {
        let journal = ScriptedCore.Journal()
        let script = ScriptedCore.Script(width: 32, height: 8)
        let ring = SampleRing(minimumCapacity: 1 << 16)
        let thread = CoreThread(options: CoreThread.Options(realTime: false, rewind: .off, runAhead: .runAhead(frames: 2)),
                                audioRing: ring, makeCore: ScriptedCore.maker(script, journal: journal))
        thread.pause()
        try thread.start()
        defer { thread.stop() }
        for _ in 0..<10 { try thread.step() }
        // The replay check ran two hidden frames; then each shown frame is 1 real + 1 ahead hidden, 1 shown.
        XCTAssertEqual(journal.entries.framesRun, 2 + 10 * 3)
        XCTAssertEqual(journal.entries.hiddenFrames, 2 + 10 * 2)
        XCTAssertEqual(try thread.perform { $0.frameCount }, 10, "the real timeline is ten frames on")
        // The shown picture is two frames ahead of the real one.
        XCTAssertEqual(try hash(thread), ScriptedCore.picture(frame: 11, masks: [], script: script).fnv1aHash())
        // Only shown frames' sound reaches the ring: one frame's worth each.
        let perFrame = Double(script.sampleRate) / script.framesPerSecond
        XCTAssertEqual(Double(ring.count / 2), 10 * perFrame, accuracy: 2)
    }

    func testACoreThatCannotSerializeTurnsRunAheadAndRewindOffWithOneLine() throws {
        var script = ScriptedCore.Script(width: 32, height: 8)
        script.failures = [.serialize]
        let thread = CoreThread(options: CoreThread.Options(realTime: false, rewind: RewindSettings(), runAhead: .preemptive(frames: 1)),
                                makeCore: ScriptedCore.maker(script))
        thread.pause()
        try thread.start()
        defer { thread.stop() }
        try thread.step()
        let problem = try XCTUnwrap(thread.currentStatus.timelineProblem)
        XCTAssertFalse(problem.contains("\n"))
        XCTAssertTrue(problem.hasPrefix("rewind off: ") || problem.hasPrefix("run-ahead off: "), problem)
        XCTAssertTrue(problem.contains("does not support save states"), problem)
        try thread.step()
        XCTAssertEqual(try thread.perform { $0.frameCount }, 2, "the game plays on without them")
    }

    func testFrameAdvanceRunsExactlyOneFramePerStep() throws {
        let journal = ScriptedCore.Journal()
        let script = ScriptedCore.Script(width: 32, height: 8)
        let thread = CoreThread(options: CoreThread.Options(), makeCore: ScriptedCore.maker(script, journal: journal))
        thread.pause()
        try thread.start()
        defer { thread.stop() }
        for count in 1...5 {
            try thread.step()
            XCTAssertEqual(journal.entries.framesRun, UInt64(count))
            XCTAssertEqual(try hash(thread), ScriptedCore.picture(frame: UInt64(count - 1), masks: [], script: script).fnv1aHash())
        }
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(journal.entries.framesRun, 5, "paused between steps")
    }

    func testSlowMotionRunsAtTheSetFractionOfClockTime() throws {
        for fraction in [0.5, 0.25] {
            let journal = ScriptedCore.Journal()
            let clock = SteppingFrameClock()
            let ring = SampleRing(minimumCapacity: 1 << 16)
            let thread = CoreThread(options: CoreThread.Options(rewind: .off, clock: clock), audioRing: ring,
                                    makeCore: ScriptedCore.maker(ScriptedCore.Script(width: 16, height: 4), journal: journal))
            thread.setSpeed(fraction)
            let start = clock.now
            try thread.start()
            waitFor("240 frames") { journal.entries.framesRun >= 240 }
            thread.pause()
            waitFor("the pause") { thread.currentStatus.state == .paused }
            let frames = Double(journal.entries.framesRun)
            let seconds = (clock.now - start).inSeconds
            thread.stop()
            XCTAssertEqual(frames / seconds, 60 * fraction, accuracy: 60 * fraction * 0.03, "at \(fraction)")
            XCTAssertEqual(journal.entries.mutedFrames, journal.entries.framesRun, "slow motion plays no sound")
            XCTAssertEqual(ring.count, 0)
        }
    }

    /// Plays in real time on a stepping clock a core whose frames and serializes take `script`'s
    /// costs, until the speed checks have had their two seconds; returns the timeline's problem
    /// and the frames the core ran per frame shown afterwards.
    private func slowCoreRun(_ script: ScriptedCore.Script, rewind: RewindSettings,
                             runAhead: RunAheadMode) throws -> (problem: String?, framesPerShown: Double, serializations: Int) {
        let journal = ScriptedCore.Journal()
        let clock = SteppingFrameClock()
        let thread = CoreThread(options: CoreThread.Options(rewind: rewind, runAhead: runAhead, clock: clock),
                                makeCore: ScriptedCore.maker(script, journal: journal, clock: clock))
        try thread.start()
        defer { thread.stop() }
        // The checks look at the first two seconds (120 frames at 60 fps), once.
        waitFor("three seconds of clock time") { thread.currentStatus.frameCount >= 180 }
        let (ran, shown) = (journal.entries.framesRun, thread.currentStatus.frameCount)
        waitFor("60 more frames") { thread.currentStatus.frameCount >= shown + 60 }
        // The status and the journal are read a moment apart: a frame either way.
        let framesPerShown = Double(journal.entries.framesRun - ran) / Double(thread.currentStatus.frameCount - shown)
        return (thread.currentStatus.timelineProblem, framesPerShown, journal.entries.serializations)
    }

    func testRunAheadTooSlowForItsFramesTurnsOffWithOneLine() throws {
        // Three 6 ms frames per shown frame (run-ahead 2) are 18 ms, over 90 % of 16.7 ms.
        var script = ScriptedCore.Script(width: 16, height: 4)
        script.frameCost = .milliseconds(6)
        let slow = try slowCoreRun(script, rewind: .off, runAhead: .runAhead(frames: 2))
        XCTAssertEqual(slow.problem, "run-ahead off: \(RunAheadMode.runAhead(frames: 2).description) takes 18.0 ms a frame, "
            + "more than the game's 16.7 ms")
        XCTAssertEqual(slow.framesPerShown, 1, accuracy: 0.1, "one frame per frame shown once it is off")
        // 4 ms frames (12 ms for three) keep it on.
        script.frameCost = .milliseconds(4)
        let fast = try slowCoreRun(script, rewind: .off, runAhead: .runAhead(frames: 2))
        XCTAssertNil(fast.problem)
        XCTAssertEqual(fast.framesPerShown, 3, accuracy: 0.1, "run-ahead 2 still runs three frames per frame shown")
    }

    /// Steps a paused scripted core `frames` times with `options`; returns the thread (stopped by
    /// the caller), its journal and how often it asked the state size during those frames.
    private func stepCountingStateSizeQueries(_ options: CoreThread.Options, frames: Int) throws
        -> (thread: CoreThread, journal: ScriptedCore.Journal, asked: Int) {
        let journal = ScriptedCore.Journal()
        let thread = CoreThread(options: options, audioRing: SampleRing(minimumCapacity: 1 << 16),
                                makeCore: ScriptedCore.maker(ScriptedCore.Script(width: 16, height: 4), journal: journal))
        thread.pause()
        try thread.start()
        let before = journal.entries.stateSizeQueries
        do {
            for _ in 0..<frames { try thread.step() }
        } catch {
            thread.stop()
            throw error
        }
        return (thread, journal, journal.entries.stateSizeQueries - before)
    }

    func testRewindAsksTheStateSizeOnceEveryThirtyStatesNotEveryFrame() throws {
        // mGBA measures its state by writing a whole one: asked every frame, that doubled what
        // rewind cost (0.65 ms a frame for a GBA game).
        let run = try stepCountingStateSizeQueries(CoreThread.Options(realTime: false, rewind: RewindSettings()), frames: 90)
        defer { run.thread.stop() }
        XCTAssertEqual(run.asked, 4, "90 states: asked before the first two, the 32nd and the 62nd")
        XCTAssertEqual(run.thread.currentStatus.rewindSeconds, 90 / 60, accuracy: 0.05, "every frame's state kept")
        XCTAssertTrue(try run.thread.stepBack())
        XCTAssertEqual(try run.thread.perform { $0.frameCount }, 89)
    }

    func testRunAheadAsksTheStateSizeOnceEveryThirtyStatesToo() throws {
        let options = CoreThread.Options(realTime: false, rewind: .off, runAhead: .runAhead(frames: 1))
        let run = try stepCountingStateSizeQueries(options, frames: 60)
        defer { run.thread.stop() }
        XCTAssertEqual(run.journal.entries.hiddenFrames, 60 + 2, "run-ahead ran (after its replay check's two frames)")
        XCTAssertEqual(run.asked, 3, "60 states: asked before the first two and the 32nd")
    }

    func testRewindWhoseStatesTakeTooLongTurnsOffWithOneLine() throws {
        var script = ScriptedCore.Script(width: 16, height: 4)
        script.serializeCost = .milliseconds(16)
        let slow = try slowCoreRun(script, rewind: RewindSettings(), runAhead: .off)
        XCTAssertEqual(slow.problem, "rewind off: keeping a state takes 16.0 ms a frame, and the game's frame is 16.7 ms")
        script.serializeCost = .milliseconds(10)
        let fast = try slowCoreRun(script, rewind: RewindSettings(), runAhead: .off)
        XCTAssertNil(fast.problem)
    }

    func testRewindFarTooSlowTurnsOffOnceTwoSecondsWentOnItNotAfter120Frames() throws {
        // Keeping desmume's 12 MB state took 3.2 s a frame in a debug build: 120 frames of that
        // were six and a half minutes before the check.
        var script = ScriptedCore.Script(width: 16, height: 4)
        script.serializeCost = .seconds(1)
        let slow = try slowCoreRun(script, rewind: RewindSettings(), runAhead: .off)
        XCTAssertEqual(slow.problem, "rewind off: keeping a state takes 1000.0 ms a frame, and the game's frame is 16.7 ms")
        XCTAssertEqual(slow.serializations, 2, "two states of a second each, then off")
    }
}
