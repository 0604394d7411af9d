internal import CEvdev
import Foundation
import PhosphorKit

/// Key presses and releases from the keyboards in `/dev/input` (Linux evdev), for the Linux
/// console where no X server is there to ask. evdev is not focus-aware: keys count only while
/// this program's virtual console is the one on screen (`consoleIsActive`), and switching away
/// lets go of every key. Reading needs permission (the `input` group).
///
/// UI thread only: `takeTransitions` reads the devices without blocking, once per display tick
/// (as `GamepadManager` does).
public final class EvdevKeyboardSource: KeyReleaseSource {
    public let name = "evdev"
    private var keyboards: [(path: String, descriptor: Int32)]
    private let consoleIsActive: () -> Bool
    private var tracker = FocusedKeyTracker()
    public private(set) var isRunning = true

    /// What opening found: a source, or why there is none (`notice` for the status bar when the
    /// keyboards exist but cannot be read).
    public struct Opening {
        public var source: EvdevKeyboardSource?
        public var notice: String?
    }

    public static let permissionNotice =
        "No key release: no permission to read the keyboard (/dev/input/event*). Join the 'input' group "
        + "(sudo usermod -aG input $USER, then log in again); until then a tap is a short press."

    /// Opens every keyboard in `directory` (all letter keys, not a gamepad).
    public static func open(directory: URL = URL(fileURLWithPath: "/dev/input"),
                            consoleIsActive: @escaping () -> Bool) -> Opening {
        var keyboards: [(String, Int32)] = []
        var denied = 0
        for path in GamepadScanner.eventDevicePaths(in: directory) {
            switch GamepadScanner.openDevice(at: path) {
            case .opened(let descriptor, let info):
                if isKeyboard(info) { keyboards.append((path, descriptor)) } else { _ = cevdev_close(descriptor) }
            case .failed(.permissionDenied):
                denied += 1
            case .failed:
                break
            }
        }
        if keyboards.isEmpty {
            return Opening(source: nil, notice: denied > 0 ? permissionNotice : nil)
        }
        Log.info("evdev keyboards: \(keyboards.map(\.0).joined(separator: ", "))")
        return Opening(source: EvdevKeyboardSource(keyboards: keyboards, consoleIsActive: consoleIsActive), notice: nil)
    }

    /// A keyboard has every letter key; gamepads (which some keyboards' media keys resemble) are not.
    static func isKeyboard(_ info: GamepadDeviceInfo) -> Bool {
        !info.isGamepad && EvdevKeyCode.letterCodes.allSatisfy(info.keyCodes.contains)
    }

    init(keyboards: [(path: String, descriptor: Int32)], consoleIsActive: @escaping () -> Bool) {
        self.keyboards = keyboards
        self.consoleIsActive = consoleIsActive
    }

    deinit { stop() }

    /// Whether the virtual console `number` is on screen, asked through the tty on descriptor 0.
    public static func isConsoleActive(_ number: Int) -> Bool {
        cevdev_active_console(0) == Int32(number)
    }

    public func takeTransitions() -> [TimedKeyTransition] {
        guard isRunning else { return [] }
        let now = ContinuousClock.now
        var transitions = tracker.focus(consoleIsActive())
        var buffer = [cevdev_event](repeating: cevdev_event(), count: 64)
        var index = 0
        while index < keyboards.count {
            let keyboard = keyboards[index]
            var gone = false
            while true {
                guard let count = try? systemCall("read(\(keyboard.path))", { cevdev_read(keyboard.descriptor, &buffer, 64) }) else {
                    gone = true
                    break
                }
                for event in buffer.prefix(Int(count)) { transitions += apply(type: event.type, code: event.code, value: event.value) }
                if count < 64 { break }
            }
            if gone {
                Log.info("evdev keyboard removed: \(keyboard.path)")
                _ = cevdev_close(keyboard.descriptor)
                keyboards.remove(at: index)
            } else {
                index += 1
            }
        }
        if keyboards.isEmpty {
            isRunning = false
            transitions.append(.allUp)
        }
        return transitions.map { TimedKeyTransition($0, at: now) }
    }

    /// One evdev event: key value 1 is a press, 0 a release, 2 the kernel's autorepeat (ignored).
    func apply(type: UInt16, code: UInt16, value: Int32) -> [KeyTransition] {
        var transitions = tracker.focus(consoleIsActive())
        guard type == UInt16(EV_KEY), value != 2 else { return transitions }
        transitions += tracker.key(EvdevKeyCode.key(for: code), pressed: value == 1)
        return transitions
    }

    public func stop() {
        for keyboard in keyboards { _ = cevdev_close(keyboard.descriptor) }
        keyboards.removeAll()
        isRunning = false
    }
}
