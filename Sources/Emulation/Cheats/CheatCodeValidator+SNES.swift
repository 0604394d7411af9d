extension CheatCodeValidator {
    /// One SNES code: Game Genie `XXXX-XXXX`, Pro Action Replay `AAAAAAVV`, or raw `AAAAAA:VV`.
    static func snesPart(_ token: Substring) throws(CheatCodeError) -> CheatCode.Part {
        let shown = quoted(token)
        let characters = Array(token)
        func hexExcept(_ position: Int) -> Bool {
            characters.enumerated().allSatisfy { $0.offset == position || isHex($0.element) }
        }
        if token.contains(":") {
            guard characters.count == 9, characters[6] == ":", hexExcept(6) else {
                throw CheatCodeError("not a raw SNES code (AAAAAA:VV, hex): \(shown)")
            }
            return CheatCode.Part(format: .snesRaw, text: String(token))
        }
        if token.contains("-") {
            guard characters.count == 9, characters[4] == "-", hexExcept(4) else {
                throw CheatCodeError("not a Game Genie code (XXXX-XXXX, hex): \(shown)")
            }
            return CheatCode.Part(format: .snesGameGenie, text: String(token))
        }
        let prefix = "not a Game Genie (XXXX-XXXX), Pro Action Replay (AAAAAAVV) or raw (AAAAAA:VV) code:"
        if let bad = firstCharacter(in: token, notIn: isHex) {
            throw CheatCodeError("\(prefix) \(shown) has \(bad), which is not a hex digit")
        }
        guard characters.count == 8 else {
            throw CheatCodeError("\(prefix) \(shown) has \(characters.count) hex digits; Pro Action Replay codes have 8")
        }
        return CheatCode.Part(format: .snesProActionReplay, text: String(token))
    }
}
