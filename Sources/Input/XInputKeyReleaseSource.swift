import Foundation
import PhosphorKit
import Synchronization

/// Key presses and releases through XInput2 raw events, counted only while the terminal's window
/// has the focus (as gambaterm does when its terminal has no release events). Raw events come
/// from every keyboard whatever window has the focus; the focus is checked on every batch and at
/// least every `focusCheckInterval`, and leaving it lets go of every key.
///
/// Threading: `init` starts a reader thread that alone uses the connection from then on (it
/// closes it when it ends). `takeTransitions`, `isRunning` and `stop` are for the UI thread;
/// the handover is one mutex.
public final class XInputKeyReleaseSource: KeyReleaseSource, Sendable {
    public let name = "XInput2"
    public static let focusCheckInterval: Duration = .milliseconds(50)

    private struct State {
        var pending: [TimedKeyTransition] = []
        var stopRequested = false
        var running = true
    }

    /// The one lock both threads share.
    private final class Shared: Sendable {
        private let state = Mutex(State())
        func withLock<Result>(_ body: (inout State) -> Result) -> Result { state.withLock { body(&$0) } }
    }

    private let shared = Shared()
    private let finished = DispatchSemaphore(value: 0)

    /// Starts reading `connection` on a thread of its own. `clock` stamps each transition (tests
    /// may pass a clock of their own); the reader calls it.
    public init(connection: any XInputConnection,
                clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        let reader = Reader(connection: connection)
        let thread = Thread { [shared, finished] in
            reader.run(shared: shared, clock: clock)
            finished.signal()
        }
        thread.name = "phosphor-xinput"
        thread.start()
    }

    /// A source dropped without `stop` still ends its reader (the reader holds no reference to it).
    deinit { stop() }

    public func takeTransitions() -> [TimedKeyTransition] {
        shared.withLock { shared in
            defer { shared.pending.removeAll() }
            return shared.pending
        }
    }

    public var isRunning: Bool { shared.withLock { $0.running } }

    /// Asks the reader to end and waits for it (at most one focus check interval).
    public func stop() {
        let wasRunning = shared.withLock { shared in
            defer { shared.stopRequested = true }
            return !shared.stopRequested
        }
        if wasRunning { finished.wait() }
    }

    /// The reader thread's own state; no other thread touches it after `init` hands it over.
    private final class Reader: @unchecked Sendable {
        let connection: any XInputConnection
        var tracker = FocusedKeyTracker()

        init(connection: any XInputConnection) {
            self.connection = connection
        }

        func run(shared: Shared, clock: @Sendable () -> ContinuousClock.Instant) {
            defer {
                connection.close()
                shared.withLock {
                    $0.pending.append(TimedKeyTransition(.allUp, at: clock()))
                    $0.running = false
                }
            }
            while !shared.withLock({ $0.stopRequested }) {
                let events: [XRawKeyEvent]
                do {
                    events = try connection.waitForKeyEvents(timeout: XInputKeyReleaseSource.focusCheckInterval)
                } catch {
                    Log.warning("XInput2 key release stopped: \(error)")
                    return
                }
                let now = clock()
                var transitions = tracker.focus(connection.isTerminalFocused())
                for event in events {
                    transitions += tracker.key(X11Keysym.key(for: event.keysym), pressed: event.pressed)
                }
                guard !transitions.isEmpty else { continue }
                shared.withLock { $0.pending += transitions.map { TimedKeyTransition($0, at: now) } }
            }
        }
    }
}
