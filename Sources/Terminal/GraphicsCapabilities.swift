import PhosphorKit

/// What the terminal said about pixel graphics at start: only what it answered, never a guess
/// from its name. UI thread only (a value the app hands to the play screen).
public struct GraphicsCapabilities: Sendable, Equatable {
    /// The kitty graphics protocol answered OK to the 1x1 query.
    public var kitty = false
    /// kitty read a temporary file of ours: frames may go as files (same machine, no base64).
    public var kittyFiles = false
    /// DA1 listed attribute 4 (sixel graphics).
    public var sixel = false
    /// XTSMGRAPHICS: the number of sixel colour registers (nil: not reported).
    public var colorRegisters: Int?
    /// XTSMGRAPHICS was understood but answered "failure" for the registers (mlterm 3.9 does so
    /// for every read, `CSI ? 1 ; 3 ; 0 S`), unlike a VT340, which does not answer at all.
    public var colorRegistersRefused = false
    /// XTSMGRAPHICS: the largest sixel image the terminal shows.
    public var sixelMaximum: (width: Int, height: Int)?
    /// One cell in pixels (`CSI 16 t`, else the tty's window size in pixels).
    public var cellSize: CellPixelSize?
    /// Why pixels are off although asked for (inside tmux…), said once on the status bar.
    public var blockedReason: String?
    /// Running inside tmux: kitty graphics go out wrapped in its passthrough (`TmuxPassthrough`).
    public var insideTmux = false

    public init() {}

    public static func == (left: GraphicsCapabilities, right: GraphicsCapabilities) -> Bool {
        left.kitty == right.kitty && left.kittyFiles == right.kittyFiles && left.sixel == right.sixel
            && left.colorRegisters == right.colorRegisters && left.colorRegistersRefused == right.colorRegistersRefused
            && left.cellSize == right.cellSize
            && left.sixelMaximum?.width == right.sixelMaximum?.width && left.sixelMaximum?.height == right.sixelMaximum?.height
            && left.blockedReason == right.blockedReason && left.insideTmux == right.insideTmux
    }

    /// Sixel colour registers to use: what XTSMGRAPHICS said; else, from a terminal that knows
    /// XTSMGRAPHICS but refused the read, 256 (measured: mlterm 3.9.0 shows 1024 distinct
    /// registers; Konsole reports 256, foot 1024); else the VT340's 16 (the fewest a sixel
    /// terminal has; xterm 379 as a VT340 answers no XTSMGRAPHICS, whatever its registers).
    public var sixelRegisters: Int { colorRegisters ?? (colorRegistersRefused ? 256 : 16) }

    /// Sixel needs the cell size to put pixels on the cell grid.
    public var sixelUsable: Bool { sixel && cellSize != nil }

    /// One line for the log.
    public var summary: String {
        var parts = ["kitty graphics: \(kitty ? (kittyFiles ? "yes (files)" : "yes") : "no")",
                     "sixel: \(sixel ? "yes" : "no")"]
        if let colorRegisters { parts.append("\(colorRegisters) colour registers") }
        if colorRegistersRefused { parts.append("colour registers not reported (XTSMGRAPHICS failed)") }
        if let sixelMaximum { parts.append("max \(sixelMaximum.width)x\(sixelMaximum.height)") }
        parts.append("cell \(cellSize.map(\.description) ?? "unknown")")
        if insideTmux && blockedReason == nil { parts.append("through tmux's passthrough") }
        if let blockedReason { parts.append(blockedReason) }
        return parts.joined(separator: ", ")
    }
}
