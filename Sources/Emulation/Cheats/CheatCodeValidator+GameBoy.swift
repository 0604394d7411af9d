extension CheatCodeValidator {
    /// One Game Boy code: Game Genie `ABC-DEF[-GHI]` (dashes optional when typed) or GameShark
    /// `TTVVLLHH`.
    static func gameBoyPart(_ token: Substring) throws(CheatCodeError) -> CheatCode.Part {
        let shown = quoted(token)
        let prefix = "not a Game Genie (ABC-DEF or ABC-DEF-GHI) or GameShark (01VVLLHH) code:"
        if let bad = firstCharacter(in: token, notIn: { isHex($0) || $0 == "-" }) {
            throw CheatCodeError("\(prefix) \(shown) has \(bad), which is not a hex digit")
        }
        let digits = Array(token.filter { $0 != "-" })
        if token.contains("-") {
            // Dashes only where a Game Genie code has them: after the 3rd and 6th digit.
            let dashed = Array(token)
            let dashesInPlace = (dashed.count == 7 || dashed.count == 11)
                && dashed.enumerated().allSatisfy { ($0.offset % 4 == 3) == ($0.element == "-") }
            guard dashesInPlace else {
                throw CheatCodeError("\(prefix) \(shown) has its dashes in the wrong place")
            }
        }
        switch digits.count {
        case 6, 9:
            // The address digits sit scrambled in the code; the sixth digit xor F is the top
            // digit, and a Game Genie patches ROM (0000-7FFF), so it must be 8-F.
            guard hexValue(digits[5]) >= 8 else {
                throw CheatCodeError("not a Game Genie code: \(shown) points outside the cartridge ROM (its sixth digit must be 8-F)")
            }
            var text = "\(String(digits[0..<3]))-\(String(digits[3..<6]))"
            if digits.count == 9 { text += "-\(String(digits[6..<9]))" }
            return CheatCode.Part(format: .gameBoyGameGenie, text: text)
        case 8 where !token.contains("-"):
            let type = hexValue(digits[0]) << 4 | hexValue(digits[1])
            guard type == 0x01 || (0x80...0x9F).contains(type) else {
                throw CheatCodeError("not a GameShark code: \(shown) starts with \(String(digits[0..<2])); GameShark codes start with 01 (or 80-9F for a Game Boy Color RAM bank)")
            }
            return CheatCode.Part(format: .gameBoyGameShark, text: String(digits))
        default:
            throw CheatCodeError("\(prefix) \(shown) has \(digits.count) hex digits; Game Genie codes have 6 or 9, GameShark codes 8")
        }
    }
}
