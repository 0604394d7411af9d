internal import CEvdev

/// Linux evdev key codes (`KEY_*`) to Phosphor's keys, for the console keyboard source. evdev
/// codes name key positions, not what a layout types: the table follows the US layout, which is
/// what the console's default keymap types too. Any thread (a pure table).
public enum EvdevKeyCode {
    public static func key(for code: UInt16) -> Key? {
        table[code]
    }

    /// The codes of the letter keys: a device with all of them is a keyboard.
    static let letterCodes: [UInt16] = "abcdefghijklmnopqrstuvwxyz".unicodeScalars.compactMap { scalar in
        table.first { $0.value == .character(scalar) }?.key
    }

    private static let table: [UInt16: Key] = {
        var pairs: [(Int32, Key)] = [
            (KEY_ESC, .escape), (KEY_BACKSPACE, .backspace), (KEY_TAB, .tab), (KEY_ENTER, .enter),
            (KEY_SPACE, .character(" ")), (KEY_MINUS, .character("-")), (KEY_EQUAL, .character("=")),
            (KEY_LEFTBRACE, .character("[")), (KEY_RIGHTBRACE, .character("]")), (KEY_SEMICOLON, .character(";")),
            (KEY_APOSTROPHE, .character("'")), (KEY_GRAVE, .character("`")), (KEY_BACKSLASH, .character("\\")),
            (KEY_COMMA, .character(",")), (KEY_DOT, .character(".")), (KEY_SLASH, .character("/")),
            (KEY_LEFTSHIFT, .leftShift), (KEY_RIGHTSHIFT, .rightShift), (KEY_LEFTCTRL, .leftControl),
            (KEY_RIGHTCTRL, .rightControl), (KEY_LEFTALT, .leftAlt), (KEY_RIGHTALT, .rightAlt),
            (KEY_LEFTMETA, .leftSuper), (KEY_RIGHTMETA, .rightSuper), (KEY_COMPOSE, .menu),
            (KEY_CAPSLOCK, .capsLock), (KEY_NUMLOCK, .numLock), (KEY_SCROLLLOCK, .scrollLock),
            (KEY_SYSRQ, .printScreen), (KEY_PAUSE, .pause),
            (KEY_HOME, .home), (KEY_END, .end), (KEY_PAGEUP, .pageUp), (KEY_PAGEDOWN, .pageDown),
            (KEY_INSERT, .insert), (KEY_DELETE, .delete),
            (KEY_UP, .up), (KEY_DOWN, .down), (KEY_LEFT, .left), (KEY_RIGHT, .right),
            (KEY_KP0, .keypad("0")), (KEY_KP1, .keypad("1")), (KEY_KP2, .keypad("2")), (KEY_KP3, .keypad("3")),
            (KEY_KP4, .keypad("4")), (KEY_KP5, .keypad("5")), (KEY_KP6, .keypad("6")), (KEY_KP7, .keypad("7")),
            (KEY_KP8, .keypad("8")), (KEY_KP9, .keypad("9")), (KEY_KPDOT, .keypad(".")),
            (KEY_KPSLASH, .keypad("/")), (KEY_KPASTERISK, .keypad("*")), (KEY_KPMINUS, .keypad("-")),
            (KEY_KPPLUS, .keypad("+")), (KEY_KPEQUAL, .keypad("=")), (KEY_KPCOMMA, .keypad(",")),
            (KEY_KPENTER, .keypadEnter),
            (KEY_1, .character("1")), (KEY_2, .character("2")), (KEY_3, .character("3")), (KEY_4, .character("4")),
            (KEY_5, .character("5")), (KEY_6, .character("6")), (KEY_7, .character("7")), (KEY_8, .character("8")),
            (KEY_9, .character("9")), (KEY_0, .character("0")),
            (KEY_Q, .character("q")), (KEY_W, .character("w")), (KEY_E, .character("e")), (KEY_R, .character("r")),
            (KEY_T, .character("t")), (KEY_Y, .character("y")), (KEY_U, .character("u")), (KEY_I, .character("i")),
            (KEY_O, .character("o")), (KEY_P, .character("p")), (KEY_A, .character("a")), (KEY_S, .character("s")),
            (KEY_D, .character("d")), (KEY_F, .character("f")), (KEY_G, .character("g")), (KEY_H, .character("h")),
            (KEY_J, .character("j")), (KEY_K, .character("k")), (KEY_L, .character("l")), (KEY_Z, .character("z")),
            (KEY_X, .character("x")), (KEY_C, .character("c")), (KEY_V, .character("v")), (KEY_B, .character("b")),
            (KEY_N, .character("n")), (KEY_M, .character("m")),
        ]
        // F1...F10 and F11, F12 are not in one run; F13...F24 are.
        let functionCodes: [Int32] = [KEY_F1, KEY_F2, KEY_F3, KEY_F4, KEY_F5, KEY_F6, KEY_F7, KEY_F8, KEY_F9,
                                      KEY_F10, KEY_F11, KEY_F12, KEY_F13, KEY_F14, KEY_F15, KEY_F16, KEY_F17,
                                      KEY_F18, KEY_F19, KEY_F20, KEY_F21, KEY_F22, KEY_F23, KEY_F24]
        pairs += functionCodes.enumerated().map { ($0.element, .function($0.offset + 1)) }
        return Dictionary(uniqueKeysWithValues: pairs.map { (UInt16($0.0), $0.1) })
    }()
}
