/// Why a cheat code was refused, as one line: `not a Game Genie or Pro Action Rocky code: "ZZQ"
/// has a Q, which is not a Game Genie letter (A P Z L G I T Y E O X U K S V N)`.
public struct CheatCodeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
