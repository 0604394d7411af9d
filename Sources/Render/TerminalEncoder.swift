/// Turns a `CellCanvas` into the escape sequences that bring the terminal from what this
/// encoder wrote last time to the canvas: only changed cells, the cheapest cursor moves, no
/// repeated SGR, spaces where a cell is one colour, optionally inside synchronized output.
///
/// The encoder remembers what the terminal shows (per cell, after colour reduction) and which
/// colours are in effect. Anything else that writes to the terminal must be followed by
/// `invalidate()` (screen content changed: full redraw) or at least `forgetTerminalState()`
/// (only colours/cursor changed). Not thread-safe: use it on the one thread that writes the tty.
public final class TerminalEncoder {
    /// Colour reduction for everything emitted; changing it forces a full redraw.
    public var colorMode: ColorMode {
        didSet { if colorMode != oldValue { invalidate() } }
    }
    /// Wrap each non-empty frame in `CSI ? 2026 h` … `CSI ? 2026 l` (synchronized output).
    public var synchronizedOutput: Bool

    /// A cell as the terminal shows it: colours reduced to the mode's codes, spaces normalised.
    private struct ScreenCell: Equatable {
        var character: UInt32
        var foreground: UInt32
        var background: UInt32
    }

    /// Marks "unknown" in the remembered state; no real colour code or character equals it.
    private static let unknown: UInt32 = 0xFFFF_FFFF
    /// The foreground of a space, which nobody sees.
    private static let anyForeground: UInt32 = 0xFFFF_FFFE
    private static let unknownCell = Cell(character: unknown, foreground: .black, background: .black)

    private var columns = 0
    private var rows = 0
    /// The canvas cells last encoded (before reduction): the fast "unchanged" check.
    private var lastCanvas: [Cell] = []
    /// What the terminal shows, per cell.
    private var screen: [ScreenCell] = []
    private var cursorRow = -1
    private var cursorColumn = -1
    private var currentForeground = TerminalEncoder.unknown
    private var currentBackground = TerminalEncoder.unknown
    private let digits = DecimalDigits()
    private var cache256 = PaletteCache(match: PaletteMatcher.nearest256)
    private var cache16 = PaletteCache(match: PaletteMatcher.nearest16)

    public init(colorMode: ColorMode, synchronizedOutput: Bool) {
        self.colorMode = colorMode
        self.synchronizedOutput = synchronizedOutput
    }

    /// Forget what the terminal shows: the next `encode` redraws every cell. Call after a resize,
    /// when an overlay closes, on Ctrl-L, or after anyone else wrote to the screen.
    public func invalidate() {
        columns = 0
        rows = 0
        lastCanvas.removeAll(keepingCapacity: true)
        screen.removeAll(keepingCapacity: true)
        forgetTerminalState()
    }

    /// Forget the cursor position and the colours in effect (e.g. after another writer sent
    /// `CSI 0 m`), without redrawing the picture.
    public func forgetTerminalState() {
        cursorRow = -1
        cursorColumn = -1
        currentForeground = TerminalEncoder.unknown
        currentBackground = TerminalEncoder.unknown
    }

    /// Appends to `output` the bytes that update the terminal to `canvas`; a canvas of a new
    /// size redraws everything. Returns the number of bytes appended (0 when nothing changed).
    /// Cursor positions are absolute (canvas cell (0, 0) is terminal position 1;1).
    @discardableResult
    public func encode(_ canvas: CellCanvas, into output: inout [UInt8]) -> Int {
        let startCount = output.count
        if canvas.columns != columns || canvas.rows != rows || lastCanvas.count != canvas.cells.count {
            columns = canvas.columns
            rows = canvas.rows
            lastCanvas = [Cell](repeating: TerminalEncoder.unknownCell, count: columns * rows)
            let blank = ScreenCell(character: TerminalEncoder.unknown, foreground: TerminalEncoder.unknown,
                                   background: TerminalEncoder.unknown)
            screen = [ScreenCell](repeating: blank, count: columns * rows)
        }
        // A frame starts with the cursor wherever the caller left it.
        cursorRow = -1
        cursorColumn = -1
        var started = false
        let width = columns
        let height = rows
        canvas.cells.withUnsafeBufferPointer { cellBuffer in
        lastCanvas.withUnsafeMutableBufferPointer { lastBuffer in
        screen.withUnsafeMutableBufferPointer { screenBuffer in
            let cells = cellBuffer.baseAddress!, last = lastBuffer.baseAddress!, shownCells = screenBuffer.baseAddress!
            for row in 0..<height {
                let rowStart = row &* width
                for column in 0..<width {
                    let index = rowStart &+ column
                    let cell = cells[index]
                    if cell == last[index] { continue }
                    last[index] = cell
                    let shown = reduce(cell)
                    if shown == shownCells[index] { continue }
                    if !started {
                        started = true
                        if synchronizedOutput { output.append(contentsOf: TerminalEncoder.beginSynchronized) }
                    }
                    moveCursor(toRow: row, column: column, screen: shownCells, output: &output)
                    write(shown, output: &output)
                    shownCells[index] = shown
                    cursorColumn += 1
                    if cursorColumn >= width {
                        // The cursor sits on the last column with a wrap pending: position unknown.
                        cursorRow = -1
                        cursorColumn = -1
                    }
                }
            }
        }}}
        if started && synchronizedOutput { output.append(contentsOf: TerminalEncoder.endSynchronized) }
        return output.count - startCount
    }

    static let beginSynchronized: [UInt8] = Array("\u{1B}[?2026h".utf8)
    static let endSynchronized: [UInt8] = Array("\u{1B}[?2026l".utf8)

