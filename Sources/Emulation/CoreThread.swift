import Foundation
import PhosphorKit
import Synchronization

/// The one thread that owns a core (mGBA's mCoreThread, simplified): it loads the game, runs frames,
/// paces them, and runs control jobs between frames. Control goes through a lock (`NSCondition`);
/// data goes through the lock-free `FrameMailbox`, `SampleRing` and `InputState`.
///
/// The core is anything behind `EmulatorCore`: a libretro core through `CoreHost`, or a
/// `ScriptedCore` in tests. The run's settings are fixed at creation (`Options`).
///
/// Threading: create, `start`, `perform`, `pause`, `resume`, `setSpeed` and `stop` from any one
/// controlling thread (the UI thread); `currentStatus` and `audioHighWater` from any thread.
/// `makeCore`, `beforeFrame` and `perform` bodies run on the core thread, the only thread that
/// touches the core.
public final class CoreThread: @unchecked Sendable {
    public enum State: Equatable, Sendable {
        case starting, running, paused, stopped
        /// The core failed (its message); the thread has ended.
        case crashed(String)
    }

    public struct Status: Sendable {
        public var state: State = .starting
        public var frameCount: UInt64 = 0
        public var avInfo: AVInfo?
        /// Emulated frames per second over the last second.
        public var measuredFPS: Double = 0
        public var speed: Double = 1
        public var audioFrames = 0
        /// The battery save could not be written (full or read-only disk): say so to the user.
        public var batterySaveFailure: String?
        /// Going back through the rewind ring right now.
        public var rewinding = false
        /// Seconds of play the rewind ring holds, and its bytes.
        public var rewindSeconds: Double = 0
        public var rewindBytes = 0
        public var rewindStates = 0
        /// Why rewind or run-ahead turned itself off (one line), nil while both work.
        public var timelineProblem: String?
        /// CPU time the core thread used, from start to unload (set when it has ended).
        public var threadCPU: Duration?
    }

    public let mailbox: FrameMailbox
    public let input: InputState
    public let audioRing: SampleRing?
    public let options: Options
    /// Builds the core; called once, on the core thread, by `start`.
    private let makeCore: @Sendable (CoreConnections) throws -> any EmulatorCore

    /// While the audio ring holds more samples than this, the core waits (audio is the clock).
    /// 0 = no audio pacing. Any thread: it follows the core's sample rate during play.
    public var audioHighWater: Int {
        get { highWater.load(ordering: .relaxed) }
        set { highWater.store(newValue, ordering: .relaxed) }
    }
    private let highWater = Atomic<Int>(0)

    private let condition = NSCondition()
    // Guarded by `condition`:
    private var jobs: [(any EmulatorCore) -> Void] = []
    private var requestedState: State = .running
    private var status = Status()
    private var speed: Double = 1  // 0 = unlimited
    private var rewindRequested = false
    /// Rewind ring and run-ahead: core thread only (the loop and jobs).
    private let timeline: FrameTimeline
    private var thread: Thread?
    private var finished = false

    /// A thread for any core: `makeCore` builds it on the core thread from the connections
    /// (mailbox, input, audio ring, the options' audio tap), so a libretro core is never touched by
    /// another thread, not even while loading.
    public init(options: Options = Options(), input: InputState = InputState(), mailbox: FrameMailbox = FrameMailbox(),
                audioRing: SampleRing? = nil,
                makeCore: @escaping @Sendable (CoreConnections) throws -> any EmulatorCore) {
        self.options = options
        self.input = input
        self.mailbox = mailbox
        self.audioRing = audioRing
        self.makeCore = makeCore
        timeline = FrameTimeline(rewind: options.rewind, runAhead: options.runAhead, input: input,
                                 checksSpeed: options.realTime, clock: options.clock)
    }

    /// A thread for a libretro core: loads `configuration`'s core and game with `CoreHost`.
    public convenience init(configuration: CoreHost.Configuration, options: Options = Options(),
                            input: InputState = InputState(), mailbox: FrameMailbox = FrameMailbox(),
                            audioRing: SampleRing? = nil) {
        self.init(options: options, input: input, mailbox: mailbox, audioRing: audioRing) { connections in
            try CoreHost(configuration: configuration, connections: connections)
        }
    }

    deinit {
        precondition(thread == nil || finished, "CoreThread released without stop(): the core thread was never joined")
    }

