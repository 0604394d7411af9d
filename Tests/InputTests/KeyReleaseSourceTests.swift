import Foundation
import PhosphorKit
import Synchronization
import XCTest
@testable import Input

/// An X server recording: each step is what one wait returned and whether the terminal's window
/// had the focus then. After the last step the connection "breaks" (the server went away).
/// Used by the source's reader thread only, as the real connection is.
final class RecordedXInputConnection: XInputConnection, @unchecked Sendable {
    struct Step {
        var focused: Bool
        var events: [XRawKeyEvent]
    }

    private var steps: [Step]
    private var focused = false
    private let endless: Bool
    let closed = Mutex(false)

    /// `endless`: after the steps, every wait times out with nothing (a server that stays up).
    init(_ steps: [Step], endless: Bool = false) {
        self.steps = steps
        self.endless = endless
    }

    func waitForKeyEvents(timeout: Duration) throws -> [XRawKeyEvent] {
        guard !steps.isEmpty else {
            guard endless else { throw XInputError.failed(function: "cxinput_wait", reason: "recording ended") }
            Thread.sleep(forTimeInterval: timeout.inSeconds)
            return []
        }
        let step = steps.removeFirst()
        focused = step.focused
        return step.events
    }

    func isTerminalFocused() -> Bool { focused }

    func close() { closed.withLock { $0 = true } }
}

final class KeyReleaseSourceTests: XCTestCase {
    // Keycodes and keysyms as Xvfb's evdev keymap reports them (keycode = evdev code + 8).
    static let rightPress = XRawKeyEvent(pressed: true, keycode: 114, keysym: 0xFF53)
    static let rightRelease = XRawKeyEvent(pressed: false, keycode: 114, keysym: 0xFF53)
    static let xPress = XRawKeyEvent(pressed: true, keycode: 53, keysym: 0x78)
    static let xRelease = XRawKeyEvent(pressed: false, keycode: 53, keysym: 0x78)
    static let shiftPress = XRawKeyEvent(pressed: true, keycode: 50, keysym: 0xFFE1)
    static let unmappedPress = XRawKeyEvent(pressed: true, keycode: 248, keysym: 0)

    private func waitUntilEnded(_ source: XInputKeyReleaseSource) {
        let deadline = Date().addingTimeInterval(5)
        while source.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    }

    func testXInputSourceCountsKeysOnlyWhileFocusedAndLetsGoWhenFocusLeaves() {
        let connection = RecordedXInputConnection([
            .init(focused: false, events: [Self.rightPress]),  // another window has the focus: ignored
            .init(focused: true, events: [Self.xPress]),
            .init(focused: true, events: [Self.xPress, Self.rightPress]),  // x's raw autorepeat, then Right
            .init(focused: true, events: [Self.xRelease]),
            .init(focused: false, events: []),  // focus left with Right down
            .init(focused: false, events: [Self.rightRelease]),  // its release, in the other window
            .init(focused: true, events: [Self.unmappedPress, Self.shiftPress]),
        ])
        let source = XInputKeyReleaseSource(connection: connection)
        waitUntilEnded(source)
        XCTAssertFalse(source.isRunning, "the recording ended like a server that went away")
        XCTAssertEqual(source.takeTransitions().map(\.transition), [
            .down(.character("x")), .down(.right), .up(.character("x")), .allUp, .down(.leftShift), .allUp,
        ])
        XCTAssertTrue(connection.closed.withLock { $0 }, "the reader closes its connection")
        XCTAssertEqual(source.takeTransitions(), [], "taken once")
    }

    func testXInputSourceStopsOnRequestAndTimesItsTransitions() {
        let start = ContinuousClock.now
        let ticks = Mutex(0)
        let connection = RecordedXInputConnection([.init(focused: true, events: [Self.rightPress])], endless: true)
        let source = XInputKeyReleaseSource(connection: connection, clock: {
            start + .milliseconds(ticks.withLock { tick in
                tick += 1
                return tick * 10
            })
        })
        let deadline = Date().addingTimeInterval(5)
        var taken: [TimedKeyTransition] = []
        while taken.isEmpty, Date() < deadline {
            taken = source.takeTransitions()
            Thread.sleep(forTimeInterval: 0.01)
        }
        XCTAssertEqual(taken, [TimedKeyTransition(.down(.right), at: start + .milliseconds(10))])
        let stopping = ContinuousClock.now
        source.stop()
        XCTAssertLessThan(ContinuousClock.now - stopping, .seconds(1), "stop waits at most one focus check")
        XCTAssertFalse(source.isRunning)
        XCTAssertEqual(source.takeTransitions().map(\.transition).last, .allUp, "nothing stays down after stop")
        XCTAssertTrue(connection.closed.withLock { $0 })
        source.stop()  // twice is fine
    }