    /// The palette code for one colour in the current mode: 24-bit values as they are, palette
    /// indices tagged above bit 24 so the two never compare equal.
    @inline(__always)
    private func code(_ color: RGBColor) -> UInt32 {
        switch colorMode {
        case .trueColor: return color.rawValue
        case .palette256: return 0x100_0000 | UInt32(cache256.index(for: color))
        case .palette16: return 0x200_0000 | UInt32(cache16.index(for: color))
        }
    }

    @inline(__always)
    private func reduce(_ cell: Cell) -> ScreenCell {
        let background = code(cell.background)
        if cell.character == Cell.space {
            return ScreenCell(character: Cell.space, foreground: TerminalEncoder.anyForeground, background: background)
        }
        let foreground = code(cell.foreground)
        if cell.character == Cell.upperHalfBlock && foreground == background {
            return ScreenCell(character: Cell.space, foreground: TerminalEncoder.anyForeground, background: background)
        }
        return ScreenCell(character: cell.character, foreground: foreground, background: background)
    }

    /// Moves the cursor to (row, column) by the shortest of: nothing (already there), writing
    /// the skipped cells again when they are spaces in the current background (1 byte each),
    /// `CSI n C`, or `CSI row;col H`.
    @inline(__always)
    private func moveCursor(toRow row: Int, column: Int, screen: UnsafePointer<ScreenCell>, output: inout [UInt8]) {
        if cursorRow == row && cursorColumn == column { return }
        let absoluteCost = 3 + DecimalDigits.width(row + 1) + (column == 0 ? 0 : 1 + DecimalDigits.width(column + 1))
        if cursorRow == row && cursorColumn >= 0 && column > cursorColumn {
            let gap = column - cursorColumn
            let forwardCost = gap == 1 ? 3 : 3 + DecimalDigits.width(gap)
            if gap < min(forwardCost, absoluteCost) && skippedCellsAreCurrentSpaces(screen + row * columns, from: cursorColumn, to: column) {
                output.append(contentsOf: repeatElement(UInt8(0x20), count: gap))
                cursorColumn = column
                return
            }
            if forwardCost <= absoluteCost {
                output.append(0x1B)
                output.append(0x5B)
                if gap > 1 { digits.append(gap, to: &output) }
                output.append(0x43)  // C
                cursorColumn = column
                return
            }
        }
        output.append(0x1B)
        output.append(0x5B)
        if row != 0 || column != 0 { digits.append(row + 1, to: &output) }
        if column != 0 {
            output.append(0x3B)
            digits.append(column + 1, to: &output)
        }
        output.append(0x48)  // H
        cursorRow = row
        cursorColumn = column
    }

    private func skippedCellsAreCurrentSpaces(_ screenRow: UnsafePointer<ScreenCell>, from start: Int, to end: Int) -> Bool {
        for column in start..<end {
            let cell = screenRow[column]
            if cell.character != Cell.space || cell.background != currentBackground { return false }
        }
        return true
    }

    /// Writes one cell: the SGR changes it needs (none if its colours are in effect), then its glyph.
    @inline(__always)
    private func write(_ cell: ScreenCell, output: inout [UInt8]) {
        let needsForeground = cell.character != Cell.space && cell.foreground != currentForeground
        let needsBackground = cell.background != currentBackground
        if needsForeground || needsBackground {
            output.append(0x1B)
            output.append(0x5B)
            if needsForeground {
                appendColor(cell.foreground, isForeground: true, output: &output)
                currentForeground = cell.foreground
            }
            if needsBackground {
                if needsForeground { output.append(0x3B) }
                appendColor(cell.background, isForeground: false, output: &output)
                currentBackground = cell.background
            }
            output.append(0x6D)  // m
        }
        appendUTF8(cell.character, output: &output)
    }

    /// SGR parameters for one colour code: `38;2;r;g;b`, `38;5;n`, or an ANSI 30–37/90–97 number
    /// (40–47/100–107 for backgrounds).
    @inline(__always)
    private func appendColor(_ code: UInt32, isForeground: Bool, output: inout [UInt8]) {
        switch code >> 24 {
        case 0:
            output.append(isForeground ? 0x33 : 0x34)  // 3 or 4
            output.append(0x38)  // 8
            output.append(0x3B)
            output.append(0x32)  // 2
            output.append(0x3B)
            digits.append(Int((code >> 16) & 0xFF), to: &output)
            output.append(0x3B)
            digits.append(Int((code >> 8) & 0xFF), to: &output)
            output.append(0x3B)
            digits.append(Int(code & 0xFF), to: &output)
        case 1:
            output.append(isForeground ? 0x33 : 0x34)
            output.append(0x38)
            output.append(0x3B)
            output.append(0x35)  // 5
            output.append(0x3B)
            digits.append(Int(code & 0xFF), to: &output)
        default:
            let index = Int(code & 0xFF)
            let base = index < 8 ? (isForeground ? 30 : 40) : (isForeground ? 90 - 8 : 100 - 8)
            digits.append(base + index, to: &output)
        }
    }

    @inline(__always)
    private func appendUTF8(_ value: UInt32, output: inout [UInt8]) {
        switch value {
        case 0..<0x80:
            output.append(UInt8(value))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | value >> 6))
            output.append(UInt8(0x80 | value & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | value >> 12))
            output.append(UInt8(0x80 | (value >> 6) & 0x3F))
            output.append(UInt8(0x80 | value & 0x3F))
        default:
            output.append(UInt8(0xF0 | value >> 18))
            output.append(UInt8(0x80 | (value >> 12) & 0x3F))
            output.append(UInt8(0x80 | (value >> 6) & 0x3F))
            output.append(UInt8(0x80 | value & 0x3F))
        }
    }
}