    /// Starts the thread and waits until the game is loaded; throws the load error.
    public func start() throws {
        let loaded = NSCondition()
        nonisolated(unsafe) var outcome: Result<Void, Error>?
        let thread = Thread { [self] in
            var endState = State.stopped
            // The core lives only inside this scope: it is released (a libretro core dlclose'd)
            // before `finished` is signalled, so the process can never exit while a core is being
            // unloaded.
            do {
                let connections = CoreConnections(mailbox: mailbox, input: input, audioRing: audioRing,
                                                  audioTap: options.audioTap, copyFramesFrom: options.copyFramesFrom)
                let core = try makeCore(connections)
                loaded.withLock { outcome = .success(()); loaded.signal() }
                run(core)
            } catch {
                endState = .crashed("\(error)")
                // The status says "crashed" before `start` returns with the error.
                condition.withLock { status.state = endState }
                loaded.withLock { outcome = outcome ?? .failure(error); loaded.signal() }
            }
            let threadCPU = try? ThreadCPUTime.current()
            condition.withLock {
                status.state = endState
                status.threadCPU = threadCPU
                finished = true
                condition.broadcast()
            }
        }
        thread.name = "phosphor.core"
        thread.stackSize = 16 << 20  // some cores recurse deeply
        self.thread = thread
        thread.start()
        loaded.lock()
        while outcome == nil { loaded.wait() }
        loaded.unlock()
        if case .failure(let error) = outcome! { throw error }
    }

    /// Runs `body` on the core thread between frames and returns its result. Blocks the caller
    /// for at most about one frame.
    public func perform<T>(_ body: @escaping (any EmulatorCore) throws -> T) throws -> T {
        nonisolated(unsafe) var result: Result<T, Error>?
        condition.lock()
        guard !finished else {
            condition.unlock()
            throw EmulationError.stateRejected(reason: "the game is not running")
        }
        jobs.append { core in
            let value = Result { try body(core) }
            self.condition.withLock {
                result = value
                self.condition.broadcast()
            }
        }
        condition.broadcast()
        while result == nil && !finished { condition.wait() }
        condition.unlock()
        guard let result else { throw EmulationError.stateRejected(reason: "the game stopped") }
        return try result.get()
    }

    /// Pauses between frames (writing the battery save). Called before `start`, the game loads
    /// and waits paused for `step` or `resume`.
    public func pause() { request(.paused) }

    /// Runs exactly one frame (frame advance while paused), with run-ahead and a rewind state
    /// like any other, and returns when it is done.
    public func step() throws {
        try perform { [self] core in
            timeline.runFrame(core, fastForwarding: false, muteAudio: false, hidingLag: true,
                              framesPerSecond: core.avInfo.framesPerSecond)
            core.publishPendingFrame()
            publishStatus(core, speed: 1, rewinding: false)
        }
    }

    /// Goes back one rewind step while paused and shows that frame (the test of what holding
    /// the rewind key does each frame). Returns false when there is nothing to go back to.
    @discardableResult
    public func stepBack() throws -> Bool {
        try perform { [self] core in
            let went = timeline.rewindStep(core)
            publishStatus(core, speed: nil, rewinding: nil)
            return went
        }
    }

    /// Runs the game backwards (one state a frame, without sound) while `on`. Any thread that
    /// controls the game.
    public func setRewinding(_ on: Bool) {
        condition.withLock {
            rewindRequested = on
            condition.broadcast()
        }
    }

    /// New rewind settings (the ring starts again) and run-ahead mode; takes effect before the
    /// next frame.
    public func setTimeline(rewind: RewindSettings, runAhead: RunAheadMode) throws {
        try perform { [self] core in
            timeline.setRewind(rewind)
            timeline.setRunAhead(runAhead)
            publishStatus(core, speed: nil, rewinding: nil)
        }
    }

    /// Empties the rewind ring: call after a state load or a reset (rewinding across one would
    /// go back into another timeline).
    public func clearRewind() throws {
        try perform { [self] core in
            timeline.clear()
            publishStatus(core, speed: nil, rewinding: nil)
        }
    }
    public func resume() { request(.running) }

    /// 1 = real time; 2, 4, 8… = fast-forward; 0 = unlimited.
    public func setSpeed(_ newSpeed: Double) {
        condition.withLock {
            speed = max(newSpeed, 0)
            condition.broadcast()
        }
    }

    /// A snapshot for the status bar. Any thread.
    public var currentStatus: Status { condition.withLock { status } }

