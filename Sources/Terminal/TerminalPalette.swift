/// The palette entries Phosphor may redefine, as the terminal reported them: asked at start
/// (`OSC 4 ; n ; ?` for each candidate), so that the half-block picture can send its colours as
/// redefined entries and every one can be given back exactly as it was. A terminal that does not
/// answer (or a multiplexer, which is never asked: tmux keeps a palette per pane and GNU screen
/// none) leaves this empty, and the picture uses plain 24-bit colour. UI thread only.
public struct TerminalPalette: Equatable, Sendable {
    /// The entries asked about: the two-digit ones (`38;5;n` is a byte shorter than with three)
    /// that the menus never draw with (they use 0–15, 25, 88, 94, 124, 235–246). 71 entries: a
    /// Game Boy Color frame has at most 56 colours. The save-state previews in menus use any
    /// entry, so the picture gives the entries back before a menu opens (`PlayScreen`).
    public static let candidates: [Int] = Array(16...24) + Array(26...87)

    /// Too few entries answered: not worth using (a picture would run out at once).
    public static let minimumEntries = 16

    /// Reported colours by entry, 16 bits per component.
    public private(set) var reported: [Int: (red: UInt16, green: UInt16, blue: UInt16)] = [:]

    public init() {}

    public static func == (lhs: TerminalPalette, rhs: TerminalPalette) -> Bool {
        lhs.reported.count == rhs.reported.count && lhs.reported.allSatisfy { index, color in
            rhs.reported[index].map { $0 == color } ?? false
        }
    }

    /// The queries, one `OSC 4` per candidate (terminals differ on several in one string).
    public static var query: [UInt8] {
        candidates.flatMap { Array("\u{1B}]4;\($0);?\u{1B}\\".utf8) }
    }

    /// Takes one reply; false when it is not for a candidate.
    public mutating func record(index: Int, red: UInt16, green: UInt16, blue: UInt16) -> Bool {
        guard TerminalPalette.candidates.contains(index) else { return false }
        reported[index] = (red, green, blue)
        return true
    }

    /// The entries that may be redefined, in the order they are handed out; empty when too few answered.
    public var redefinableEntries: [UInt8] {
        guard reported.count >= TerminalPalette.minimumEntries else { return [] }
        return TerminalPalette.candidates.filter { reported[$0] != nil }.map { UInt8($0) }
    }

    /// `OSC 4` sequences that give every redefinable entry the colour it was reported with.
    public var restoreBytes: [UInt8] {
        // Bytes appended directly: string interpolation and `String(_:radix:)` for 71 entries
        // took 1.9 ms of every start (perf).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(redefinableEntries.count * 30)
        for index in redefinableEntries {
            let color = reported[Int(index)]!
            bytes += [0x1B, UInt8(ascii: "]"), UInt8(ascii: "4"), UInt8(ascii: ";")]
            if index >= 10 { bytes.append(UInt8(ascii: "0") + index / 10) }
            bytes += [UInt8(ascii: "0") + index % 10, UInt8(ascii: ";"), UInt8(ascii: "r"), UInt8(ascii: "g"), UInt8(ascii: "b"), UInt8(ascii: ":")]
            appendHex(color.red, to: &bytes)
            bytes.append(UInt8(ascii: "/"))
            appendHex(color.green, to: &bytes)
            bytes.append(UInt8(ascii: "/"))
            appendHex(color.blue, to: &bytes)
            bytes += [0x1B, UInt8(ascii: "\\")]
        }
        return bytes
    }

    /// Four lower-case hex digits.
    private func appendHex(_ value: UInt16, to bytes: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        for shift in stride(from: 12, through: 0, by: -4) {
            bytes.append(digits.utf8Start[Int(value >> UInt16(shift) & 0xF)])
        }
    }
}
