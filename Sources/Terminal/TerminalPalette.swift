/// The palette entries Phosphor may redefine, as the terminal reported them: asked at start
/// (`OSC 4 ; n ; ?` for each candidate), so that the half-block picture can send its colours as
/// redefined entries and every one can be given back exactly as it was. A terminal that does not
/// answer (or a multiplexer, which is never asked: tmux keeps a palette per pane and GNU screen
/// none) leaves this empty, and the picture uses plain 24-bit colour. So does a terminal that
/// answers but ignores a redefinition (Konsole 22.12 does: every picture colour came out as its
/// default 6×6×6 cube's), found by redefining one entry and asking again (`probeEntry`).
/// UI thread only.
public struct TerminalPalette: Equatable, Sendable {
    /// The entries asked about: the two-digit ones (`38;5;n` is a byte shorter than with three)
    /// that the menus never draw with (they use 0–15, 25, 88, 94, 124, 235–246). 71 entries: a
    /// Game Boy Color frame has at most 56 colours. The save-state previews in menus use any
    /// entry, so the picture gives the entries back before a menu opens (`PlayScreen`).
    public static let candidates: [Int] = Array(16...24) + Array(26...87)

    /// Too few entries answered: not worth using (a picture would run out at once).
    public static let minimumEntries = 16

    /// The entry redefined at start to see whether redefinitions take: once its own colour is
    /// reported (so it can be given back), set to `probeColor` and asked about again. Never
    /// redefined before: a terminal that takes redefinitions but does not answer would keep the
    /// probe's colour for good.
    public static let probeEntry = 87
    /// A colour no terminal's default entry 87 has (xterm's, VTE's and Konsole's is #5fffff).
    /// A terminal keeps 8 or 16 bits a component: the answer's high bytes must match.
    static let probeColor: Color = (0x1212, 0x5656, 0x9A9A)

    public typealias Color = (red: UInt16, green: UInt16, blue: UInt16)

    /// Reported colours by entry, 16 bits per component.
    public private(set) var reported: [Int: Color] = [:]
    /// What the second answer about `probeEntry` said: nil until it came, then whether the
    /// terminal showed the redefinition. Only a palette whose redefinitions take is used.
    public private(set) var redefinitionsTake: Bool?
    /// What `record` decided must be written next (the probe, or the probe entry given back);
    /// the negotiation takes it with `takeFollowUp`, as it does `GraphicsDetection`'s.
    private var followUp: [UInt8] = []

    public init() {}

    public static func == (lhs: TerminalPalette, rhs: TerminalPalette) -> Bool {
        lhs.redefinitionsTake == rhs.redefinitionsTake && lhs.reported.count == rhs.reported.count
            && lhs.reported.allSatisfy { index, color in rhs.reported[index].map { $0 == color } ?? false }
    }

    /// The queries, one `OSC 4` per candidate (terminals differ on several in one string).
    public static var query: [UInt8] {
        candidates.flatMap { Array("\u{1B}]4;\($0);?\u{1B}\\".utf8) }
    }

    /// Whether the probe was written and its answer is still to come.
    public var awaitsProbe: Bool { reported[TerminalPalette.probeEntry] != nil && redefinitionsTake == nil }

    private static func isProbeColor(_ color: Color) -> Bool {
        color.red >> 8 == probeColor.red >> 8 && color.green >> 8 == probeColor.green >> 8
            && color.blue >> 8 == probeColor.blue >> 8
    }

    /// Takes one reply; false when it is not for a candidate. The probe entry's first answer
    /// (its own colour) makes the probe the follow-up: it redefined and asked about again. The
    /// second says whether redefinitions take, and makes the entry's own colour the follow-up.
    public mutating func record(index: Int, red: UInt16, green: UInt16, blue: UInt16) -> Bool {
        guard TerminalPalette.candidates.contains(index) else { return false }
        let probe = UInt8(TerminalPalette.probeEntry)
        if index == TerminalPalette.probeEntry, let own = reported[index] {
            // An entry whose own colour is the probe's cannot tell: taken as not redefinable.
            if redefinitionsTake == nil {
                redefinitionsTake = Self.isProbeColor((red, green, blue)) && !Self.isProbeColor(own)
                followUp += Self.definition(of: probe, as: own)
            }
            return true
        }
        reported[index] = (red, green, blue)
        if index == TerminalPalette.probeEntry {
            followUp += Self.definition(of: probe, as: Self.probeColor) + Array("\u{1B}]4;\(probe);?\u{1B}\\".utf8)
        }
        return true
    }

    /// What must be written now (once; empty otherwise).
    public mutating func takeFollowUp() -> [UInt8] {
        defer { followUp = [] }
        return followUp
    }

    /// The entries that may be redefined, in the order they are handed out; empty when too few
    /// answered or redefinitions do not take (or it is not known yet).
    public var redefinableEntries: [UInt8] {
        guard redefinitionsTake == true, reported.count >= TerminalPalette.minimumEntries else { return [] }
        return TerminalPalette.candidates.filter { reported[$0] != nil }.map { UInt8($0) }
    }

    /// `OSC 4` sequences that give every redefinable entry the colour it was reported with; while
    /// the probe's answer is awaited, the probe entry alone (it may be redefined now).
    public var restoreBytes: [UInt8] {
        if awaitsProbe {
            return definitions(of: [UInt8(TerminalPalette.probeEntry)])
        }
        return definitions(of: redefinableEntries)
    }

    /// `OSC 4` sequences that give each of these reported entries its reported colour.
    private func definitions(of entries: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.count * 30)
        for index in entries { bytes += Self.definition(of: index, as: reported[Int(index)]!) }
        return bytes
    }

    /// `OSC 4 ; index ; rgb:rrrr/gggg/bbbb ST`. Bytes appended directly: string interpolation
    /// and `String(_:radix:)` for 71 entries took 1.9 ms of every start (perf).
    private static func definition(of index: UInt8, as color: Color) -> [UInt8] {
        var bytes: [UInt8] = [0x1B, UInt8(ascii: "]"), UInt8(ascii: "4"), UInt8(ascii: ";")]
        bytes.reserveCapacity(30)
        if index >= 10 { bytes.append(UInt8(ascii: "0") + index / 10) }
        bytes += [UInt8(ascii: "0") + index % 10, UInt8(ascii: ";"), UInt8(ascii: "r"), UInt8(ascii: "g"), UInt8(ascii: "b"), UInt8(ascii: ":")]
        appendHex(color.red, to: &bytes)
        bytes.append(UInt8(ascii: "/"))
        appendHex(color.green, to: &bytes)
        bytes.append(UInt8(ascii: "/"))
        appendHex(color.blue, to: &bytes)
        bytes += [0x1B, UInt8(ascii: "\\")]
        return bytes
    }

    /// Four lower-case hex digits.
    private static func appendHex(_ value: UInt16, to bytes: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        for shift in stride(from: 12, through: 0, by: -4) {
            bytes.append(digits.utf8Start[Int(value >> UInt16(shift) & 0xF)])
        }
    }
}
