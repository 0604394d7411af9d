/// A key on the keyboard, independent of modifiers: `Z` typed with Shift is `.character("z")`
/// plus `.shift`. Key maps bind these; their `name` is what the JSON files contain.
public enum Key: Hashable, Sendable {
    /// A key that types a character. ASCII letters are always lower case (Shift is a modifier).
    case character(Unicode.Scalar)
    /// F1...F35.
    case function(Int)
    case up, down, left, right, home, end, pageUp, pageDown, insert, delete
    case enter, tab, backspace, escape
    case capsLock, scrollLock, numLock, printScreen, pause, menu
    /// Modifier keys on their own: only the kitty protocol (flag 8) reports them.
    case leftShift, rightShift, leftControl, rightControl, leftAlt, rightAlt, leftSuper, rightSuper
    /// Keypad keys the kitty protocol tells apart from the main block: digits 0...9 and `.`, `/`, `*`, `-`, `+`, `=`.
    case keypad(Unicode.Scalar)
    case keypadEnter

    /// Every key with a fixed name (characters, function and keypad keys are named by pattern).
    static let namedKeys: [(key: Key, name: String)] = [
        (.up, "up"), (.down, "down"), (.left, "left"), (.right, "right"),
        (.home, "home"), (.end, "end"), (.pageUp, "pageup"), (.pageDown, "pagedown"),
        (.insert, "insert"), (.delete, "delete"),
        (.enter, "enter"), (.tab, "tab"), (.backspace, "backspace"), (.escape, "esc"),
        (.character(" "), "space"),
        (.capsLock, "capslock"), (.scrollLock, "scrolllock"), (.numLock, "numlock"),
        (.printScreen, "printscreen"), (.pause, "pause"), (.menu, "menu"),
        (.leftShift, "lshift"), (.rightShift, "rshift"), (.leftControl, "lctrl"), (.rightControl, "rctrl"),
        (.leftAlt, "lalt"), (.rightAlt, "ralt"), (.leftSuper, "lsuper"), (.rightSuper, "rsuper"),
        (.keypadEnter, "kpenter"),
    ]

    /// The name used in key-map files and the key-map editor: `z`, `enter`, `f5`, `rshift`, `kp4`.
    public var name: String {
        if let entry = Key.namedKeys.first(where: { $0.key == self }) { return entry.name }
        switch self {
        case .character(let scalar): return String(Character(scalar))
        case .function(let number): return "f\(number)"
        case .keypad(let scalar): return "kp\(Character(scalar))"
        default: return "?"
        }
    }

    /// Parses a name written by `name` (named keys case-insensitively). A single character names
    /// its own key (`z`, `1`, `[`).
    public init?(name: String) {
        let lowered = name.lowercased()
        if let entry = Key.namedKeys.first(where: { $0.name == lowered }) {
            self = entry.key
            return
        }
        let scalars = Array(lowered.unicodeScalars)
        if scalars.count == 1, scalars[0].value > 0x20, scalars[0].value != 0x7F {
            self = .character(scalars[0])
            return
        }
        if lowered.hasPrefix("f"), let number = Int(lowered.dropFirst()), (1...35).contains(number) {
            self = .function(number)
            return
        }
        if lowered.hasPrefix("kp"), scalars.count == 3, "0123456789./*-+=,".unicodeScalars.contains(scalars[2]) {
            self = .keypad(scalars[2])
            return
        }
        return nil
    }

    /// The key for a printable character as a legacy terminal sends it: upper-case ASCII letters
    /// become the lower-case key (the caller adds Shift).
    static func forCharacter(_ scalar: Unicode.Scalar) -> Key {
        if ("A"..."Z").contains(scalar) { return .character(Unicode.Scalar(scalar.value + 0x20)!) }
        return .character(scalar)
    }
}

extension Key: CustomStringConvertible {
    public var description: String { name }
}

/// Modifier keys held with a key. Bit values are the kitty protocol's (and xterm's `1 + bits`
/// parameter): shift 1, alt 2, control 4, super 8, hyper 16, meta 32, caps lock 64, num lock 128.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let shift = KeyModifiers(rawValue: 1)
    public static let alt = KeyModifiers(rawValue: 2)
    public static let control = KeyModifiers(rawValue: 4)
    public static let `super` = KeyModifiers(rawValue: 8)
    public static let hyper = KeyModifiers(rawValue: 16)
    public static let meta = KeyModifiers(rawValue: 32)
    public static let capsLock = KeyModifiers(rawValue: 64)
    public static let numLock = KeyModifiers(rawValue: 128)

    /// From the `1 + bits` parameter both xterm and kitty send (values below 1 mean none).
    init(parameter: Int) {
        self.init(rawValue: UInt8(truncatingIfNeeded: max(parameter - 1, 0)))
    }
}