    func testX11KeysymsMapToTheKeysAKeyMapBinds() {
        let expected: [(UInt32, Key)] = [
            (0xFF53, .right), (0xFF51, .left), (0xFF52, .up), (0xFF54, .down), (0xFF0D, .enter),
            (0xFF1B, .escape), (0x0020, .character(" ")), (0x0061, .character("a")), (0x0041, .character("a")),
            (0x007A, .character("z")), (0x005B, .character("[")), (0x0031, .character("1")),
            (0xFFBE, .function(1)), (0xFFC8, .function(11)), (0xFFE0, .function(35)),
            (0xFFE1, .leftShift), (0xFFE2, .rightShift), (0xFFE3, .leftControl), (0xFFEA, .rightAlt),
            (0xFE03, .rightAlt), (0xFF08, .backspace), (0xFF09, .tab), (0xFE20, .tab),
            (0xFF96, .keypad("4")), (0xFFB4, .keypad("4")), (0xFF8D, .keypadEnter), (0xFFAB, .keypad("+")),
            (0x00E4, .character("ä")), (0x0100_0439, .character("й")),
        ]
        for (keysym, key) in expected {
            XCTAssertEqual(X11Keysym.key(for: keysym), key, String(keysym, radix: 16))
        }
        XCTAssertNil(X11Keysym.key(for: 0))
        XCTAssertNil(X11Keysym.key(for: 0x1008_FF11), "XF86AudioLowerVolume: no key map binds it")
        // Names survive the trip: what a key map file says is what the keysym gives.
        XCTAssertEqual(X11Keysym.key(for: 0xFFE2).map(\.name), "rshift")
    }

    func testEvdevKeyCodesMapToTheKeysAKeyMapBinds() {
        // Codes from linux/input-event-codes.h.
        let expected: [(UInt16, Key)] = [
            (1, .escape), (2, .character("1")), (11, .character("0")), (16, .character("q")), (28, .enter),
            (30, .character("a")), (44, .character("z")), (45, .character("x")), (57, .character(" ")),
            (42, .leftShift), (54, .rightShift), (29, .leftControl), (100, .rightAlt), (125, .leftSuper),
            (59, .function(1)), (68, .function(10)), (87, .function(11)), (88, .function(12)), (183, .function(13)),
            (103, .up), (105, .left), (106, .right), (108, .down), (102, .home), (111, .delete),
            (75, .keypad("4")), (96, .keypadEnter), (55, .keypad("*")), (14, .backspace), (15, .tab),
        ]
        for (code, key) in expected { XCTAssertEqual(EvdevKeyCode.key(for: code), key, "code \(code)") }
        XCTAssertNil(EvdevKeyCode.key(for: 0x130), "BTN_SOUTH is a gamepad button")
        XCTAssertEqual(EvdevKeyCode.letterCodes.count, 26)
    }

    func testEvdevKeyboardEventsCountOnlyWhileItsConsoleIsOnScreen() {
        let onScreen = Mutex(true)
        let source = EvdevKeyboardSource(keyboards: [], consoleIsActive: { onScreen.withLock { $0 } })
        let keyType: UInt16 = 1  // EV_KEY
        XCTAssertEqual(source.apply(type: keyType, code: 106, value: 1), [.down(.right)])
        XCTAssertEqual(source.apply(type: keyType, code: 106, value: 2), [], "the kernel's autorepeat")
        XCTAssertEqual(source.apply(type: 0, code: 0, value: 0), [], "SYN_REPORT")
        XCTAssertEqual(source.apply(type: keyType, code: 45, value: 1), [.down(.character("x"))])
        onScreen.withLock { $0 = false }  // Ctrl-Alt-F2: another console
        XCTAssertEqual(source.apply(type: keyType, code: 106, value: 0), [.allUp])
        onScreen.withLock { $0 = true }
        XCTAssertEqual(source.apply(type: keyType, code: 45, value: 0), [], "x was let go with the switch")
        XCTAssertEqual(source.apply(type: keyType, code: 45, value: 1), [.down(.character("x"))])
    }

    func testEvdevKeyboardIsTheDeviceWithEveryLetterKey() {
        let letters = Set(EvdevKeyCode.letterCodes)
        XCTAssertTrue(EvdevKeyboardSource.isKeyboard(GamepadDeviceInfo(path: "/dev/input/event3", name: "AT keyboard",
                                                                       keyCodes: letters.union([28, 57]), axes: [:])))
        XCTAssertFalse(EvdevKeyboardSource.isKeyboard(GamepadDeviceInfo(path: "/dev/input/event4", name: "Power Button",
                                                                        keyCodes: [116], axes: [:])))
        XCTAssertFalse(EvdevKeyboardSource.isKeyboard(GamepadDeviceInfo(path: "/dev/input/event5", name: "pad",
                                                                        keyCodes: [0x130, 0x131], axes: [:])))
    }

