import Foundation
import PhosphorKit
import Synchronization

/// The one thread that owns a core (mGBA's mCoreThread, simplified): it loads the game, runs frames,
/// paces them, and runs control jobs between frames. Control goes through a lock (`NSCondition`);
/// data goes through the lock-free `FrameMailbox`, `SampleRing` and `InputState`.
///
/// Threading: create, `start`, `perform`, `pause`, `resume`, `setSpeed` and `stop` from any one
/// controlling thread (the UI thread). `beforeFrame` and `perform` bodies run on the core thread.
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
        /// CPU time the core thread used, from start to unload (set when it has ended).
        public var threadCPU: Duration?
    }

    public let mailbox: FrameMailbox
    public let input: InputState
    public let audioRing: SampleRing?
    private let configuration: CoreHost.Configuration

    /// Runs on the core thread before every frame with the index of the frame about to run
    /// (0-based), and once more with `frameLimit` after the last frame. Set before `start`.
    public var beforeFrame: (@Sendable (CoreHost, UInt64) -> Void)?
    /// Runs on the core thread with every batch of samples (WAV recording). Set before `start`.
    public var audioTap: (@Sendable (UnsafeBufferPointer<Int16>) -> Void)?
    /// Cheats handed to the core after the game loads, before the first frame. Set before `start`;
    /// later changes go through `perform { try $0.setCheats(...) }`.
    public var cheats: [CoreCheat] = []
    /// Stop by itself after this many frames (headless runs, `play --frames N`).
    public var frameLimit: UInt64?
    /// Pace frames to real time (false: as fast as the core allows).
    public var realTime = true
    /// While the audio ring holds more samples than this, the core waits (audio is the clock).
    /// 0 = no audio pacing. Any thread: it follows the core's sample rate during play.
    public var audioHighWater: Int {
        get { highWater.load(ordering: .relaxed) }
        set { highWater.store(newValue, ordering: .relaxed) }
    }
    private let highWater = Atomic<Int>(0)
    /// Copy only the final frames into the mailbox (headless runs; see `CoreHost.copyFramesFrom`).
    public var copyOnlyFinalFrames = false
    /// Fast-forward plays no sound (the default) instead of sped-up sound.
    public var muteWhileFastForwarding = true

    private let condition = NSCondition()
    // Guarded by `condition`:
    private var jobs: [(CoreHost) -> Void] = []
    private var requestedState: State = .running
    private var status = Status()
    private var speed: Double = 1  // 0 = unlimited
    private var thread: Thread?
    private var finished = false

    public init(configuration: CoreHost.Configuration, input: InputState = InputState(),
                mailbox: FrameMailbox = FrameMailbox(), audioRing: SampleRing? = nil) {
        self.configuration = configuration
        self.input = input
        self.mailbox = mailbox
        self.audioRing = audioRing
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
            // The host lives only inside this scope: it is released (and the core dlclose'd) before
            // `finished` is signalled, so the process can never exit while a core is being unloaded.
            do {
                let host = try CoreHost(configuration: configuration, mailbox: mailbox, input: input)
                loaded.withLock { outcome = .success(()); loaded.signal() }
                run(host)
            } catch {
                loaded.withLock { outcome = outcome ?? .failure(error); loaded.signal() }
                endState = .crashed("\(error)")
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
    public func perform<T>(_ body: @escaping (CoreHost) throws -> T) throws -> T {
        nonisolated(unsafe) var result: Result<T, Error>?
        condition.lock()
        guard !finished else {
            condition.unlock()
            throw EmulationError.stateRejected(reason: "the game is not running")
        }
        jobs.append { host in
            let value = Result { try body(host) }
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

    public func pause() { request(.paused) }

    /// Runs exactly one frame (frame advance while paused) and returns when it is done.
    public func step() throws {
        try perform { $0.runFrame() }
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

    private func run(_ host: CoreHost) {
        host.audioRing = audioRing
        if copyOnlyFinalFrames, let frameLimit { host.copyFramesFrom = frameLimit > 60 ? frameLimit - 60 : 0 }
        if let audioTap { host.audioTap = { audioTap($0) } }
        if !cheats.isEmpty {
            do { try host.setCheats(cheats) } catch { Log.error("\(error)") }
        }
        var pacer = FramePacer()
        var fpsWindow = (start: ContinuousClock.now, frames: 0)
        while true {
            // Control: take jobs and the requested state under the lock.
            condition.lock()
            var waitedPaused = false
            while requestedState == .paused && jobs.isEmpty {
                waitedPaused = true
                if status.state != .paused {
                    status.state = .paused
                    condition.unlock()
                    host.flushBatterySave()
                    condition.lock()
                    continue
                }
                condition.wait()
            }
            let pending = jobs
            jobs.removeAll()
            let requested = requestedState
            let currentSpeed = speed
            condition.unlock()
            // The fps figure counts running time only (a window spanning a pause read "15 fps").
            if waitedPaused { fpsWindow = (ContinuousClock.now, 0) }

            for job in pending { job(host) }
            if requested == .stopped { break }
            if requested == .paused { continue }

            let frame = host.frameCount
            beforeFrame?(host, frame)
            if let limit = frameLimit, frame >= limit { break }
            host.fastForwarding = currentSpeed != 1
            host.muteAudio = currentSpeed != 1 && muteWhileFastForwarding
            host.runFrame()

            fpsWindow.frames += 1
            let now = ContinuousClock.now
            let elapsed = now - fpsWindow.start
            var measured: Double?
            var saveFailure: String??
            if elapsed >= .seconds(1) {
                measured = Double(fpsWindow.frames) / elapsed.inSeconds
                fpsWindow = (now, 0)
                saveFailure = .some(host.batterySaveFailure)
            }
            condition.withLock {
                status.state = .running
                status.frameCount = host.frameCount
                status.avInfo = host.avInfo
                status.speed = currentSpeed
                status.audioFrames = host.audioFrames
                if let measured { status.measuredFPS = measured }
                if let saveFailure { status.batterySaveFailure = saveFailure }
            }
            if realTime {
                pacer.wait(framesPerSecond: host.avInfo.framesPerSecond, speed: currentSpeed)
                let highWater = audioHighWater
                if currentSpeed == 1, let ring = audioRing, highWater > 0 {
                    waitForAudio(ring: ring, highWater: highWater)
                }
            }
        }
        host.unload()
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
    private var deadline = ContinuousClock.now

    mutating func wait(framesPerSecond: Double, speed: Double) {
        guard speed > 0 else { return }  // unlimited
        let period = Duration.seconds(1 / (max(framesPerSecond, 1) * speed))
        deadline += period
        let now = ContinuousClock.now
        if deadline < now - .milliseconds(100) {
            deadline = now
            return
        }
        if deadline > now { Thread.sleep(forTimeInterval: (deadline - now).inSeconds) }
    }
}
