/// How one core takes cheats, measured on the Debian builds (README, "Cheat codes"): whether it
/// applies them at all, how many calls it needs, and how long a code it can take safely. Made
/// from the core's `CoreProfile`. Any thread (value type).
public struct CoreCheatSupport: Sendable, Equatable {
    /// How the enabled cheats become `retro_cheat_set` calls.
    public enum Calls: Sendable, Equatable {
        /// One call per cheat, parts joined with `+` (nestopia, bsnes-mercury, mgba, desmume).
        case onePerCheat
        /// gambatte (the 2016 Debian build): each call replaces the previous call's codes (a Game
        /// Genie call first undoes the ROM patches of the last one) and parts are split on `;`.
        /// So every enabled Game Genie part goes in one call and every GameShark part in a second,
        /// both always sent (an empty one clears), and `retro_cheat_reset` is never called: it
        /// forgets the ROM patches without undoing them, which would leave them on for good.
        case gambatteMerged
    }

    /// Why this core cannot apply cheats (nil when it can): the menu and `--cheat` say so
    /// instead of offering a feature that silently does nothing.
    public var unsupportedReason: String?
    public var calls: Calls
    /// The longest code handed to the core (its fixed buffer minus the terminating NUL).
    public var maximumCodeBytes: Int
    /// Something the user should know about this core's cheats (shown in the cheats menu).
    public var note: String?

    public init(unsupportedReason: String? = nil, calls: Calls, maximumCodeBytes: Int, note: String? = nil) {
        self.unsupportedReason = unsupportedReason
        self.calls = calls
        self.maximumCodeBytes = maximumCodeBytes
        self.note = note
    }

    public var isSupported: Bool { unsupportedReason == nil }

    /// Whether `retro_cheat_reset` comes before the `retro_cheat_set` calls (all but gambatte).
    public var resetsBeforeSetting: Bool { calls != .gambatteMerged }

    /// The `retro_cheat_set` calls for the enabled cheats, each with its position in the user's
    /// list. Empty when the core applies no cheats.
    public func coreCheats(for enabled: [(index: Int, code: CheatCode)]) -> [CoreCheat] {
        guard isSupported else { return [] }
        switch calls {
        case .onePerCheat:
            return enabled.map { CoreCheat(index: $0.index, code: $0.code.text) }
        case .gambatteMerged:
            let parts = enabled.flatMap(\.code.parts)
            let genie = parts.filter { $0.format == .gameBoyGameGenie }.map(\.text)
            let shark = parts.filter { $0.format != .gameBoyGameGenie }.map(\.text)
            // gambatte tells the two apart by the dashes only Game Genie codes have: "-" alone is
            // an empty Game Genie list (it undoes the last patches), "" an empty GameShark list.
            return [CoreCheat(index: 0, code: genie.isEmpty ? "-" : genie.joined(separator: ";")),
                    CoreCheat(index: 1, code: shark.joined(separator: ";"))]
        }
    }
}
