extension CheatCodeValidator {
    /// GBA and DS codes: lines of two hex words, `XXXXXXXX YYYYYYYY` (GameShark / Action Replay)
    /// or, on the GBA, `XXXXXXXX YYYY` (CodeBreaker). The words may come as separate tokens or
    /// run together; each line becomes one part, spelled `XXXXXXXX YYYYYYYY`.
    static func lineParts(_ tokens: [Substring], allowCodeBreaker: Bool) throws(CheatCodeError) -> [CheatCode.Part] {
        let lineFormat: CheatFormat = allowCodeBreaker ? .gbaGameSharkOrActionReplay : .dsActionReplay
        let expected = allowCodeBreaker
            ? "XXXXXXXX YYYYYYYY (GameShark / Action Replay) or XXXXXXXX YYYY (CodeBreaker)"
            : "XXXXXXXX YYYYYYYY"
        let prefix = allowCodeBreaker ? "not a GameShark, Action Replay or CodeBreaker code:" : "not an Action Replay code:"
        for token in tokens {
            if let bad = firstCharacter(in: token, notIn: isHex) {
                throw CheatCodeError("\(prefix) \(quoted(token)) has \(bad), which is not a hex digit")
            }
        }
        var parts: [CheatCode.Part] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            let line = parts.count + 1
            let next = index + 1 < tokens.count ? tokens[index + 1] : nil
            switch token.count {
            case 16:
                parts.append(CheatCode.Part(format: lineFormat, text: "\(token.prefix(8)) \(token.suffix(8))"))
                index += 1
            case 12 where allowCodeBreaker:
                parts.append(CheatCode.Part(format: .gbaCodeBreaker, text: "\(token.prefix(8)) \(token.suffix(4))"))
                index += 1
            case 8 where next?.count == 8:
                parts.append(CheatCode.Part(format: lineFormat, text: "\(token) \(next!)"))
                index += 2
            case 8 where next?.count == 4 && allowCodeBreaker:
                parts.append(CheatCode.Part(format: .gbaCodeBreaker, text: "\(token) \(next!)"))
                index += 2
            default:
                let found = next.map { "\(quoted(token)) \(quoted($0))" } ?? quoted(token)
                throw CheatCodeError("\(prefix) line \(line) should be \(expected), found \(found)")
            }
        }
        return parts
    }
}
