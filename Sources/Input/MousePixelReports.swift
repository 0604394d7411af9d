import PhosphorKit

/// How to read SGR mouse reports while SGR-Pixels (DEC mode 1016) is on: the same
/// `CSI < b ; x ; y M` as cell reports, with pixel numbers. Any thread (value type).
public struct MousePixelReports: Sendable, Equatable {
    /// One cell's size in pixels (a pixel position's cell, for menus and the cell mapping).
    public var cell: CellPixelSize
    /// The number the terminal gives the first pixel. Measured under Xvfb: xterm 379 says 1
    /// (like its cell reports: a click on the first pixel is `1;1`), kitty 0.26.5 says 0.
    public var origin: Int

    public init(cell: CellPixelSize, origin: Int) {
        self.cell = cell
        self.origin = origin
    }

    /// The origin for a terminal by its XTVERSION name (`kitty(0.26.5)`): 0 for kitty, 1 (the
    /// xterm convention) for everything else, and when the terminal did not say.
    public static func origin(terminalVersion: String?) -> Int {
        (terminalVersion ?? "").lowercased().hasPrefix("kitty") ? 0 : 1
    }

    /// The zero-based pixel a report's numbers name (never left of or above the first pixel:
    /// xterm reports its border as 0 or less).
    public func pixel(reportedX x: Int, y: Int) -> MouseEvent.Pixel {
        MouseEvent.Pixel(x: max(0, x - origin), y: max(0, y - origin))
    }
}
