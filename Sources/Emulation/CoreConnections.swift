import PhosphorKit

/// Where a core's output goes and its input comes from, fixed for the whole run: handed to
/// `CoreThread`'s `makeCore` on the core thread, which builds the core around it. The mailbox,
/// ring and input state are the lock-free hand-offs to the UI and audio threads.
public struct CoreConnections: Sendable {
    /// Every frame the core shows (from `copyFramesFrom` on; see there).
    public let mailbox: FrameMailbox
    /// The buttons held on each port, read once per frame when the core polls.
    public let input: InputState
    /// The samples for the audio thread; nil when there is no sound.
    public let audioRing: SampleRing?
    /// Called on the core thread with every batch of samples, muted or not (WAV recording).
    public let audioTap: (@Sendable (UnsafeBufferPointer<Int16>) -> Void)?
    /// Frames from this index on are copied into the mailbox; before it, only one frame a second
    /// (a core may repeat its last frame with NULL). A headless run needs only the last picture:
    /// copying 500 KB a frame cost PC Engine runs over 10% of their speed.
    public let copyFramesFrom: UInt64

    public init(mailbox: FrameMailbox, input: InputState, audioRing: SampleRing? = nil,
                audioTap: (@Sendable (UnsafeBufferPointer<Int16>) -> Void)? = nil, copyFramesFrom: UInt64 = 0) {
        self.mailbox = mailbox
        self.input = input
        self.audioRing = audioRing
        self.audioTap = audioTap
        self.copyFramesFrom = copyFramesFrom
    }

    /// Whether the picture of frame `frameIndex` (0-based) goes into the mailbox.
    public func publishesFrame(_ frameIndex: UInt64) -> Bool {
        frameIndex >= copyFramesFrom || frameIndex % 60 == 0
    }
}
