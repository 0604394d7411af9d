/// A save-state slot of one game. The file names are RetroArch's, so states move between the two:
///
/// | slot            | file                 |
/// |-----------------|----------------------|
/// | `.quick`        | `<game>.state`  (RetroArch's slot 0) |
/// | `.numbered(n)`  | `<game>.state<n>`, n = 1…9 |
/// | `.auto`         | `<game>.state.auto` (written on quit, loaded by "Continue") |
public enum StateSlot: Hashable, Sendable, Comparable, CustomStringConvertible {
    case quick
    case numbered(Int)
    case auto

    public static let numberedRange = 1...9

    /// Every slot in menu order: quick, 1…9, auto.
    public static let all: [StateSlot] = [.quick] + numberedRange.map { .numbered($0) } + [.auto]

    /// False for a numbered slot outside 1…9.
    public var isValid: Bool {
        if case .numbered(let number) = self { return StateSlot.numberedRange.contains(number) }
        return true
    }

    /// The file extension after the game name: `state`, `state3`, `state.auto`.
    public var fileExtension: String {
        switch self {
        case .quick: "state"
        case .numbered(let number): "state\(number)"
        case .auto: "state.auto"
        }
    }

    /// The id written in metadata: `quick`, `1`…`9`, `auto`.
    public var identifier: String {
        switch self {
        case .quick: "quick"
        case .numbered(let number): String(number)
        case .auto: "auto"
        }
    }

    public init?(identifier: String) {
        switch identifier {
        case "quick": self = .quick
        case "auto": self = .auto
        default:
            guard let number = Int(identifier), StateSlot.numberedRange.contains(number) else { return nil }
            self = .numbered(number)
        }
    }

    /// For menus: `Quick save`, `Slot 3`, `Auto save`.
    public var description: String {
        switch self {
        case .quick: "Quick save"
        case .numbered(let number): "Slot \(number)"
        case .auto: "Auto save"
        }
    }

    public static func < (lhs: StateSlot, rhs: StateSlot) -> Bool {
        func order(_ slot: StateSlot) -> Int {
            switch slot {
            case .quick: 0
            case .numbered(let number): number
            case .auto: 100
            }
        }
        return order(lhs) < order(rhs)
    }
}
