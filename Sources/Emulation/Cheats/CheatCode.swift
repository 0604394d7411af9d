import PhosphorKit

/// A checked cheat code: its parts (one per code line, e.g. the two halves of a two-line Game
/// Genie code), each with its format, in the spelling the cores read. `text` joins the parts
/// with `+`, the libretro convention for multi-part codes. Made by `CheatCodeValidator`.
/// Any thread (value type).
public struct CheatCode: Sendable, Equatable {
    public struct Part: Sendable, Equatable {
        public var format: CheatFormat
        public var text: String
    }

    public var system: GameSystem
    public var parts: [Part]

    /// The normalized code, as stored and as most cores take it: `ZAZKAP+AEUGAIAA`.
    public var text: String { parts.map(\.text).joined(separator: "+") }
}
