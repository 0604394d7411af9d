import PhosphorKit

/// A terminal-sized grid of cells that one frame is composed on: pictures, fills and text.
///
/// Cell (column, row) is stored at `row * columns + column`. Half-block pixel (x, y) lives in
/// cell (x, y / 2): even `y` is the cell's foreground (top), odd `y` its background (bottom).
public struct CellCanvas: Sendable {
    public private(set) var columns: Int
    public private(set) var rows: Int
    /// Row-major cells; `cells.count == columns * rows`.
    public internal(set) var cells: [Cell]

    public init(columns: Int, rows: Int, background: RGBColor = .black) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        cells = [Cell](repeating: Cell(top: background, bottom: background), count: self.columns * self.rows)
    }

    /// The whole canvas as a rectangle.
    public var bounds: CellRect { CellRect(x: 0, y: 0, columns: columns, rows: rows) }

    /// Resizes (contents become `background`) or, at the same size, clears to `background`.
    /// Keeps the array's storage, so a frame at the same size allocates nothing.
    public mutating func reset(columns: Int, rows: Int, background: RGBColor) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        let blank = Cell(top: background, bottom: background)
        let count = self.columns * self.rows
        if cells.count != count {
            cells.removeAll(keepingCapacity: true)
            cells.append(contentsOf: repeatElement(blank, count: count))
        } else {
            cells.withUnsafeMutableBufferPointer { $0.update(repeating: blank) }
        }
    }

    public subscript(column: Int, row: Int) -> Cell {
        get { cells[row * columns + column] }
        set { cells[row * columns + column] = newValue }
    }

    /// Fills `rect` (clipped to the canvas) with a solid colour.
    public mutating func fill(_ rect: CellRect, with color: RGBColor) {
        let clipped = rect.intersection(bounds)
        guard !clipped.isEmpty else { return }
        let blank = Cell(top: color, bottom: color)
        let width = columns
        cells.withUnsafeMutableBufferPointer { buffer in
            for row in clipped.y..<clipped.maxY {
                let start = row * width + clipped.x
                UnsafeMutableBufferPointer(rebasing: buffer[start..<start + clipped.columns]).update(repeating: blank)
            }
        }
    }

    /// Puts one cell; positions outside the canvas are ignored so callers can draw clipped borders.
    public mutating func put(_ cell: Cell, column: Int, row: Int) {
        guard column >= 0, column < columns, row >= 0, row < rows else { return }
        cells[row * columns + column] = cell
    }

    /// Writes `text` from (column, row) rightwards, one single-width character per cell, clipped
    /// at the canvas edge. Returns the column after the last character written.
    @discardableResult
    public mutating func put(text: String, column: Int, row: Int, foreground: RGBColor, background: RGBColor) -> Int {
        var x = column
        for scalar in text.unicodeScalars {
            put(Cell(scalar, foreground: foreground, background: background), column: x, row: row)
            x += 1
        }
        return x
    }

    /// Mixes every colour in `rect` (clipped) toward `color` by `amount`/255: 0 leaves the
    /// cells alone, 255 paints them `color`. Used to dim the picture behind a menu; text keeps
    /// its characters.
    public mutating func blend(_ rect: CellRect, toward color: RGBColor, amount: UInt8) {
        let clipped = rect.intersection(bounds)
        guard !clipped.isEmpty, amount > 0 else { return }
        let weight = UInt32(amount), keep = 255 - UInt32(amount)
        func mix(_ value: RGBColor) -> RGBColor {
            let r = (UInt32(value.red) * keep + UInt32(color.red) * weight + 127) / 255
            let g = (UInt32(value.green) * keep + UInt32(color.green) * weight + 127) / 255
            let b = (UInt32(value.blue) * keep + UInt32(color.blue) * weight + 127) / 255
            return RGBColor(rawValue: r << 16 | g << 8 | b)
        }
        for row in clipped.y..<clipped.maxY {
            for column in clipped.x..<clipped.maxX {
                let index = row * columns + column
                cells[index].foreground = mix(cells[index].foreground)
                cells[index].background = mix(cells[index].background)
            }
        }
    }

    /// Sets one half-block pixel (x, y) in canvas pixel coordinates; outside the canvas is ignored.
    public mutating func setPixel(x: Int, y: Int, to color: RGBColor) {
        guard x >= 0, x < columns, y >= 0, y < rows * 2 else { return }
        let index = (y >> 1) * columns + x
        var cell = cells[index]
        if cell.character != Cell.upperHalfBlock {
            cell = Cell(top: cell.background, bottom: cell.background)
        }
        if y & 1 == 0 { cell.foreground = color } else { cell.background = color }
        cells[index] = cell
    }
}
