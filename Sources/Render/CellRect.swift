/// A rectangle of terminal cells, 0-based from the top-left cell of the canvas.
/// One cell shows two half-block pixels: 1 wide, 2 tall.
public struct CellRect: Hashable, Sendable, CustomStringConvertible {
    public var column: Int
    public var row: Int
    public var columns: Int
    public var rows: Int

    public init(column: Int, row: Int, columns: Int, rows: Int) {
        self.column = column
        self.row = row
        self.columns = columns
        self.rows = rows
    }

    public var isEmpty: Bool { columns <= 0 || rows <= 0 }
    public var maxColumn: Int { column + columns }
    public var maxRow: Int { row + rows }

    /// The part of this rectangle inside `other` (empty, with zero size, when they do not meet).
    public func intersection(_ other: CellRect) -> CellRect {
        let left = max(column, other.column), top = max(row, other.row)
        let right = min(maxColumn, other.maxColumn), bottom = min(maxRow, other.maxRow)
        return CellRect(column: left, row: top, columns: max(0, right - left), rows: max(0, bottom - top))
    }

    /// The same area in half-block pixels (rows count twice).
    public var pixelRect: PixelRect { PixelRect(x: column, y: row * 2, width: columns, height: rows * 2) }

    public var description: String { "(col \(column), row \(row) \(columns)x\(rows))" }
}
