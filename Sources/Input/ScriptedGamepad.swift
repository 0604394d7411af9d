import Synchronization

/// A gamepad a test plays by hand (the fake beside an evdev device): `GamepadManager.attach`
/// takes it as the next port and drains its events on each `poll`. Any thread may `press`,
/// `release` or `send`; the UI thread takes.
public final class ScriptedGamepad: Sendable {
    /// The device name, as EVIOCGNAME would report it (the key in `gamepads.json`).
    public let name: String
    public let axes: [UInt16: AxisRange]
    private let pending = Mutex<[GamepadEvent]>([])

    public init(name: String = "Scripted Pad", axes: [UInt16: AxisRange] = [:]) {
        self.name = name
        self.axes = axes
    }

    public func send(_ event: GamepadEvent) {
        pending.withLock { $0.append(event) }
    }

    /// Presses the button with this evdev code (`EvdevCode`).
    public func press(_ code: UInt16) {
        send(GamepadEvent(type: GamepadEvent.keyType, code: code, value: 1))
    }

    public func release(_ code: UInt16) {
        send(GamepadEvent(type: GamepadEvent.keyType, code: code, value: 0))
    }

    func takeEvents() -> [GamepadEvent] {
        pending.withLock { events in
            defer { events.removeAll() }
            return events
        }
    }
}
