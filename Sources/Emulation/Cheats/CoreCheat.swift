/// One `retro_cheat_set(index, true, code)` call: the code exactly as the core will read it.
/// `CheatPlan` builds these from the user's enabled cheats. Any thread (value type).
public struct CoreCheat: Sendable, Equatable {
    public var index: Int
    public var code: String

    public init(index: Int, code: String) {
        self.index = index
        self.code = code
    }
}
