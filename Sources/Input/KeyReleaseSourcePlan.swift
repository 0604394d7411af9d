import Foundation
import PhosphorKit

/// Which side channel gives key releases when the terminal cannot, decided from the environment
/// alone (so the choice is testable and the reasons can be shown):
///
/// - `PHOSPHOR_KEY_RELEASE=off` turns side channels off.
/// - `DISPLAY` set: XInput2 on that display, for the window `WINDOWID` names, except inside tmux
///   or GNU screen (`TMUX`, `STY`), whose `WINDOWID` is that of whichever terminal started the
///   server: there the window with the focus at the start is the terminal's. Under SSH (`SSH_CONNECTION` or `SSH_TTY`) only a
///   forwarded display (`ssh -X`/`-Y` sets `localhost:10.0`, with a host part) is used: that is the
///   X server of the machine the user types on. A local display (`:0`) under SSH is someone
///   else's desk, whose keys must not move this game.
/// - No display, not under SSH, on a Linux virtual console (`/dev/ttyN`): evdev.
/// - Otherwise none: the tap model.
public enum KeyReleaseSourcePlan: Equatable, Sendable {
    case xinput2(display: String, windowID: String?)
    case evdev(console: Int)
    case none(reason: String)

    public static func choose(environment: [String: String], ttyName: String?) -> KeyReleaseSourcePlan {
        if environment["PHOSPHOR_KEY_RELEASE"]?.lowercased() == "off" { return .none(reason: "PHOSPHOR_KEY_RELEASE=off") }
        let overSSH = !(environment["SSH_CONNECTION"] ?? "").isEmpty || !(environment["SSH_TTY"] ?? "").isEmpty
        if let display = environment["DISPLAY"], !display.isEmpty {
            let forwarded = !display.hasPrefix(":") && !display.hasPrefix("unix:")
            let multiplexed = environment["TMUX"] != nil || environment["STY"] != nil
            let windowID = multiplexed ? nil : environment["WINDOWID"]
            if !overSSH || forwarded { return .xinput2(display: display, windowID: windowID) }
            return .none(reason: "SSH session with the local display \(display)")
        }
        if overSSH { return .none(reason: "SSH session without X forwarding") }
        if let ttyName, let console = consoleNumber(ttyName) { return .evdev(console: console) }
        return .none(reason: "no X display and not on a Linux console")
    }

    /// N for `/dev/ttyN` (a virtual console), nil for pseudo-terminals and serial lines.
    static func consoleNumber(_ ttyName: String) -> Int? {
        guard ttyName.hasPrefix("/dev/tty"), let number = Int(ttyName.dropFirst("/dev/tty".count)), number > 0 else { return nil }
        return number
    }
}

/// The side channel actually opened for a game, with what to tell the user.
public struct KeyReleaseSourceOpening {
    public var source: (any KeyReleaseSource)?
    /// The start notice: which source is in use, or why there is none.
    public var notice: String?
    /// The keyboard's autorepeat when the X server told it (seeds the tap model).
    public var repeatTiming: RepeatTiming?

    public init(source: (any KeyReleaseSource)?, notice: String?, repeatTiming: RepeatTiming? = nil) {
        self.source = source
        self.notice = notice
        self.repeatTiming = repeatTiming
    }

    /// Opens what `plan` says; any failure leaves `source` nil and says why in the log.
    public static func open(_ plan: KeyReleaseSourcePlan) -> KeyReleaseSourceOpening {
        switch plan {
        case .xinput2(let display, let windowID):
            do {
                let connection = try X11InputConnection(displayName: display, windowID: windowID)
                let repeatText = connection.repeatTiming.map {
                    "autorepeat \(Int($0.delay.inSeconds * 1000)) ms then every \(Int($0.interval.inSeconds * 1000)) ms"
                } ?? "no autorepeat"
                Log.info("key release: XInput2 on \(display), terminal window \(connection.terminalWindow), \(repeatText)")
                return KeyReleaseSourceOpening(source: XInputKeyReleaseSource(connection: connection),
                                               notice: "key release: XInput2 (while this window has the focus)",
                                               repeatTiming: connection.repeatTiming)
            } catch {
                Log.info("key release: no XInput2 (\(error))")
                return KeyReleaseSourceOpening(source: nil, notice: nil)
            }
        case .evdev(let console):
            let opening = EvdevKeyboardSource.open(consoleIsActive: { EvdevKeyboardSource.isConsoleActive(console) })
            if let source = opening.source {
                return KeyReleaseSourceOpening(source: source, notice: "key release: evdev (while console \(console) is on screen)")
            }
            Log.info("key release: no readable evdev keyboard")
            return KeyReleaseSourceOpening(source: nil, notice: opening.notice)
        case .none(let reason):
            Log.info("key release: no side channel (\(reason))")
            return KeyReleaseSourceOpening(source: nil, notice: nil)
        }
    }
}
