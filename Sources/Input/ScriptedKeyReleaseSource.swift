import Synchronization

/// A key-release source a test feeds by hand (the fake beside XInput2 and evdev). Any thread may
/// `send`; the UI thread takes.
public final class ScriptedKeyReleaseSource: KeyReleaseSource, Sendable {
    public let name: String
    private let state = Mutex<(pending: [TimedKeyTransition], stopped: Bool)>(([], false))

    public init(name: String = "scripted") {
        self.name = name
    }

    public func send(_ transition: KeyTransition, at time: ContinuousClock.Instant) {
        state.withLock { if !$0.stopped { $0.pending.append(TimedKeyTransition(transition, at: time)) } }
    }

    public func takeTransitions() -> [TimedKeyTransition] {
        state.withLock { state in
            defer { state.pending.removeAll() }
            return state.pending
        }
    }

    public func stop() {
        state.withLock { $0.stopped = true }
    }

    public var isStopped: Bool { state.withLock { $0.stopped } }

    public var isRunning: Bool { !isStopped }
}
