import Foundation
import PhosphorKit

/// How the core thread moves through a game's frames beyond "run the next one": it keeps the
/// rewind ring, goes back a frame at a time, and runs ahead (or preemptively rolls back) to hide
/// the game's input lag. Rewind and run-ahead turn themselves off, with one line saying why,
/// when the core cannot serialize (or not deterministically), or is too slow.
///
/// Threading: core thread only (it is owned by `CoreThread` and used inside its loop and jobs).
final class FrameTimeline {
    private(set) var rewind: RewindSettings
    private(set) var runAhead: RunAheadMode
    /// Why rewind is off though it was asked for (nil while it works).
    private(set) var rewindProblem: String?
    /// Why run-ahead is off though it was asked for (nil while it works or was not asked for).
    private(set) var runAheadProblem: String?

    private let input: InputState
    /// Times the speed checks (the thread's pacing clock, so a test's stepping clock trips them).
    private let clock: any FrameClock
    /// Real-time play: the speed check may turn run-ahead off (an unthrottled run never).
    private let checksSpeed: Bool
    private var ring: RewindRing?
    /// When rewind's and run-ahead's states ask the core for its state size.
    private var stateSize = StateSizeCheck()
    /// Whether this core replays a frame identically after a state load (checked once).
    private var runAheadChecked = false
    /// Preemptive frames: the states before each of the last `frames` frames, oldest first.
    private var history: [(frame: UInt64, bytes: [UInt8])] = []
    private var lastInput: [ButtonMask]?
    /// Run-ahead's speed check: core-thread time spent on its frames.
    private var timing = SpeedCheck()
    /// Rewind's speed check: time spent on the frames, and (its part) on keeping the states.
    private var rewindTiming = SpeedCheck()

    init(rewind: RewindSettings, runAhead: RunAheadMode, input: InputState, checksSpeed: Bool,
         clock: any FrameClock = SystemFrameClock()) {
        self.rewind = rewind
        self.runAhead = runAhead.clamped
        self.input = input
        self.clock = clock
        self.checksSpeed = checksSpeed
    }

    // MARK: Settings and status

    func setRewind(_ settings: RewindSettings) {
        guard settings != rewind else { return }
        rewind = settings
        rewindProblem = nil
        ring = nil
        rewindTiming = SpeedCheck()
    }

    func setRunAhead(_ mode: RunAheadMode) {
        guard mode.clamped != runAhead else { return }
        runAhead = mode.clamped
        runAheadProblem = nil
        runAheadChecked = false
        timing = SpeedCheck()
        forgetHistory()
    }

    /// Forgets the past (a state load or a reset: the states held no longer lead here).
    func clear() {
        ring?.removeAll()
        stateSize.askAgain()
        forgetHistory()
    }

    /// Seconds of play the rewind ring holds at `framesPerSecond`.
    func rewindSeconds(framesPerSecond: Double) -> Double {
        guard let ring, ring.count > 0 else { return 0 }
        return Double(ring.framesHeld + UInt64(rewind.granularity)) / max(framesPerSecond, 1)
    }

    /// Bytes the rewind ring holds, and how many states.
    var rewindBytes: Int { ring?.usedBytes ?? 0 }
    var rewindStates: Int { ring?.count ?? 0 }

    /// The status bar's line for a feature that turned itself off.
    var problem: String? { rewindProblem ?? runAheadProblem }

    // MARK: Forward

    /// Runs the next frame, showing it (or, with run-ahead, a frame `frames` ahead of it), and
    /// keeps a rewind state. `hidingLag` is false while fast-forwarding: run-ahead only costs
    /// then.
    func runFrame(_ core: any EmulatorCore, fastForwarding: Bool, muteAudio: Bool, hidingLag: Bool,
                  framesPerSecond: Double) {
        let mode = hidingLag ? usableRunAhead(core) : .off
        if case .preemptive = mode {} else { forgetHistory() }
        let started = clock.now
        do {
            switch mode {
            case .off:
                keepRewindState(core, frame: core.frameCount)
                core.runFrame(fastForwarding: fastForwarding, muteAudio: muteAudio)
            case .runAhead(let frames):
                try runAhead(core, frames: frames, muteAudio: muteAudio)
            case .preemptive(let frames):
                try runPreemptively(core, frames: frames, muteAudio: muteAudio)
            }
        } catch {
            core.hidesOutput = false
            runAheadProblem = "run-ahead off: \(error)"
            Log.warning(runAheadProblem!)
            return
        }
        let spent = clock.now - started
        if mode != .off { checkSpeed(spent: spent, framesPerSecond: framesPerSecond, mode: mode) }
        checkRewindSpeed(frame: spent, framesPerSecond: framesPerSecond)
    }

