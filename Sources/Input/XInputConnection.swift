import Foundation
internal import CXInput

/// One raw key event from the X server, its keysym already looked up in the active layout.
public struct XRawKeyEvent: Sendable, Equatable {
    public var pressed: Bool
    public var keycode: UInt32
    public var keysym: UInt32

    public init(pressed: Bool, keycode: UInt32, keysym: UInt32) {
        self.pressed = pressed
        self.keycode = keycode
        self.keysym = keysym
    }
}

/// What the XInput2 source needs from an X server: raw key events and whether the terminal's
/// window has the focus. `X11InputConnection` talks to a real server; tests replay a recording.
/// Used by one thread at a time (the source's reader thread once it runs).
public protocol XInputConnection: AnyObject {
    /// Waits up to `timeout` and returns the raw key events that arrived (maybe none). Throws
    /// when the connection is gone.
    func waitForKeyEvents(timeout: Duration) throws -> [XRawKeyEvent]
    /// Whether the terminal's window has the keyboard focus right now.
    func isTerminalFocused() -> Bool
    /// Closes the connection.
    func close()
}

public enum XInputError: Error, Equatable, CustomStringConvertible {
    /// `function` failed: its name and why.
    case failed(function: String, reason: String)

    public var description: String {
        switch self {
        case .failed(let function, let reason): "\(function): \(reason)"
        }
    }
}

/// A connection to a real X server through libX11 and libXi (the CXInput shim).
///
/// The terminal's window is `WINDOWID` when the terminal sets it (xterm, urxvt, kitty, Konsole)
/// and that names a window; otherwise the window that has the focus when the game starts (the
/// user just typed the command there). Both are compared as top-level windows, so a window
/// manager's frame or a terminal's inner widget window counts as the same window.
public final class X11InputConnection: XInputConnection {
    private var connection: OpaquePointer?
    /// The terminal's top-level window.
    public let terminalWindow: UInt
    /// XKB's autorepeat (nil when XKB says repeat is off).
    public let repeatTiming: RepeatTiming?

    /// Connects to `displayName` (nil: `$DISPLAY`). Throws when there is no reachable server,
    /// no XInput 2, or no window to call the terminal's.
    public init(displayName: String?, windowID: String?) throws {
        var failure: Int32 = 0
        guard let connection = cxinput_open(displayName, &failure) else {
            let reason = switch Int(failure) {
            case Int(CXINPUT_NO_EXTENSION): "the X server has no XInput extension"
            case Int(CXINPUT_OLD_VERSION): "the X server's XInput is older than 2.0"
            case Int(CXINPUT_SELECT_FAILED): "the X server refused raw key events"
            default: "cannot open display \(displayName ?? "(unset)")"
            }
            throw XInputError.failed(function: "cxinput_open", reason: reason)
        }
        self.connection = connection
        var delay: Int32 = 0
        var interval: Int32 = 0
        repeatTiming = cxinput_repeat_rate(connection, &delay, &interval) == 0
            ? RepeatTiming(delay: .milliseconds(Int(delay)), interval: .milliseconds(Int(interval))) : nil
        let named = windowID.flatMap(Self.parseWindowID).map { cxinput_toplevel(connection, $0) } ?? 0
        let window = named != 0 ? named : cxinput_focused_toplevel(connection)
        guard window != 0 else {
            cxinput_close(connection)
            self.connection = nil
            throw XInputError.failed(function: "cxinput_focused_toplevel", reason: "no window has the focus (WINDOWID unset)")
        }
        terminalWindow = window
    }

    deinit { close() }

    /// `WINDOWID` is decimal (xterm) or, in some terminals, hexadecimal with `0x`.
    static func parseWindowID(_ text: String) -> UInt? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased().hasPrefix("0x") { return UInt(trimmed.dropFirst(2), radix: 16) }
        return UInt(trimmed)
    }

    public func waitForKeyEvents(timeout: Duration) throws -> [XRawKeyEvent] {
        guard let connection else { throw XInputError.failed(function: "cxinput_wait", reason: "closed") }
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = cxinput_wait(connection, milliseconds)
        guard ready >= 0 else { throw XInputError.failed(function: "cxinput_wait", reason: "the X connection broke") }
        var events: [XRawKeyEvent] = []
        var raw = cxinput_key_event()
        while cxinput_next_key_event(connection, &raw) == 1 {
            events.append(XRawKeyEvent(pressed: raw.pressed != 0, keycode: raw.keycode, keysym: raw.keysym))
        }
        if cxinput_is_broken(connection) != 0 { throw XInputError.failed(function: "cxinput_next_key_event", reason: "the X connection broke") }
        return events
    }

    public func isTerminalFocused() -> Bool {
        guard let connection, cxinput_is_broken(connection) == 0 else { return false }
        return cxinput_focused_toplevel(connection) == terminalWindow
    }

    public func close() {
        if let connection { cxinput_close(connection) }
        connection = nil
    }
}
