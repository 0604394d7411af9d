import Input
import PhosphorKit

/// The questions Phosphor asks a terminal at start, and what its answers mean: whether it knows
/// synchronized output (DECRQM 2026) and whether it takes the kitty keyboard protocol (key
/// releases). The app writes `start()`, feeds every decoded event to `handle`, and gives up
/// with `timedOut()` when no answer came in time. UI thread only.
public struct TerminalNegotiation {
    public private(set) var keyboard = KeyboardProtocolNegotiation()

    public init() {}

    /// The queries to write. The synchronized-output query goes first: its reply, if any,
    /// comes before DA1's, which ends the keyboard detection.
    public mutating func start() -> [UInt8] { SynchronizedOutput.query + keyboard.start() }

    /// Takes a reply to one of the queries (and answers it on `terminal` where the protocol
    /// needs a next step). Returns false for an event that is no reply (ordinary input).
    public mutating func handle(_ event: InputEvent, terminal: any TerminalDevice) -> Bool {
        switch event {
        case .modeReport(let mode, let setting):
            if mode == SynchronizedOutput.mode {
                terminal.setSynchronizedOutput(SynchronizedOutput.isSupported(setting: setting))
                Log.info("synchronized output: \(terminal.synchronizedOutput ? "yes" : "no") (DECRPM \(setting))")
            }
            return true
        case .keyboardFlags, .deviceAttributes:
            let wasPushed = flagsPushed
            let reply = keyboard.handle(event)
            if !reply.isEmpty { terminal.write(reply) }
            if flagsPushed != wasPushed { terminal.setKeyboardFlagsPushed(flagsPushed) }
            return true
        default:
            return false
        }
    }

    /// No answer in time: the terminal has no kitty protocol (or a broken one).
    public mutating func timedOut() { keyboard.timedOut() }

    public var isFinished: Bool { keyboard.isFinished }
    /// Whether the terminal reports key releases (kitty keyboard protocol active).
    public var releaseEvents: Bool { keyboard.releaseEvents }

    /// The game flags were pushed and must be popped on every way out: also when the terminal
    /// did not confirm them (it half-understood the push), exactly when the negotiation's own
    /// restore bytes say so.
    private var flagsPushed: Bool { !keyboard.restoreBytes.isEmpty }
}