    /// Blocks until the thread ended by itself (frame limit reached or a crash).
    public func waitUntilFinished() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }

    /// Unloads the game (writing the battery save) and joins the thread.
    public func stop() {
        request(.stopped)
        waitUntilFinished()
    }

    private func request(_ state: State) {
        condition.withLock {
            requestedState = state
            condition.broadcast()
        }
    }

    // MARK: Core thread

    private func run(_ core: any EmulatorCore) {
        if !options.cheats.isEmpty {
            do { try core.setCheats(options.cheats) } catch { Log.error("\(error)") }
        }
        let clock = options.clock
        var pacer = FramePacer(clock: clock)
        var fpsWindow = (start: clock.now, frames: 0)
        while true {
            // Control: take jobs and the requested state under the lock.
            condition.lock()
            var waitedPaused = false
            while requestedState == .paused && jobs.isEmpty {
                waitedPaused = true
                if status.state != .paused {
                    // The battery save is on disk before the thread says "paused": whoever waits
                    // for the pause (a menu, Ctrl-Z, a test) may rely on it.
                    condition.unlock()
                    core.flushBatterySave()
                    core.publishPendingFrame()
                    condition.lock()
                    if requestedState == .paused { status.state = .paused }
                    continue
                }
                condition.wait()
            }
            let pending = jobs
            jobs.removeAll()
            let requested = requestedState
            let currentSpeed = speed
            let rewinding = rewindRequested
            condition.unlock()
            // The fps figure counts running time only (a window spanning a pause read "15 fps").
            if waitedPaused { fpsWindow = (clock.now, 0) }

            // A job (a screenshot, a state) sees the newest frame in the mailbox.
            if !pending.isEmpty { core.publishPendingFrame() }
            for job in pending { job(core) }
            if requested == .stopped { break }
            if requested == .paused { continue }

            let frame = core.frameCount
            options.beforeFrame?(core, frame)
            if let limit = options.frameLimit, frame >= limit {
                core.publishPendingFrame()
                break
            }
            let framesPerSecond = core.avInfo.framesPerSecond
            if rewinding {
                timeline.rewindStep(core)
            } else {
                // Slow motion (speed below 1) plays no sound; fast-forward as the options say.
                let fastForwarding = currentSpeed > 1 || currentSpeed == 0
                timeline.runFrame(core, fastForwarding: fastForwarding,
                                  muteAudio: currentSpeed < 1 && currentSpeed > 0
                                      || fastForwarding && options.muteWhileFastForwarding,
                                  hidingLag: !fastForwarding, framesPerSecond: framesPerSecond)
            }

            fpsWindow.frames += 1
            let now = clock.now
            let elapsed = now - fpsWindow.start
            var measured: Double?
            var saveFailure: String??
            if elapsed >= .seconds(1) {
                measured = Double(fpsWindow.frames) / elapsed.inSeconds
                fpsWindow = (now, 0)
                saveFailure = .some(core.batterySaveFailure)
            }
            publishStatus(core, speed: currentSpeed, rewinding: rewinding) {
                $0.state = .running
                if let measured { $0.measuredFPS = measured }
                if let saveFailure { $0.batterySaveFailure = saveFailure }
            }
            if options.realTime {
                pacer.wait(framesPerSecond: core.avInfo.framesPerSecond, speed: currentSpeed)
                let highWater = audioHighWater
                if currentSpeed == 1, !rewinding, let ring = audioRing, highWater > 0 {
                    waitForAudio(ring: ring, highWater: highWater)
                }
            }
        }
        core.unload()
    }

    /// Copies the core's counters and the timeline's figures into the status. Core thread.
    private func publishStatus(_ core: any EmulatorCore, speed: Double?, rewinding: Bool?,
                               _ more: (inout Status) -> Void = { _ in }) {
        let seconds = timeline.rewindSeconds(framesPerSecond: core.avInfo.framesPerSecond)
        let bytes = timeline.rewindBytes
        let states = timeline.rewindStates
        let problem = timeline.problem
        condition.withLock {
            status.frameCount = core.frameCount
            status.avInfo = core.avInfo
            status.audioFrames = core.audioFrames
            if let speed { status.speed = speed }
            if let rewinding { status.rewinding = rewinding }
            status.rewindSeconds = seconds
            status.rewindBytes = bytes
            status.rewindStates = states
            status.timelineProblem = problem
            more(&status)
        }
    }

    /// Audio is the clock at 1x: while the device has plenty queued, let it play.
    private func waitForAudio(ring: SampleRing, highWater: Int) {
        var waited = 0
        while ring.count > highWater && waited < 100 {
            Thread.sleep(forTimeInterval: 0.001)
            waited += 1
        }
    }
}

/// Sleeps until the next frame is due on the monotonic clock. After a stall (a debugger, a
/// suspended process) it starts again from now instead of racing to catch up.
struct FramePacer {
    let clock: any FrameClock
    private var deadline: ContinuousClock.Instant

    init(clock: any FrameClock) {
        self.clock = clock
        deadline = clock.now
    }

    mutating func wait(framesPerSecond: Double, speed: Double) {
        guard speed > 0 else { return }  // unlimited
        let period = Duration.seconds(1 / (max(framesPerSecond, 1) * speed))
        deadline += period
        let now = clock.now
        if deadline < now - .milliseconds(100) {
            deadline = now
            return
        }
        clock.sleep(until: deadline)
    }
}
