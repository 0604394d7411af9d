/// Shared by the skins (where screens go) and the input side (where the DS touch screen is).
/// A rectangle of terminal cells: column `x`, row `y` (both from 0, top left), `columns` wide and
/// `rows` tall.
public struct CellBox: Sendable, Equatable, Hashable, CustomStringConvertible {
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

    public func contains(_ other: CellBox) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    public func intersects(_ other: CellBox) -> Bool {
        !isEmpty && !other.isEmpty && x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// The box shrunk by `cells` on every side.
    public func inset(by cells: Int) -> CellBox {
        CellBox(x: x + cells, y: y + cells, columns: max(0, columns - 2 * cells), rows: max(0, rows - 2 * cells))
    }

    /// Whether the cell at (`column`, `row`) is inside.
    public func contains(column: Int, row: Int) -> Bool {
        column >= x && column < maxX && row >= y && row < maxY
    }

    public var description: String { "\(columns)x\(rows)+\(x)+\(y)" }
}

