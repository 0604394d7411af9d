import Input

/// The detection and activation handshake as a state machine. UI thread only.
///
/// ```
/// var negotiation = KeyboardProtocolNegotiation()
/// write(negotiation.start())
/// for event in decoded { write(negotiation.handle(event)) }   // until isFinished
/// if no reply within ~1 s: negotiation.timedOut()
/// on exit: write(negotiation.restoreBytes)
/// ```
public struct KeyboardProtocolNegotiation: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        case notStarted
        /// Sent the detection query; `flags` is the flags reply if it came before DA1.
        case detecting(flags: Int?)
        /// Pushed the game flags and queried again to check they took.
        case verifying(flags: Int?)
        /// Release events are on.
        case active(flags: Int)
        /// The terminal has no kitty protocol (or did not answer).
        case unsupported
        /// The terminal knows the protocol but did not take our flags (`flags` is what it reported).
        case rejected(flags: Int?)
    }

    public private(set) var state: State = .notStarted
    /// Where `timedOut()` gave up while a reply was outstanding: one may still come (kitty under
    /// load at start-up answers after the deadline), and the handshake then goes on from there.
    public private(set) var abandoned: State?

    public init() {}

    /// The detection query to write.
    public mutating func start() -> [UInt8] {
        state = .detecting(flags: nil)
        return KeyboardProtocol.detectionQuery
    }

    /// Feeds one decoded event; returns bytes to write next (often none). Events that are not
    /// replies are ignored (the caller keeps handling them as input).
    public mutating func handle(_ event: InputEvent) -> [UInt8] {
        if let abandoned {
            switch event {
            case .keyboardFlags, .deviceAttributes:
                state = abandoned  // a late reply: carry on where the deadline cut in
                self.abandoned = nil
            default:
                break
            }
        }
        switch (state, event) {
        case (.detecting, .keyboardFlags(let flags)):
            state = .detecting(flags: flags)
        case (.detecting(let flags), .deviceAttributes):
            guard flags != nil else {
                state = .unsupported
                return []
            }
            state = .verifying(flags: nil)
            return KeyboardProtocol.pushGameFlags + KeyboardProtocol.detectionQuery
        case (.verifying, .keyboardFlags(let flags)):
            state = .verifying(flags: flags)
        case (.verifying(let flags), .deviceAttributes):
            if let flags, flags & KeyboardProtocol.gameFlags == KeyboardProtocol.gameFlags {
                state = .active(flags: flags)
            } else {
                state = .rejected(flags: flags)
            }
        default:
            break
        }
        return []
    }

    /// No DA1 reply came in time (a very old or broken terminal): give up on the protocol.
    /// A reply that comes later still counts (see `gaveUpWaiting`).
    public mutating func timedOut() {
        switch state {
        case .detecting:
            abandoned = state
            state = .unsupported
        case .verifying(let flags):
            abandoned = state
            state = .rejected(flags: flags)
        default: break
        }
    }

    /// Detection and activation are over (either way).
    public var isFinished: Bool {
        switch state {
        case .active, .unsupported, .rejected: true
        case .notStarted, .detecting, .verifying: false
        }
    }

    /// Key releases will arrive: use real press/release instead of the autorepeat hold model.
    public var releaseEvents: Bool {
        if case .active = state { return true }
        return false
    }

    /// What to write when leaving play mode or exiting: the pop, if we pushed (even when the
    /// terminal did not confirm the flags, a push it half-understood must be undone).
    public var restoreBytes: [UInt8] {
        switch state {
        case .verifying, .active, .rejected: KeyboardProtocol.popFlags
        case .notStarted, .detecting, .unsupported: []
        }
    }
}