    /// Run-ahead: the real frame and `frames - 1` more hidden, the last one shown, then back to
    /// the state after the real frame.
    private func runAhead(_ core: any EmulatorCore, frames: Int, muteAudio: Bool) throws {
        let real = core.frameCount
        core.hidesOutput = true
        core.runFrame(fastForwarding: false, muteAudio: true)
        let afterReal = try takeState(core, frame: real + 1)
        keepRewindState(core, frame: real + 1, state: afterReal)
        for _ in 1..<frames { core.runFrame(fastForwarding: false, muteAudio: true) }
        core.hidesOutput = false
        core.runFrame(fastForwarding: false, muteAudio: muteAudio)
        try core.restoreRecentState(afterReal, frame: real + 1, reapplyingCheats: false)
    }

    /// Preemptive frames: when the buttons changed since the last frame, go back `frames`
    /// frames and replay them (hidden) with the new buttons, as if they had been pressed then.
    private func runPreemptively(_ core: any EmulatorCore, frames: Int, muteAudio: Bool) throws {
        let now = (0..<InputState.portCount).map { input.mask(port: $0) }
        let frame = core.frameCount
        if let lastInput, now != lastInput, history.count >= frames, frame >= UInt64(frames),
           history[history.count - frames].frame == frame - UInt64(frames) {
            let base = history[history.count - frames]
            try core.restoreRecentState(base.bytes, frame: base.frame, reapplyingCheats: false)
            history.removeLast(frames)
            core.hidesOutput = true
            for step in 0..<frames {
                history.append(step == 0 ? base : (core.frameCount, try takeState(core, frame: core.frameCount)))
                core.runFrame(fastForwarding: false, muteAudio: true)
            }
            core.hidesOutput = false
        }
        lastInput = now
        let state = try takeState(core, frame: frame)
        history.append((frame, state))
        if history.count > frames { history.removeFirst(history.count - frames) }
        keepRewindState(core, frame: frame, state: state)
        core.runFrame(fastForwarding: false, muteAudio: muteAudio)
    }

    // MARK: Back

    /// Goes back one step (`granularity` frames) and shows that frame, without sound. Returns
    /// false when there is nothing to go back to (rewind off, or no state yet).
    @discardableResult
    func rewindStep(_ core: any EmulatorCore) -> Bool {
        guard let ring, ring.count > 0 else { return false }
        forgetHistory()
        do {
            // The newest state may be the one the frame on screen was run from (or later, with
            // run-ahead): running it would show the same picture again.
            while let newest = ring.newest, newest.frame + 1 >= core.frameCount, ring.count > 1 {
                try ring.dropNewest()
            }
            guard let target = ring.newest else { return false }
            try core.restoreRecentState(target.bytes, frame: target.frame, reapplyingCheats: true)
            core.runFrame(fastForwarding: false, muteAudio: true)
            return true
        } catch {
            turnRewindOff("\(error)")
            return false
        }
    }

    // MARK: Internals

    /// Puts a state into the ring: `state` when the caller has one (run-ahead), else the core
    /// serializes straight into the ring's spare buffer.
    private func keepRewindState(_ core: any EmulatorCore, frame: UInt64, state: [UInt8]? = nil) {
        guard rewind.enabled, rewindProblem == nil, frame % UInt64(rewind.granularity) == 0 else { return }
        // Timed only until the speed check has been made (two clock reads a frame saved after).
        let timed = checksSpeed && !rewindTiming.isDecided
        let started = timed ? clock.now : nil
        do {
            if ring == nil { ring = RewindRing(budget: rewind.budgetBytes, compressor: rewind.compression.makeCompressor()) }
            if let state {
                try ring!.push(state, frame: frame)
            } else {
                try keepState(core, frame: frame)
            }
        } catch {
            turnRewindOff("\(error)")
        }
        if let started { rewindTiming.part += clock.now - started }
    }

    /// Serializes straight into the ring's spare buffer, with the size `stateSize` says.
    private func keepState(_ core: any EmulatorCore, frame: UInt64) throws {
        try withStateSize(core, frame: frame) { size in
            try ring!.push(frame: frame) { try core.serializeState(into: &$0, size: size) }
        }
    }

