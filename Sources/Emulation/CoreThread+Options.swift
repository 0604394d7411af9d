import PhosphorKit

extension CoreThread {
    /// How one run goes, fixed when the thread is created. Later changes go through the thread's
    /// methods (`pause`, `setSpeed`, `perform { try $0.setCheats(...) }`).
    public struct Options: Sendable {
        /// Stop by itself after this many frames (headless runs, `play --frames N`).
        public var frameLimit: UInt64?
        /// Pace frames to real time (false: as fast as the core allows).
        public var realTime: Bool
        /// Cheats handed to the core after the game loads, before the first frame.
        public var cheats: [CoreCheat]
        /// Copy only the final 60 frames (and one a second before them) into the mailbox: headless
        /// runs need only the last picture. Needs `frameLimit`. See `CoreConnections.copyFramesFrom`.
        public var copyOnlyFinalFrames: Bool
        /// Fast-forward plays no sound (the default) instead of sped-up sound.
        public var muteWhileFastForwarding: Bool
        /// Rewind's states (off by default: a headless run never goes back; play passes the
        /// user's settings).
        public var rewind: RewindSettings
        /// Run-ahead or preemptive frames (off by default).
        public var runAhead: RunAheadMode
        /// What real-time pacing sleeps by (a test's `SteppingFrameClock`).
        public var clock: any FrameClock
        /// Runs on the core thread before every frame with the index of the frame about to run
        /// (0-based), and once more with `frameLimit` after the last frame.
        public var beforeFrame: (@Sendable (any EmulatorCore, UInt64) -> Void)?
        /// Runs on the core thread with every batch of samples (WAV recording).
        public var audioTap: (@Sendable (UnsafeBufferPointer<Int16>) -> Void)?

        public init(frameLimit: UInt64? = nil, realTime: Bool = true, cheats: [CoreCheat] = [],
                    copyOnlyFinalFrames: Bool = false, muteWhileFastForwarding: Bool = true,
                    rewind: RewindSettings = .off, runAhead: RunAheadMode = .off,
                    clock: any FrameClock = SystemFrameClock(),
                    beforeFrame: (@Sendable (any EmulatorCore, UInt64) -> Void)? = nil,
                    audioTap: (@Sendable (UnsafeBufferPointer<Int16>) -> Void)? = nil) {
            self.frameLimit = frameLimit
            self.realTime = realTime
            self.cheats = cheats
            self.copyOnlyFinalFrames = copyOnlyFinalFrames
            self.muteWhileFastForwarding = muteWhileFastForwarding
            self.rewind = rewind
            self.runAhead = runAhead
            self.clock = clock
            self.beforeFrame = beforeFrame
            self.audioTap = audioTap
        }

        /// The first frame copied into the mailbox in full.
        var copyFramesFrom: UInt64 {
            guard copyOnlyFinalFrames, let frameLimit else { return 0 }
            return frameLimit > 60 ? frameLimit - 60 : 0
        }
    }
}
