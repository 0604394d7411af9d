/// A RetroPad button. Raw values are libretro's RETRO_DEVICE_ID_JOYPAD_* ids, so a
/// `ButtonMask` bit index is the id a core asks for.
public enum JoypadButton: Int, CaseIterable, Sendable, Codable {
    case b = 0, y, select, start, up, down, left, right, a, x, l, r, l2, r2, l3, r3

    /// The lower-case name used in key maps, input scripts and the status bar.
    public var name: String {
        switch self {
        case .b: "b"
        case .y: "y"
        case .select: "select"
        case .start: "start"
        case .up: "up"
        case .down: "down"
        case .left: "left"
        case .right: "right"
        case .a: "a"
        case .x: "x"
        case .l: "l"
        case .r: "r"
        case .l2: "l2"
        case .r2: "r2"
        case .l3: "l3"
        case .r3: "r3"
        }
    }

    public init?(name: String) {
        guard let button = JoypadButton.allCases.first(where: { $0.name == name.lowercased() }) else {
            return nil
        }
        self = button
    }
}

/// A set of pressed RetroPad buttons, one bit per `JoypadButton.rawValue`
/// (the layout RETRO_DEVICE_ID_JOYPAD_MASK returns).
public struct ButtonMask: OptionSet, Sendable, Hashable, Codable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public init(_ buttons: [JoypadButton]) {
        self.init(rawValue: 0)
        for button in buttons { insert(button) }
    }

    public static func of(_ button: JoypadButton) -> ButtonMask {
        ButtonMask(rawValue: 1 << UInt16(button.rawValue))
    }

    public func contains(_ button: JoypadButton) -> Bool { contains(.of(button)) }
    public mutating func insert(_ button: JoypadButton) { formUnion(.of(button)) }
    public mutating func remove(_ button: JoypadButton) { subtract(.of(button)) }

    public var buttons: [JoypadButton] { JoypadButton.allCases.filter { contains($0) } }

    /// Parses `a+b+up` (or `-` / empty for none), the format of `--input` scripts.
    public init(parsing text: String) throws {
        self.init(rawValue: 0)
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty || trimmed == "-" { return }
        for part in trimmed.split(separator: "+") {
            guard let button = JoypadButton(name: String(part)) else {
                throw ButtonParseError(token: String(part))
            }
            insert(button)
        }
    }

    /// `a+b+up`, or `-` when empty.
    public var scriptText: String {
        buttons.isEmpty ? "-" : buttons.map(\.name).joined(separator: "+")
    }
}

public struct ButtonParseError: Error, CustomStringConvertible {
    public let token: String
    public var description: String {
        "unknown button '\(token)' (known: \(JoypadButton.allCases.map(\.name).joined(separator: ", ")))"
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines.
    public func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
