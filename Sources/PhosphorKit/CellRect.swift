/// A rectangle of terminal cells: column `x`, row `y` (both from 0, top left), `columns` wide and
/// `rows` tall. One cell shows two half-block pixels, 1 wide and 2 tall (`pixelRect`).
///
/// The one cell rectangle of the app: the skins say where screens go in it, the input side where
/// the DS touch screen is, and Render draws into it. Any thread (value type).
public struct CellRect: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var columns: Int
    public var rows: Int

    public init(x: Int, y: Int, columns: Int, rows: Int) {
        self.x = x
        self.y = y
        self.columns = columns
        self.rows = rows
    }

    public var isEmpty: Bool { columns <= 0 || rows <= 0 }
    /// One past the last column.
    public var maxX: Int { x + columns }
    /// One past the last row.
    public var maxY: Int { y + rows }

    public func contains(_ other: CellRect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    /// Whether the cell at (`column`, `row`) is inside.
    public func contains(column: Int, row: Int) -> Bool {
        column >= x && column < maxX && row >= y && row < maxY
    }

    public func intersects(_ other: CellRect) -> Bool {
        !isEmpty && !other.isEmpty && x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// The part of this rectangle inside `other` (empty, with zero size, when they do not meet).
    public func intersection(_ other: CellRect) -> CellRect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(maxX, other.maxX), bottom = min(maxY, other.maxY)
        return CellRect(x: left, y: top, columns: max(0, right - left), rows: max(0, bottom - top))
    }

    /// The rectangle shrunk by `cells` on every side.
    public func inset(by cells: Int) -> CellRect {
        CellRect(x: x + cells, y: y + cells, columns: max(0, columns - 2 * cells), rows: max(0, rows - 2 * cells))
    }

    /// The same area in half-block pixels (rows count twice).
    public var pixelRect: PixelRect { PixelRect(x: x, y: y * 2, width: columns, height: rows * 2) }

    public var description: String { "\(columns)x\(rows)+\(x)+\(y)" }
}
