extension CheatCodeValidator {
    /// The Game Genie's 16 letters, in the order of the values they stand for (A = 0 … N = 15).
    static let nesGameGenieLetters = Array("APZLGITYEOXUKSVN")

    /// One NES code: Game Genie (checked first, as nestopia does), Pro Action Rocky, or raw.
    static func nesPart(_ token: Substring) throws(CheatCodeError) -> CheatCode.Part {
        let shown = quoted(token)
        if token.contains(":") || token.contains("?") {
            guard isNESRaw(token) else {
                throw CheatCodeError("not a raw NES code (AAAA:VV or AAAA?CC:VV, hex): \(shown)")
            }
            return CheatCode.Part(format: .nesRaw, text: String(token))
        }
        let allGameGenie = token.allSatisfy { nesGameGenieLetters.contains($0) }
        let allHex = token.allSatisfy(isHex)
        if allGameGenie, token.count == 6 || token.count == 8 {
            // The third letter says how long the code is: its top bit is set in 8-letter codes.
            let third = nesGameGenieLetters.firstIndex(of: Array(token)[2]) ?? 0
            if (third >= 8) == (token.count == 8) {
                return CheatCode.Part(format: .nesGameGenie, text: String(token))
            }
            if !(allHex && token.count == 8) {
                throw CheatCodeError(token.count == 6
                    ? "not a Game Genie code: \(shown) has 6 letters, so its third letter must be one of A P Z L G I T Y"
                    : "not a Game Genie code: \(shown) has 8 letters, so its third letter must be one of E O X U K S V N")
            }
        }
        if allHex, token.count == 8 {
            return CheatCode.Part(format: .nesProActionRocky, text: String(token))
        }
        let prefix = "not a Game Genie or Pro Action Rocky code:"
        if let bad = firstCharacter(in: token, notIn: { nesGameGenieLetters.contains($0) || isHex($0) }) {
            throw CheatCodeError("\(prefix) \(shown) has \(bad), which is neither a Game Genie letter (A P Z L G I T Y E O X U K S V N) nor a hex digit")
        }
        if allGameGenie {
            throw CheatCodeError("\(prefix) \(shown) has \(token.count) letters; Game Genie codes have 6 or 8")
        }
        if allHex {
            throw CheatCodeError("\(prefix) \(shown) has \(token.count) hex digits; Pro Action Rocky codes have 8")
        }
        throw CheatCodeError("\(prefix) \(shown) mixes Game Genie letters with digits")
    }

    /// `AAAA:VV` or `AAAA?CC:VV`, all hex.
    private static func isNESRaw(_ token: Substring) -> Bool {
        let characters = Array(token)
        switch characters.count {
        case 7:
            return characters[4] == ":" && characters.enumerated().allSatisfy { $0.offset == 4 || isHex($0.element) }
        case 10:
            return characters[4] == "?" && characters[7] == ":"
                && characters.enumerated().allSatisfy { $0.offset == 4 || $0.offset == 7 || isHex($0.element) }
        default:
            return false
        }
    }
}
