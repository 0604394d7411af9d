/// How many colours the terminal can show, and so how the encoder writes SGR colours.
public enum ColorMode: String, Sendable, CaseIterable {
    /// 24-bit `38;2;r;g;b` colours.
    case trueColor = "24bit"
    /// The xterm 256-colour palette (`38;5;n`): 6x6x6 cube and 24-step grey ramp.
    case palette256 = "256"
    /// The 16 ANSI colours (`30–37`, `90–97`, `40–47`, `100–107`).
    case palette16 = "16"

    /// Parses a `--color` argument: `24bit` (or `truecolor`), `256`, `16`.
    public init(argument: String) throws {
        switch argument.lowercased() {
        case "24bit", "truecolor", "24", "direct": self = .trueColor
        case "256", "256color": self = .palette256
        case "16", "16color", "ansi": self = .palette16
        default: throw RenderError.unknownColorMode(argument)
        }
    }

    /// Picks the richest mode the environment promises: `COLORTERM=truecolor|24bit`, or with
    /// `COLORTERM` unset a terminfo entry with `RGB` or 2^24 colours (or a
    /// terminal known to support 24-bit colour) gives 24-bit; a `TERM` of the console/vt family
    /// (or none) gives 16; any other `TERM` (xterm, screen, tmux, rxvt, …) gives 256.
    /// `terminfo`: what the terminal's terminfo entry says (its `colors` number and the `RGB`
    /// flag), consulted when `COLORTERM` is unset; nil before the terminal is known.
    public static func detect(environment: [String: String], terminfo: (colors: Int, directColor: Bool)? = nil) -> ColorMode {
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
        let askTerminfo = colorTerm.isEmpty ? terminfo : nil
        if let askTerminfo, askTerminfo.directColor || askTerminfo.colors >= 1 << 24 { return .trueColor }
        let term = (environment["TERM"] ?? "").lowercased()
        let trueColorTerms = ["xterm-kitty", "xterm-ghostty", "wezterm", "alacritty", "foot", "xterm-direct", "contour"]
        if trueColorTerms.contains(where: { term.hasPrefix($0) }) || term.hasSuffix("-direct") { return .trueColor }
        if term.contains("256color") || (askTerminfo?.colors ?? 0) >= 256 { return .palette256 }
        let sixteenColorTerms = ["", "dumb", "linux", "vt100", "vt102", "vt220", "ansi", "cons25", "cygwin", "sun"]
        if sixteenColorTerms.contains(term) || term.hasPrefix("vt") { return .palette16 }
        return .palette256
    }
}
