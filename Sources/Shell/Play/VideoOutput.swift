import PhosphorKit
import Terminal

/// What the play screen draws the picture with, decided from the video mode chosen and what the
/// terminal answered at start (never from its name). UI thread only (value type).
enum VideoOutput: Equatable {
    case blocks
    /// The kitty graphics protocol; `files`: frames go as temporary files (same machine);
    /// `cell`: the cell size, for the placement's shape (nil: not reported).
    case kitty(files: Bool, cell: CellPixelSize?)
    /// Sixel with this many colour registers, on cells of `cell` pixels.
    case sixel(registers: Int, cell: CellPixelSize)

    var isPixels: Bool { self != .blocks }

    var name: String {
        switch self {
        case .blocks: "half blocks"
        case .kitty(let files, _): files ? "kitty graphics (local files)" : "kitty graphics"
        case .sixel(let registers, _): "sixel (\(registers) colours)"
        }
    }

    /// The output for `choice` on a terminal with `capabilities`, and the one line to show when
    /// a pixel mode was asked for but cannot be had (nil when there is nothing to say).
    static func resolve(_ choice: VideoModeChoice, capabilities: GraphicsCapabilities) -> (output: VideoOutput, notice: String?) {
        let kitty = VideoOutput.kitty(files: capabilities.kittyFiles, cell: capabilities.cellSize)
        let sixel = capabilities.cellSize.map { VideoOutput.sixel(registers: capabilities.sixelRegisters, cell: $0) }
        switch choice {
        case .blocks:
            return (.blocks, nil)
        case .auto:
            if capabilities.kitty { return (kitty, nil) }
            if capabilities.sixel, let sixel { return (sixel, nil) }
            return (.blocks, capabilities.blockedReason)
        case .kitty:
            if capabilities.kitty { return (kitty, nil) }
            return (.blocks, capabilities.blockedReason
                ?? "kitty graphics: the terminal did not answer the query, half blocks instead")
        case .sixel:
            if capabilities.sixel, let sixel { return (sixel, nil) }
            if capabilities.sixel { return (.blocks, "sixel: the terminal did not report its cell size in pixels, half blocks instead") }
            return (.blocks, capabilities.blockedReason ?? "sixel: the terminal does not list it (DA1), half blocks instead")
        }
    }
}
