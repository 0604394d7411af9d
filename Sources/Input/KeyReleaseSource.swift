/// A key going down or up as a keyboard side channel saw it (not the terminal).
public enum KeyTransition: Sendable, Equatable {
    case down(Key)
    case up(Key)
    /// Every key is up: the terminal window lost the focus, the console switched away, or the
    /// source stopped. Nothing may stay stuck down.
    case allUp
}

public struct TimedKeyTransition: Sendable, Equatable {
    public var transition: KeyTransition
    /// When the source read it (a side channel's reader may run ahead of the UI's tick).
    public var time: ContinuousClock.Instant

    public init(_ transition: KeyTransition, at time: ContinuousClock.Instant) {
        self.transition = transition
        self.time = time
    }
}

/// Real key presses and releases from outside the terminal, for terminals that cannot report
/// releases: XInput2 raw events on an X11 desktop (`XInputKeyReleaseSource`), evdev on the Linux
/// console (`EvdevKeyboardSource`); `ScriptedKeyReleaseSource` in tests.
///
/// The terminal still delivers the key presses as text (menus and actions use those); a source
/// only times the play keys' holds. Threading: `takeTransitions` and `stop` are called on the UI
/// thread; a source may read on a thread of its own and hand over through a lock.
public protocol KeyReleaseSource: AnyObject {
    /// What the status bar calls it: "XInput2", "evdev".
    var name: String { get }
    /// The transitions since the last call, oldest first.
    func takeTransitions() -> [TimedKeyTransition]
    /// False once the source ended on its own (the X server went away): the play screen then
    /// falls back to the tap model.
    var isRunning: Bool { get }
    /// Stops reading and lets go of the device or connection. Safe to call more than once.
    func stop()
}