    func testSourceChoiceFollowsTheDisplayTheConsoleAndSSH() {
        XCTAssertEqual(KeyReleaseSourcePlan.choose(environment: ["DISPLAY": ":0", "WINDOWID": "2097164"], ttyName: "/dev/pts/3"),
                       .xinput2(display: ":0", windowID: "2097164"))
        XCTAssertEqual(KeyReleaseSourcePlan.choose(environment: ["DISPLAY": ":0", "WINDOWID": "2097164", "TMUX": "/tmp/tmux-0/default,1,0"],
                                                   ttyName: "/dev/pts/3"),
                       .xinput2(display: ":0", windowID: nil), "tmux's WINDOWID may be another terminal's: the focused window counts")
        XCTAssertEqual(KeyReleaseSourcePlan.choose(environment: ["DISPLAY": "localhost:10.0", "SSH_CONNECTION": "1 2 3 4"],
                                                   ttyName: "/dev/pts/3"),
                       .xinput2(display: "localhost:10.0", windowID: nil), "ssh -X: the display where the user types")
        guard case .none = KeyReleaseSourcePlan.choose(environment: ["DISPLAY": ":0", "SSH_TTY": "/dev/pts/1"], ttyName: "/dev/pts/1") else {
            return XCTFail("a local display under SSH is somebody else's keyboard")
        }
        XCTAssertEqual(KeyReleaseSourcePlan.choose(environment: [:], ttyName: "/dev/tty2"), .evdev(console: 2))
        guard case .none = KeyReleaseSourcePlan.choose(environment: ["SSH_CONNECTION": "1 2 3 4"], ttyName: "/dev/tty2"),
              case .none = KeyReleaseSourcePlan.choose(environment: [:], ttyName: "/dev/pts/0"),
              case .none = KeyReleaseSourcePlan.choose(environment: [:], ttyName: nil),
              case .none = KeyReleaseSourcePlan.choose(environment: ["DISPLAY": ":0", "PHOSPHOR_KEY_RELEASE": "off"], ttyName: nil)
        else { return XCTFail("no side channel in these cases") }
    }

    func testOpeningAnUnreachableDisplayFailsGracefully() {
        // No X server listens on display 99 of a host that does not resolve: no crash, no exit.
        let opening = KeyReleaseSourceOpening.open(.xinput2(display: "phosphor-no-such-host.invalid:99", windowID: nil))
        XCTAssertNil(opening.source)
        XCTAssertThrowsError(try X11InputConnection(displayName: "phosphor-no-such-host.invalid:99", windowID: nil)) { error in
            XCTAssertEqual("\(error)", "cxinput_open: cannot open display phosphor-no-such-host.invalid:99")
        }
    }

    func testWindowIDIsDecimalOrHexadecimal() {
        XCTAssertEqual(X11InputConnection.parseWindowID("2097164"), 2_097_164)
        XCTAssertEqual(X11InputConnection.parseWindowID("0x20000c"), 0x20000C)
        XCTAssertNil(X11InputConnection.parseWindowID("window"))
    }
}

/// The play screen's input with a release source: the source times the holds, the terminal's
/// presses still trigger actions, and nothing counts twice.
final class PlayerInputReleaseSourceTests: XCTestCase {
    let start = ContinuousClock.now
    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    func testSourceTimesTheHoldAndTheTerminalsPressesDoNotCountTwice() {
        let source = ScriptedKeyReleaseSource(name: "XInput2")
        let input = PlayerInput(system: .nes, keyMap: .defaults(for: .nes), releaseEvents: false, releaseSource: source)
        XCTAssertEqual(input.holdSourceName, "XInput2")
        XCTAssertNil(input.notice, "no tap-model warning with real releases")
        // Right goes down at 0 and up at 1500; the terminal meanwhile sends its press and autorepeat.
        source.send(.down(.right), at: at(0))
        _ = input.pollReleaseSource(playing: true)
        for time in [1, 661, 701, 741] { _ = input.handle(.key(KeyEvent(.right)), now: at(time)) }
        for time in stride(from: 0, through: 1490, by: 10) {
            XCTAssertEqual(input.buttons(port: 0, now: at(time)), ButtonMask([.right]), "at \(time) ms")
        }
        source.send(.up(.right), at: at(1500))
        _ = input.pollReleaseSource(playing: true)
        XCTAssertEqual(input.buttons(port: 0, now: at(1500)), [], "released exactly when the key came up")
        // A terminal press alone (the source missed it, or it is a menu key) holds nothing.
        _ = input.handle(.key(KeyEvent(.left)), now: at(2000))
        XCTAssertEqual(input.buttons(port: 0, now: at(2001)), [])
    }

