import PhosphorKit

/// Mouse cells to libretro pointer coordinates, which span -0x7fff (left/top edge) to 0x7fff
/// (right/bottom edge) of the touch screen. The mouse only reports cells, so a click maps to the
/// centre of its cell.
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

    /// Cell `index` of `count` to -0x7fff...0x7fff, at the cell's centre.
    static func axis(_ index: Int, of count: Int) -> Int16 {
        // Offset of the cell centre from the screen centre, in half cells, scaled to half the range.
        Int16((2 * index + 1 - count) * 0x7FFF / count)
    }
}
