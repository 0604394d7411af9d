import PhosphorKit

/// Mouse positions to libretro pointer coordinates, which span -0x7fff (left/top edge) to 0x7fff
/// (right/bottom edge) of the touch screen. A cell report maps to the centre of its cell; a pixel
/// report (SGR-Pixels, mode 1016) to the centre of the frame pixel under it (in half blocks too:
/// a cell is two frame pixels high there, or more when the frame is shrunk).
public enum PointerMapping {
    /// The pointer position for a mouse cell, or nil when the cell is outside `touchScreen`.
    /// With `clamped`, a cell outside maps to the nearest edge (a drag that left the screen).
    public static func pointer(column: Int, row: Int, touchScreen: CellRect,
                               clamped: Bool = false) -> (x: Int16, y: Int16)? {
        guard touchScreen.columns > 0, touchScreen.rows > 0 else { return nil }
        if !clamped, !touchScreen.contains(column: column, row: row) { return nil }
        let localColumn = min(max(column - touchScreen.x, 0), touchScreen.columns - 1)
        let localRow = min(max(row - touchScreen.y, 0), touchScreen.rows - 1)
        return (axis(localColumn, of: touchScreen.columns), axis(localRow, of: touchScreen.rows))
    }

    /// The pointer position for a terminal pixel (zero-based, from the window's first cell), or
    /// nil when it is outside the picture. With `clamped`, a pixel outside maps to the nearest edge.
    public static func pointer(pixelX: Int, pixelY: Int, touchScreen: TouchPixels,
                               clamped: Bool = false) -> (x: Int16, y: Int16)? {
        guard let pixel = touchScreen.picturePixel(x: pixelX, y: pixelY, clamped: clamped) else { return nil }
        return (axis(pixel.x, of: touchScreen.pictureWidth), axis(pixel.y, of: touchScreen.pictureHeight))
    }

    /// Cell (or pixel) `index` of `count` to -0x7fff...0x7fff, at its centre. A core turning the
    /// value back into a pixel (`(value + 0x7fff) * count / 0xfffe`, rounded down) gets `index`.
    static func axis(_ index: Int, of count: Int) -> Int16 {
        // Offset of the centre from the screen centre, in half units, scaled to half the range.
        Int16((2 * index + 1 - count) * 0x7FFF / count)
    }
}

/// The touch screen's picture as the terminal shows it, for pixel reports: where it is in
/// terminal pixels and how many picture pixels it shows across and down. Any thread.
public struct TouchPixels: Sendable, Equatable {
    /// The picture's rectangle in terminal pixels, from the window's first cell (kitty: its
    /// placement's cells; sixel: the picture's own size from the corner of its cells).
    public var area: PixelRect
    /// The frame pixels it shows (the DS touch screen: 256x192).
    public var pictureWidth: Int
    public var pictureHeight: Int

    public init(area: PixelRect, pictureWidth: Int, pictureHeight: Int) {
        self.area = area
        self.pictureWidth = pictureWidth
        self.pictureHeight = pictureHeight
    }

    /// A half-block picture: `picture` in canvas pixels (one per column, two per row) on cells
    /// of `cell` terminal pixels, showing `pictureWidth` x `pictureHeight` frame pixels.
    public init(halfBlockPicture picture: PixelRect, cell: CellPixelSize, pictureWidth: Int, pictureHeight: Int) {
        self.init(area: PixelRect(x: picture.x * cell.width, y: picture.y * cell.height / 2,
                                  width: picture.width * cell.width, height: picture.height * cell.height / 2),
                  pictureWidth: pictureWidth, pictureHeight: pictureHeight)
    }

    /// The picture pixel under terminal pixel `x`, `y`; nil outside unless `clamped`.
    public func picturePixel(x: Int, y: Int, clamped: Bool = false) -> (x: Int, y: Int)? {
        guard !area.isEmpty, pictureWidth > 0, pictureHeight > 0 else { return nil }
        let inside = x >= area.x && x < area.maxX && y >= area.y && y < area.maxY
        if !inside, !clamped { return nil }
        let localX = min(max(x - area.x, 0), area.width - 1)
        let localY = min(max(y - area.y, 0), area.height - 1)
        return (localX * pictureWidth / area.width, localY * pictureHeight / area.height)
    }
}
