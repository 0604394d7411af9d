import PhosphorKit

/// Checks a cheat code a user typed or pasted against the formats of a console and returns it
/// normalized (upper case, one part per code line, joined with `+`), or throws one line saying
/// what is wrong. Stricter than the cores, which skip what they cannot read without a word.
/// Pure functions, any thread.
public enum CheatCodeValidator {
    /// Input longer than this is refused unread (no real code comes near it).
    public static let maximumInputLength = 4096

    /// The longest normalized code: the Debian cores copy a code into a fixed buffer (nestopia
    /// and bsnes-mercury 256 bytes, desmume 1024) and a longer one would overflow it.
    public static func maximumLength(for system: GameSystem) -> Int { system == .nds ? 1023 : 255 }

    public static func validate(_ input: String, for system: GameSystem) throws(CheatCodeError) -> CheatCode {
        guard input.utf8.count <= maximumInputLength else {
            throw CheatCodeError("the code is \(input.utf8.count) characters long; cheat codes are far shorter")
        }
        let tokens = input.uppercased().split(whereSeparator: { isSeparator($0) })
        guard !tokens.isEmpty else { throw CheatCodeError("the code is empty") }
        let parts: [CheatCode.Part]
        switch system {
        case .nes: parts = try tokens.map { token throws(CheatCodeError) in try nesPart(token) }
        case .gb, .gbc: parts = try tokens.map { token throws(CheatCodeError) in try gameBoyPart(token) }
        case .snes: parts = try tokens.map { token throws(CheatCodeError) in try snesPart(token) }
        case .gba: parts = try lineParts(tokens, allowCodeBreaker: true)
        case .nds: parts = try lineParts(tokens, allowCodeBreaker: false)
        case .pce, .genesis, .n64:
            throw CheatCodeError("Phosphor knows no cheat code format for \(system.displayName)")
        }
        let code = CheatCode(system: system, parts: parts)
        let length = code.text.utf8.count
        let limit = maximumLength(for: system)
        guard length <= limit else {
            throw CheatCodeError("the code is \(length) characters long; at most \(limit) fit in the core's buffer (split it into several cheats)")
        }
        return code
    }

    /// What separates the parts of a code: line breaks and spaces (a pasted list), `+` (the
    /// libretro convention), `,` and `;` (other frontends' files).
    static func isSeparator(_ character: Character) -> Bool {
        character.isWhitespace || character == "+" || character == "," || character == ";"
    }

    /// A token as shown in a message: quoted, printable ASCII only, at most 24 characters.
    public static func quoted(_ token: Substring) -> String {
        var shown = String(token.prefix(24).map { $0.isASCII && !$0.isWhitespace && ($0.asciiValue ?? 0) >= 0x21 && $0 != "\u{7F}" ? $0 : "?" })
        if token.count > 24 { shown += "…" }
        return "\"\(shown)\""
    }

    static func isHex(_ character: Character) -> Bool { character.isHexDigit && character.isASCII }

    static func hexValue(_ character: Character) -> Int { character.hexDigitValue ?? 0 }

    /// The first character of `token` that is not allowed, for "has a Q" messages.
    static func firstCharacter(in token: Substring, notIn allowed: (Character) -> Bool) -> String? {
        guard let bad = token.first(where: { !allowed($0) }) else { return nil }
        return quoted(Substring(String(bad)))
    }
}