    /// The state before frame `frame`, with the size `stateSize` says: run-ahead's and preemptive
    /// frames' states, restored moments later (a state a few bytes longer than the core's, after
    /// its state shrank, loads the same in mGBA, nestopia, bsnes and mednafen_pce_fast; gambatte
    /// refuses any other size, and is then asked at once).
    private func takeState(_ core: any EmulatorCore, frame: UInt64) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try withStateSize(core, frame: frame) { size in try core.serializeState(into: &bytes, size: size) }
        return bytes
    }

    /// Runs `take` with the state size to use, asking the core first when due, and again (then
    /// once more `take`) when the core refused the size it gave before: its state grew.
    private func withStateSize(_ core: any EmulatorCore, frame: UInt64, _ take: (Int) throws -> Void) throws {
        if stateSize.isDue { try askStateSize(core, frame: frame) }
        do {
            try take(stateSize.size ?? 0)
        } catch {
            guard !stateSize.varies else { throw error }
            try askStateSize(core, frame: frame)
            guard stateSize.varies else { throw error }
            try take(stateSize.size ?? 0)
        }
        stateSize.noteStateTaken()
    }

    /// Asks the core's state size before the state of `frame`; when it changed, drops the states
    /// taken since it was last asked (their last bytes may be stale).
    private func askStateSize(_ core: any EmulatorCore, frame: UInt64) throws {
        let before = stateSize.size ?? 0
        guard let after = stateSize.noteAnswer(core.stateSize, frame: frame) else { return }
        while let newest = ring?.newest, newest.frame > after {
            guard try ring!.dropNewest() else { break }
        }
        Log.info("rewind: the core's state size changed (\(before) → \(stateSize.size ?? 0) bytes); it is asked before every state now")
    }

    private func turnRewindOff(_ reason: String) {
        rewindProblem = "rewind off: \(reason)"
        ring = nil
        Log.warning(rewindProblem!)
    }

    private func forgetHistory() {
        history.removeAll()
        lastInput = nil
    }

    /// The run-ahead mode to use now: the setting, once the core proved it can replay a frame.
    private func usableRunAhead(_ core: any EmulatorCore) -> RunAheadMode {
        guard runAhead != .off, runAheadProblem == nil else { return .off }
        if !runAheadChecked {
            runAheadChecked = true
            if let problem = Self.replayProblem(core) {
                runAheadProblem = "run-ahead off: \(problem)"
                Log.warning(runAheadProblem!)
                return .off
            }
        }
        return runAhead
    }

    /// Serialize, run a frame, load the state, run the frame again: both runs must end in the
    /// same state. The game is left where it was. Nil when it replays exactly.
    static func replayProblem(_ core: any EmulatorCore) -> String? {
        let frame = core.frameCount
        core.hidesOutput = true
        defer { core.hidesOutput = false }
        do {
            let before = try core.serializeState()
            core.runFrame(fastForwarding: false, muteAudio: true)
            let first = try core.serializeState()
            try core.restoreRecentState(before, frame: frame, reapplyingCheats: false)
            core.runFrame(fastForwarding: false, muteAudio: true)
            let second = try core.serializeState()
            try core.restoreRecentState(before, frame: frame, reapplyingCheats: false)
            if first != second {
                let differing = zip(first, second).filter { $0 != $1 }.count + abs(first.count - second.count)
                return "the core does not replay a frame the same way after loading a state (\(differing) bytes differ)"
            }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Turns rewind off when, in real-time play, keeping the states makes a frame cost more than
    /// 90 % of its time (`SpeedCheck` says when to look; desmume's 12 MB states take 15 ms).
    private func checkRewindSpeed(frame spent: Duration, framesPerSecond: Double) {
        guard checksSpeed, rewind.enabled, rewindProblem == nil,
              let average = rewindTiming.record(spent, framesPerSecond: framesPerSecond) else { return }
        if average.frame > 0.9 / max(framesPerSecond, 1) && average.part > 0 {
            turnRewindOff(String(format: "keeping a state takes %.1f ms a frame, and the game's frame is %.1f ms",
                                 average.part * 1000, 1000 / max(framesPerSecond, 1)))
        }
    }

    /// Turns run-ahead off when, in real-time play, a shown frame costs more than 90 % of a
    /// frame's time (the game could not keep its speed; `SpeedCheck` says when to look).
    private func checkSpeed(spent: Duration, framesPerSecond: Double, mode: RunAheadMode) {
        guard checksSpeed, let average = timing.record(spent, framesPerSecond: framesPerSecond) else { return }
        if average.frame > 0.9 / max(framesPerSecond, 1) {
            runAheadProblem = String(format: "run-ahead off: %@ takes %.1f ms a frame, more than the game's %.1f ms",
                                     mode.description, average.frame * 1000, 1000 / max(framesPerSecond, 1))
            Log.warning(runAheadProblem!)
        }
    }
}