    func testActionsStillComeFromTheTerminalOncePerPress() {
        let source = ScriptedKeyReleaseSource()
        let input = PlayerInput(system: .gb, keyMap: .defaults(for: .gb), releaseEvents: false, releaseSource: source)
        let f5 = KeyEvent(.function(5))
        XCTAssertEqual(input.handle(.key(f5), now: at(0)), [.quickSave])
        XCTAssertEqual(input.handle(.key(f5), now: at(660)), [], "the terminal's autorepeat")
        XCTAssertEqual(input.handle(.key(f5), now: at(700)), [])
        XCTAssertEqual(input.handle(.key(f5), now: at(2000)), [.quickSave])
    }

    func testFocusLossAndPausingLetGo() {
        let source = ScriptedKeyReleaseSource()
        let input = PlayerInput(system: .nes, keyMap: .defaults(for: .nes), releaseEvents: false, releaseSource: source)
        source.send(.down(.right), at: at(0))
        source.send(.allUp, at: at(100))
        _ = input.pollReleaseSource(playing: true)
        XCTAssertEqual(input.buttons(port: 0, now: at(200)), [])
        // While the pause menu is up the transitions are dropped, not replayed afterwards.
        source.send(.down(.left), at: at(300))
        _ = input.pollReleaseSource(playing: false)
        _ = input.pollReleaseSource(playing: true)
        XCTAssertEqual(input.buttons(port: 0, now: at(400)), [])
    }

    func testEndedSourceFallsBackToTheTapModel() {
        let source = ScriptedKeyReleaseSource(name: "XInput2")
        let input = PlayerInput(system: .nes, keyMap: .defaults(for: .nes), releaseEvents: false, releaseSource: source)
        source.stop()
        XCTAssertEqual(input.pollReleaseSource(playing: true), "XInput2 key release stopped: a tap is a short press now")
        XCTAssertEqual(input.holdSourceName, "tap")
        _ = input.handle(.key(KeyEvent(.right)), now: at(0))
        XCTAssertEqual(input.buttons(port: 0, now: at(10)), ButtonMask([.right]))
        XCTAssertEqual(input.buttons(port: 0, now: at(100)), [])
    }

    func testSourceThatHearsNothingGivesWayToTheTapModel() {
        // A source watching the wrong window: the terminal types Right three times, the source nothing.
        let source = ScriptedKeyReleaseSource(name: "XInput2")
        let input = PlayerInput(system: .nes, keyMap: .defaults(for: .nes), releaseEvents: false, releaseSource: source)
        for time in [0, 2000] {
            _ = input.handle(.key(KeyEvent(.right)), now: at(time))
            XCTAssertNil(input.pollReleaseSource(playing: true))
        }
        _ = input.handle(.key(KeyEvent(.function(5))), now: at(3000))  // an action key does not count
        XCTAssertNil(input.pollReleaseSource(playing: true))
        _ = input.handle(.key(KeyEvent(.right)), now: at(4000))
        XCTAssertEqual(input.pollReleaseSource(playing: true), "XInput2 sees no keys from this window: a tap is a short press now")
        XCTAssertTrue(source.isStopped)
        XCTAssertEqual(input.holdSourceName, "tap")
        _ = input.handle(.key(KeyEvent(.right)), now: at(6000))
        XCTAssertEqual(input.buttons(port: 0, now: at(6010)), ButtonMask([.right]))
    }

    func testSourceThatHeardAKeyIsKept() {
        let source = ScriptedKeyReleaseSource()
        let input = PlayerInput(system: .nes, keyMap: .defaults(for: .nes), releaseEvents: false, releaseSource: source)
        source.send(.down(.right), at: at(0))
        _ = input.pollReleaseSource(playing: true)
        for time in [0, 2000, 4000, 6000] {
            _ = input.handle(.key(KeyEvent(.left)), now: at(time))
            XCTAssertNil(input.pollReleaseSource(playing: true))
        }
        XCTAssertFalse(source.isStopped)
    }

    func testLateKittyAnswerStopsTheSource() {
        let source = ScriptedKeyReleaseSource()
        let input = PlayerInput(system: .nes, keyMap: .defaults(for: .nes), releaseEvents: false, releaseSource: source)
        input.switchToReleaseEvents()
        XCTAssertTrue(source.isStopped)
        XCTAssertEqual(input.holdSourceName, "kitty")
        XCTAssertTrue(input.releaseEvents)
    }
}
