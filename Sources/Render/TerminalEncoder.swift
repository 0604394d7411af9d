/// Turns a `CellCanvas` into the escape sequences that bring the terminal from what this
/// encoder wrote last time to the canvas: only changed cells, the cheapest cursor moves, no
/// repeated SGR, optionally inside synchronized output. Each row's changed cells are planned as a
/// whole (`GlyphPlanner`, fewest bytes): each picture cell as `▀` or `▄`, each one-colour cell as a
/// space or (where `█` fills the cell) a `█`, only the SGR halves that differ, a short unchanged
/// gap written again where that is shorter than the cursor move; `38;5;n` in 24-bit mode when the
/// colour is exactly one of the xterm 256-colour cube or grey entries; and REP (`CSI n b`) for a
/// run of identical one-byte cells, only where the terminal says it has it (`repeatsCharacters`).
/// Where the terminal lets its palette be redefined (`paletteSlots`), 24-bit colours go out as
/// `38;5;n` of an entry defined to that colour (`OSC 4`), each defined once while it is on screen.
///
/// The encoder remembers what the terminal shows (per cell, after colour reduction) and which
/// colours are in effect. Anything else that writes to the terminal must be followed by
/// `invalidate()` (screen content changed: full redraw) or at least `forgetTerminalState()`
/// (only colours/cursor changed). Not thread-safe: use it on the one thread that writes the tty.
///
/// The state read or written for every cell is `@exclusivity(unchecked)`: the encoder is used
/// from one thread and never hands these properties out `inout`, and the runtime's dynamic
/// exclusivity check on each access cost more than the rest of `reduce` (callgrind).
public final class TerminalEncoder {
    /// Colour reduction for everything emitted; changing it forces a full redraw.
    @exclusivity(unchecked) public var colorMode: ColorMode {
        didSet {
            guard colorMode != oldValue else { return }
            invalidate()
            updatePaletteUse()
        }
    }
    /// Palette entries this encoder may redefine to send 24-bit colours by index (nil: none).
    /// Used in 24-bit mode only. Setting nil (a menu is about to draw with the palette, the game
    /// ends) redraws everything in plain 24-bit colour and then gives the entries back.
    public var paletteSlots: PaletteSlots? {
        didSet {
            guard paletteSlots != oldValue else { return }
            invalidate()
            updatePaletteUse()
        }
    }
    /// Wrap each non-empty frame in `CSI ? 2026 h` … `CSI ? 2026 l` (synchronized output).
    @exclusivity(unchecked) public var synchronizedOutput: Bool
    /// The terminal knows REP (`CSI n b`, repeat the last character): runs of identical cells
    /// are sent as one cell and a count. Off unless the terminal said so (terminfo `rep`).
    @exclusivity(unchecked) public var repeatsCharacters = false
    /// The terminal knows DCH and ICH (`CSI n P`, `CSI n @`): a row whose picture moved sideways
    /// by 1–3 cells (a scrolling game) is shifted in place and only what is new is written.
    /// Off unless the terminal said so (terminfo `dch` and `ich`).
    @exclusivity(unchecked) public var shiftsRows = false
    /// Each row's cell forms are chosen for the fewest bytes over the whole row (`GlyphPlanner.plan`);
    /// false: cell by cell as they come (`writeChangesCellByCell`), for less CPU and a few percent
    /// more bytes.
    @exclusivity(unchecked) public var plansRows = true
    /// A row's shift search tries the distance that row shifted by last first, and takes it when
    /// it gains enough (a scrolling game moves the same rows by the same distance frame after
    /// frame); false: every distance is tried, for the best. Set with `plansRows` off: where
    /// bytes are cheap, the search's other distances cost more CPU than the bytes they might save.
    @exclusivity(unchecked) public var triesLastShiftFirst = false
    /// A row is shifted only where the shift leaves at most a quarter of its changed cells to
    /// write: a picture scrolled at a whole scale (every cell but the new column right), not a
    /// downscaled one, where a one-cell shift rights about half of them and the rest stay
    /// scattered along the row. For xterm, which copies the row's pixels for each DCH and ICH
    /// and then waits for the X server: in xterm at 120×50 (a 0.63× picture) the shifts cost
    /// xterm and the X server more than the cells they saved, while at 170×80 (1:1) they
    /// halved the two's CPU. On any link: a slow xterm answers the link pacer late and looks
    /// like a slow link, so a rule that shifted more on a slow link would feed on itself.
    @exclusivity(unchecked) public var shiftsOnlyWholeScrolls = false
    /// In 24-bit mode, send a colour that is exactly an xterm palette entry 16–255 as `38;5;n`
    /// (8–10 bytes shorter). Entries 0–15 are never used: users recolour those.
    @exclusivity(unchecked) public var usesExactPaletteIndices = true {
        didSet { lengthCache = [UInt64](repeating: 0, count: 256) }
    }
    /// Let the row plan use `▄` and `█` (off only to measure what they save: `▀` and spaces).
    @exclusivity(unchecked) public var choosesCheaperGlyphs = true
    /// The terminal's `█` covers the whole cell. xterm with an Xft font (`-fa`) draws it a pixel
    /// short of the cell's top, bottom and right edges, and the background in effect (often the
    /// colour of the cell written before) shows there as an outline that stays until the cell is
    /// drawn again. False: a one-colour cell is always a space in its colour (`TerminalQuirks`).
    @exclusivity(unchecked) public var fullBlockFillsCell = true

    /// A cell as the terminal shows it: colours reduced to the mode's codes, spaces normalised.
    /// A picture cell is kept as `▀` top-over-bottom whichever glyph drew it (`▄` with the colours
    /// swapped, or `█`/space when both halves match, look the same).
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

    @exclusivity(unchecked) private var columns = 0
    @exclusivity(unchecked) private var rows = 0
    /// The canvas cells last encoded (before reduction): the fast "unchanged" check.
    private var lastCanvas: [Cell] = []
    /// What the terminal shows, per cell.
    private var screen: [ScreenCell] = []
    @exclusivity(unchecked) private var cursorRow = -1
    @exclusivity(unchecked) private var cursorColumn = -1
    @exclusivity(unchecked) private var currentForeground = TerminalEncoder.unknown
    @exclusivity(unchecked) private var currentBackground = TerminalEncoder.unknown
    private let digits = DecimalDigits()
    @exclusivity(unchecked) private var cache256 = PaletteCache(match: PaletteMatcher.nearest256)
    @exclusivity(unchecked) private var cache16 = PaletteCache(match: PaletteMatcher.nearest16)
    /// The redefinable entries and the colours they hold; nil when they are not in use.
    @exclusivity(unchecked) private var paletteTable: PaletteSlotTable?
    /// `OSC 4` bytes that give back entries this encoder redefined, still to be written: at the
    /// end of the next frame in 24-bit mode (by then no cell shows them), at its start otherwise
    /// (a 256- or 16-colour frame draws with the palette's own entries).
    private var pendingRestore: [UInt8] = []
    /// Cells written since the entries no cell shows were last looked for.
    @exclusivity(unchecked) private var cellsWrittenSinceRelease = 0

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

    /// The terminal's palette was put back by someone else (the session's suspend or exit
    /// sequence): every entry is as the terminal reported it, and free again. Call `invalidate()`
    /// too, since cells drawn with redefined entries now show other colours.
    public func paletteWasRestored() {
        paletteTable?.reset()
        pendingRestore.removeAll()
    }

    /// Starts or stops using the palette entries after `paletteSlots` or `colorMode` changed.
    private func updatePaletteUse() {
        let wanted = colorMode == .trueColor ? paletteSlots : nil
        guard wanted != paletteTable?.slots else { return }
        if let table = paletteTable, table.hasDefinitions { pendingRestore += table.slots.restoreBytes }
        paletteTable = wanted.map { PaletteSlotTable(slots: $0) }
        slotParameterLength = 5 + DecimalDigits.width(Int(wanted?.indices.max() ?? 0))
        lengthCache = [UInt64](repeating: 0, count: 256)
    }

    /// Appends to `output` the bytes that update the terminal to `canvas`; a canvas of a new
    /// size redraws everything. Returns the number of bytes appended (0 when nothing changed).
    /// Cursor positions are absolute (canvas cell (0, 0) is terminal position 1;1).
    @discardableResult
    public func encode(_ canvas: CellCanvas, into bytes: inout [UInt8]) -> Int {
        writer.removeAll()
        writer.reserve(32)
        if canvas.columns != columns || canvas.rows != rows || lastCanvas.count != canvas.cells.count {
            columns = canvas.columns
            rows = canvas.rows
            lastCanvas = [Cell](repeating: TerminalEncoder.unknownCell, count: columns * rows)
            lastShifts = [Int8](repeating: 0, count: rows)
            let blank = ScreenCell(character: TerminalEncoder.unknown, foreground: TerminalEncoder.unknown,
                                   background: TerminalEncoder.unknown)
            screen = [ScreenCell](repeating: blank, count: columns * rows)
        }
        // A frame starts with the cursor wherever the caller left it.
        cursorRow = -1
        cursorColumn = -1
        var started = false
        if !pendingRestore.isEmpty && colorMode != .trueColor {
            writer.append(contentsOf: pendingRestore)
            pendingRestore.removeAll()
        }
        if paletteTable != nil { releaseUnseenPaletteEntries() }
        let height = rows
        canvas.cells.withUnsafeBufferPointer { cellBuffer in
        lastCanvas.withUnsafeMutableBufferPointer { lastBuffer in
        screen.withUnsafeMutableBufferPointer { screenBuffer in
            let cells = cellBuffer.baseAddress!, last = lastBuffer.baseAddress!, shownCells = screenBuffer.baseAddress!
            for row in 0..<height {
                // The most one row can take: every cell its own step with a full SGR and a
                // glyph, a gap move between each two, the row shift's moves.
                writer.reserve(64 &+ columns &* 96)
                // With row shifts, the search's scan of the row tells where it changed (the rest is
                // skipped) and may already hold each changed cell reduced.
                var changed = 0..<columns
                var reduced: UnsafePointer<ScreenCell>?
                if shiftsRows {
                    let scan = rowShift(row: row, cells: cells, last: last, screen: shownCells)
                    guard !scan.changed.isEmpty else { continue }
                    changed = scan.changed
                    reduced = scan.reduced
                    if let shift = scan.shift {
                        begin(&started, output: &writer)
                        apply(shift, row: row, last: last, screen: shownCells, output: &writer)
                    }
                }
                if plansRows {
                    encodeChanges(row: row, in: changed, reduced: reduced, cells: cells, last: last, screen: shownCells,
                                  started: &started, output: &writer)
                } else {
                    writeChangesCellByCell(row: row, in: changed, reduced: reduced, cells: cells, last: last,
                                           screen: shownCells, started: &started, output: &writer)
                }
            }
        }}}
        if !pendingRestore.isEmpty {
            writer.append(contentsOf: pendingRestore)
            pendingRestore.removeAll()
        }
        if started && synchronizedOutput { writer.append(contentsOf: TerminalEncoder.endSynchronized) }
        writer.copy(to: &bytes)
        return writer.count
    }

    /// The frame being written (`encode` copies it out at the end).
    @exclusivity(unchecked) private var writer = ByteWriter()

    /// Steps handed to the planner since this encoder was made (what a frame costs to plan; tests
    /// read it).
    @exclusivity(unchecked) private(set) var stepsPlanned = 0

    /// The steps of the row being written and their planner (raw buffers, reused every row).
    @exclusivity(unchecked) private var stepScratch = ScratchBuffer<PlanStep>()
    @exclusivity(unchecked) private var planner = GlyphPlanner()

    /// Writes the changed cells of one row: they and the unchanged gaps between them become
    /// `PlanStep`s, `GlyphPlanner` picks every cell's form (and whether a short gap is written
    /// again rather than skipped) for the fewest bytes, and the plan is written out.
    /// `changed`: the columns that may have changed (all of them, or the row-shift scan's range);
    /// `reduced`: that scan's cells already reduced, if it has them.
    private func encodeChanges(row: Int, in changed: Range<Int>, reduced: UnsafePointer<ScreenCell>?,
                               cells: UnsafePointer<Cell>, last: UnsafeMutablePointer<Cell>,
                               screen: UnsafeMutablePointer<ScreenCell>, started: inout Bool, output: inout ByteWriter) {
        let width = columns
        let rowStart = row &* width
        let steps = stepScratch.pointer(capacity: 2 &* width &+ 2)
        var count = 0
        var firstColumn = -1, end = -1
        for column in changed {
            let index = rowStart &+ column
            guard let shown = changedCell(at: index, column: column, cells: cells, last: last, screen: screen,
                                          reduced: reduced) else { continue }
            if end < 0 {
                firstColumn = column
            } else if column > end {
                count = appendGap(row: row, from: end, to: column, screen: screen + rowStart, steps: steps, count: count)
            }
            if end == column && count > 0 && steps[count &- 1].kind != .gap && screen[index &- 1] == shown {
                steps[count &- 1].count &+= 1
            } else {
                steps[count] = step(for: shown, column: column)
                count &+= 1
            }
            screen[index] = shown
            cellsWrittenSinceRelease &+= 1
            end = column &+ 1
        }
        guard count > 0 else { return }
        begin(&started, output: &output)
        moveCursor(toRow: row, column: firstColumn, screen: screen, output: &output)
        stepsPlanned &+= count
        for index in 0..<count { finishCosts(&steps[index]) }
        planner.plan(steps, count: count, foreground: currentForeground, background: currentBackground)
        for index in 0..<count { emit(steps + index, row: row, screen: screen + rowStart, output: &output) }
        cursorEnded(at: end)
    }

    /// Cell `index` (column `column`) as the terminal must show it, or nil when it shows that
    /// already; remembers the canvas cell as seen (`last`). `reduced`: the row-shift scan's cells.
    @inline(__always)
    private func changedCell(at index: Int, column: Int, cells: UnsafePointer<Cell>, last: UnsafeMutablePointer<Cell>,
                             screen: UnsafePointer<ScreenCell>, reduced: UnsafePointer<ScreenCell>?) -> ScreenCell? {
        let cell = cells[index]
        if cell == last[index] { return nil }
        last[index] = cell
        let shown = reduced?[column] ?? reduce(cell)
        return shown == screen[index] ? nil : shown
    }

    /// Before a frame's first byte: the synchronized-output start, if used.
    @inline(__always)
    private func begin(_ started: inout Bool, output: inout ByteWriter) {
        guard !started else { return }
        started = true
        if synchronizedOutput { output.append(contentsOf: TerminalEncoder.beginSynchronized) }
    }

    /// After a row's last written cell, which ended at column `end`.
    @inline(__always)
    private func cursorEnded(at end: Int) {
        cursorColumn = end
        if cursorColumn >= columns {
            // The cursor sits on the last column with a wrap pending: position unknown.
            cursorRow = -1
            cursorColumn = -1
        }
    }

    /// Writes the changed cells of one row cell by cell (`plansRows` off): each run of identical
    /// changed cells is written as soon as it ends, in the form that costs the fewest bytes from
    /// the colours in effect (`cheaperForm`), and each gap of unchanged cells between two is
    /// skipped, or written again where that, chosen the same way, costs less than the move. No
    /// steps are built: on a scrolling game, building each row's steps and passing over them to
    /// cost, choose and write them was half the encoder's instructions.
    private func writeChangesCellByCell(row: Int, in changed: Range<Int>, reduced: UnsafePointer<ScreenCell>?,
                                        cells: UnsafePointer<Cell>, last: UnsafeMutablePointer<Cell>,
                                        screen: UnsafeMutablePointer<ScreenCell>, started: inout Bool,
                                        output: inout ByteWriter) {
        let rowStart = row &* columns
        let shownRow = screen + rowStart
        // One past the last changed cell so far (-1: none yet), and the run that ends there.
        var end = -1
        var run = ScreenCell(character: TerminalEncoder.unknown, foreground: TerminalEncoder.unknown,
                             background: TerminalEncoder.unknown)
        var runCount = 0
        for column in changed {
            let index = rowStart &+ column
            guard let shown = changedCell(at: index, column: column, cells: cells, last: last, screen: screen,
                                          reduced: reduced) else { continue }
            if end == column && shown == run {
                runCount &+= 1
            } else {
                if runCount > 0 { writeRun(of: run, count: runCount, output: &output) }
                if end < 0 {
                    begin(&started, output: &output)
                    moveCursor(toRow: row, column: column, screen: screen, output: &output)
                } else if column > end {
                    writeGap(row: row, from: end, to: column, screen: shownRow, output: &output)
                }
                run = shown
                runCount = 1
            }
            screen[index] = shown
            cellsWrittenSinceRelease &+= 1
            end = column &+ 1
        }
        guard runCount > 0 else { return }
        writeRun(of: run, count: runCount, output: &output)
        cursorEnded(at: end)
    }

    /// Skips the unchanged cells `start..<end` of `row` (the cursor is at `start`) by the shorter
    /// of `CSI n C` and `CSI row;col H`, or writes them again, run by run as `writeRun` would,
    /// when that costs fewer bytes than the move (a tie is skipped).
    @inline(__always)
    private func writeGap(row: Int, from start: Int, to end: Int, screen: UnsafePointer<ScreenCell>,
                          output: inout ByteWriter) {
        let gap = end &- start
        let forward = forwardMoveCost(gap), absolute = absoluteMoveCost(row: row, column: end)
        let move = min(forward, absolute)
        if gap < move && TerminalEncoder.rewriteMayBeCheaper(screen, from: start, to: end, than: move)
            && rewriteBytes(screen, from: start, to: end) < move {
            TerminalEncoder.forEachRun(in: screen, from: start, to: end) { writeRun(of: $0, count: $1, output: &output) }
            return
        }
        skip(gap, row: row, to: end, output: &output)
    }

    /// Moves the cursor `gap` cells right to `target` on `row`, by the shorter of `CSI n C` and
    /// `CSI row;col H`.
    @inline(__always)
    private func skip(_ gap: Int, row: Int, to target: Int, output: inout ByteWriter) {
        if forwardMoveCost(gap) <= absoluteMoveCost(row: row, column: target) {
            appendControl(gap, final: 0x43, output: &output)  // C: CUF
        } else {
            appendAbsoluteMove(row: row, column: target, output: &output)
        }
    }

    /// Calls `body` with each run of identical cells of `start..<end` and its length.
    @inline(__always)
    private static func forEachRun(in screen: UnsafePointer<ScreenCell>, from start: Int, to end: Int,
                                   _ body: (ScreenCell, Int) -> Void) {
        var column = start
        while column < end {
            let cell = screen[column]
            var next = column &+ 1
            while next < end && screen[next] == cell { next &+= 1 }
            body(cell, next &- column)
            column = next
        }
    }

    /// Bytes of writing `start..<end` again run by run from the colours in effect.
    @inline(__always)
    private func rewriteBytes(_ screen: UnsafePointer<ScreenCell>, from start: Int, to end: Int) -> Int {
        var foreground = currentForeground, background = currentBackground
        var bytes = 0
        TerminalEncoder.forEachRun(in: screen, from: start, to: end) { cell, count in
            let form = cheaperForm(of: cell, count: count, foreground: foreground, background: background)
            bytes &+= form.bytes
            (foreground, background) = TerminalEncoder.colors(after: cell, turned: form.turned,
                                                              foreground: foreground, background: background)
        }
        return bytes
    }

    /// Writes `count` copies of `cell` in the form `cheaperForm` picks (text has only one).
    @inline(__always)
    private func writeRun(of cell: ScreenCell, count: Int, output: inout ByteWriter) {
        let hasTwoForms = cell.character == Cell.space || cell.character == Cell.upperHalfBlock
        let turned = hasTwoForms
            && cheaperForm(of: cell, count: count, foreground: currentForeground, background: currentBackground).turned
        write(cell.character, foreground: cell.foreground, background: cell.background, count: count, turned: turned,
              output: &output)
    }

    /// Writes `count` copies of a cell: a space in `background` (turned: `█` in it), `▀` with
    /// `foreground` over `background` (turned: `▄` with them the other way round), or any other
    /// character in its colours.
    @inline(__always)
    private func write(_ character: UInt32, foreground: UInt32, background: UInt32, count: Int, turned: Bool,
                       output: inout ByteWriter) {
        switch character {
        case Cell.space:
            if turned {
                setColors(foreground: background, background: currentBackground, output: &output)
                for _ in 0..<count { appendUTF8(TerminalEncoder.fullBlock, output: &output) }
            } else {
                setColors(foreground: currentForeground, background: background, output: &output)
                appendRun(of: Cell.space, count: count, output: &output)
            }
        case Cell.upperHalfBlock:
            setColors(foreground: turned ? background : foreground, background: turned ? foreground : background,
                      output: &output)
            let glyph = turned ? TerminalEncoder.lowerHalfBlock : Cell.upperHalfBlock
            for _ in 0..<count { appendUTF8(glyph, output: &output) }
        default:
            setColors(foreground: foreground, background: background, output: &output)
            appendRun(of: character, count: count, output: &output)
        }
    }

    /// Whether `count` copies of `cell` cost fewer bytes in their second form (`▄` for a picture
    /// cell, `█` for a space, where allowed) than in their first, from the colours
    /// `foreground`/`background`, and the bytes (SGR and glyphs) of the form chosen; a tie keeps
    /// the first form.
    @inline(__always)
    private func cheaperForm(of cell: ScreenCell, count: Int, foreground: UInt32,
                             background: UInt32) -> (turned: Bool, bytes: Int) {
        switch cell.character {
        case Cell.space:
            let color = cell.background
            let setCost = 3 &+ Int(cachedParameterLength(color))
            let asSpace = 1 &+ repeatedBytes(count &- 1, glyphLength: 1) &+ (background != color ? setCost : 0)
            if choosesCheaperGlyphs && fullBlockFillsCell {
                let asBlock = 3 &* count &+ (foreground != color ? setCost : 0)
                if asBlock < asSpace { return (true, asBlock) }
            }
            return (false, asSpace)
        case Cell.upperHalfBlock:
            let top = cell.foreground, bottom = cell.background
            let topLength = cachedParameterLength(top), bottomLength = cachedParameterLength(bottom)
            let inEffect = GlyphPlanner.colors(foreground: foreground, background: background)
            let glyphs = 3 &* count
            let asUpper = Int(GlyphPlanner.sgrCost(from: inEffect, to: GlyphPlanner.colors(foreground: top, background: bottom),
                                                   topLength, bottomLength)) &+ glyphs
            if choosesCheaperGlyphs {
                let asLower = Int(GlyphPlanner.sgrCost(from: inEffect, to: GlyphPlanner.colors(foreground: bottom, background: top),
                                                       bottomLength, topLength)) &+ glyphs
                if asLower < asUpper { return (true, asLower) }
            }
            return (false, asUpper)
        default:
            let glyph = TerminalEncoder.utf8Length(cell.character)
            let sgr = GlyphPlanner.sgrCost(from: GlyphPlanner.colors(foreground: foreground, background: background),
                                           to: GlyphPlanner.colors(foreground: cell.foreground, background: cell.background),
                                           cachedParameterLength(cell.foreground), cachedParameterLength(cell.background))
            return (false, Int(sgr) &+ glyph &+ repeatedBytes(count &- 1, glyphLength: glyph))
        }
    }

    /// The colours in effect after `cell` is written in the form `turned` says, from
    /// `foreground`/`background` (what `writeRun`'s SGR leaves).
    @inline(__always)
    private static func colors(after cell: ScreenCell, turned: Bool, foreground: UInt32,
                               background: UInt32) -> (UInt32, UInt32) {
        switch cell.character {
        case Cell.space: return turned ? (cell.background, background) : (foreground, cell.background)
        case Cell.upperHalfBlock: return turned ? (cell.background, cell.foreground) : (cell.foreground, cell.background)
        default: return (cell.foreground, cell.background)
        }
    }

    /// The step that writes one cell (its costs are filled in by `finishCosts` once the run is
    /// complete).
    @inline(__always)
    private func step(for cell: ScreenCell, column: Int) -> PlanStep {
        if cell.character == Cell.space {
            return PlanStep(kind: .oneColor, column: column, count: 1, bottom: cell.background)
        }
        return PlanStep(kind: cell.character == Cell.upperHalfBlock ? .twoColors : .fixed, column: column, count: 1,
                        character: cell.character, top: cell.foreground, bottom: cell.background)
    }

    /// Appends the gap `start..<end` of unchanged cells (the cursor is at `start` then): skipped by
    /// the shorter of `CSI n C` and `CSI row;col H`, or, when its glyphs cost less than that move,
    /// also written again as it is shown.
    private func appendGap(row: Int, from start: Int, to end: Int, screen: UnsafePointer<ScreenCell>,
                           steps: UnsafeMutablePointer<PlanStep>, count: Int) -> Int {
        let gap = end &- start
        let move = min(forwardMoveCost(gap), absoluteMoveCost(row: row, column: end))
        var count = count
        let rewriteFrom = count
        if gap < move && TerminalEncoder.rewriteMayBeCheaper(screen, from: start, to: end, than: move) {
            for column in start..<end {
                if column > start && screen[column] == screen[column &- 1] {
                    steps[count &- 1].count &+= 1
                } else {
                    steps[count] = step(for: screen[column], column: column)
                    count &+= 1
                }
            }
        }
        steps[count] = PlanStep(kind: .gap, column: start, count: gap, firstFormBytes: Int32(move), rewriteFrom: rewriteFrom)
        return count &+ 1
    }

    /// Whether writing the gap's cells again could cost less than the `move` that skips them: its
    /// glyphs alone must cost less (a picture cell 3 bytes; a run of one identical one-byte glyph,
    /// spaces included, at least 1, since REP may shorten it). The SGRs a rewrite sends never pay
    /// for themselves later (setting a colour in the gap costs at least what setting it where it
    /// is needed would), so a gap whose glyphs cost the move or more is only ever skipped. On a
    /// downscaled scrolling picture most gaps are one or two `▀` cells: planning their rewrite was
    /// a quarter of the planner's work (callgrind at 120x50: 489 K instructions a frame before,
    /// 373 K after). False when a cell is unknown (nothing to write again).
    @inline(__always)
    private static func rewriteMayBeCheaper(_ screen: UnsafePointer<ScreenCell>, from start: Int, to end: Int,
                                            than move: Int) -> Bool {
        var glyphBytes = 0
        var previous = TerminalEncoder.unknown
        for column in start..<end {
            let character = screen[column].character
            if character == TerminalEncoder.unknown { return false }
            let length = utf8Length(character)
            if length > 1 || character != previous { glyphBytes &+= length }
            previous = character
        }
        return glyphBytes < move
    }

    /// `parameterLength` of recent colour codes, direct-mapped: code in the low 32 bits, length
    /// above (0 = empty). A row's cells share few colours, and the exact-palette test per colour
    /// cost more than the plan itself (callgrind).
    @exclusivity(unchecked) private var lengthCache = [UInt64](repeating: 0, count: 256)

    @inline(__always)
    private func cachedParameterLength(_ code: UInt32) -> Int32 {
        // With redefinable entries every 24-bit colour goes out as one: no look-up.
        if code >> 24 == 0 && paletteTable != nil { return Int32(truncatingIfNeeded: slotParameterLength) }
        let slot = Int((code ^ (code >> 8) ^ (code >> 16) ^ (code >> 24)) & 0xFF)
        let entry = lengthCache.withUnsafeBufferPointer { $0[slot] }
        if entry >> 32 != 0 && UInt32(truncatingIfNeeded: entry) == code { return Int32(entry >> 32) }
        let length = parameterLength(code)
        lengthCache.withUnsafeMutableBufferPointer { $0[slot] = UInt64(length) << 32 | UInt64(code) }
        return Int32(length)
    }

    /// Fills in a step's SGR parameter lengths and glyph bytes in each allowed form.
    @inline(__always)
    private func finishCosts(_ step: inout PlanStep) {
        switch step.kind {
        case .gap:
            return
        case .twoColors:
            step.topLength = cachedParameterLength(step.top)
            step.bottomLength = cachedParameterLength(step.bottom)
            step.firstFormBytes = Int32(3 &* step.count)
            step.secondFormBytes = choosesCheaperGlyphs ? step.firstFormBytes : -1
        case .oneColor:
            step.bottomLength = cachedParameterLength(step.bottom)
            step.firstFormBytes = Int32(1 &+ repeatedBytes(step.count &- 1, glyphLength: 1))
            step.secondFormBytes = choosesCheaperGlyphs && fullBlockFillsCell ? Int32(3 &* step.count) : -1
        case .fixed:
            step.topLength = cachedParameterLength(step.top)
            step.bottomLength = cachedParameterLength(step.bottom)
            let glyph = TerminalEncoder.utf8Length(step.character)
            step.firstFormBytes = Int32(glyph &+ repeatedBytes(step.count &- 1, glyphLength: glyph))
        }
    }

    /// Writes one planned step in the form the planner chose.
    @inline(__always)
    private func emit(_ planned: UnsafePointer<PlanStep>, row: Int, screen: UnsafePointer<ScreenCell>, output: inout ByteWriter) {
        // Read in place: passed by value, all 72 bytes of the step were copied for every call.
        let step = planned.pointee
        if step.kind == .gap {
            if step.choice == GlyphPlanner.skip { skip(step.count, row: row, to: step.column &+ step.count, output: &output) }
        } else if step.choice != GlyphPlanner.unwritten {
            write(step.character, foreground: step.top, background: step.bottom, count: step.count,
                  turned: step.choice == GlyphPlanner.second, output: &output)
        }
    }

    /// The glyph `count` times: one glyph and a REP of the rest where the terminal has REP and
    /// that is shorter. Only after a one-byte glyph: tmux 3.3 ignores REP after a multibyte
    /// character such as `▀`, while its TERM (often xterm-256color) says `rep`.
    @inline(__always)
    private func appendRun(of glyph: UInt32, count: Int, output: inout ByteWriter) {
        let length = appendUTF8(glyph, output: &output)
        let rest = count &- 1
        guard rest > 0 else { return }
        if repeatedBytes(rest, glyphLength: length) < rest &* length {
            output.append(0x1B)
            output.append(0x5B)
            digits.append(rest, to: &output)
            output.append(0x62)  // b: REP
        } else {
            for _ in 0..<rest { appendUTF8(glyph, output: &output) }
        }
    }

    /// Bytes of `count` more copies of a glyph: a REP where allowed and shorter, else the glyphs.
    @inline(__always)
    private func repeatedBytes(_ count: Int, glyphLength: Int) -> Int {
        let plain = count &* glyphLength
        guard repeatsCharacters && glyphLength == 1 && count > 0 else { return plain }
        return min(plain, 3 &+ DecimalDigits.width(count))
    }

    /// One SGR for whichever of the two colours differs from those in effect (none if neither).
    @inline(__always)
    private func setColors(foreground: UInt32, background: UInt32, output: inout ByteWriter) {
        let needsForeground = foreground != currentForeground
        let needsBackground = background != currentBackground
        guard needsForeground || needsBackground else { return }
        // Entries are defined before the SGR that uses them (an OSC cannot sit inside a CSI).
        let foregroundEntry = needsForeground ? paletteEntry(for: foreground, output: &output) : -1
        let backgroundEntry = needsBackground ? paletteEntry(for: background, output: &output) : -1
        output.append(0x1B)
        output.append(0x5B)
        if needsForeground {
            appendColor(foreground, isForeground: true, entry: foregroundEntry, output: &output)
            currentForeground = foreground
        }
        if needsBackground {
            if needsForeground { output.append(0x3B) }
            appendColor(background, isForeground: false, entry: backgroundEntry, output: &output)
            currentBackground = background
        }
        output.append(0x6D)  // m
    }

    /// The redefined palette entry that shows a 24-bit colour code, defining a free one to it
    /// (`OSC 4 ; n ; rgb:rr/gg/bb ST`) where it has none; -1 when the colour goes out as it is
    /// (no entries in use, none free, or not a 24-bit code).
    @inline(__always)
    private func paletteEntry(for code: UInt32, output: inout ByteWriter) -> Int {
        guard paletteTable != nil, code >> 24 == 0 else { return -1 }
        let index = paletteTable!.index(of: code)
        if index >= 0 { return index }
        guard let taken = paletteTable!.take(code) else { return -1 }
        // The row's room was reserved for cells alone: the definition gets its own, and the
        // rest of the row its worst case again.
        output.reserve(24 &+ 64 &+ columns &* 96)
        output.append(contentsOf: TerminalEncoder.definitionStart)
        digits.append(taken, to: &output)
        output.append(contentsOf: TerminalEncoder.definitionColor)
        TerminalEncoder.appendHex(UInt8(truncatingIfNeeded: code >> 16), to: &output)
        output.append(0x2F)  // /
        TerminalEncoder.appendHex(UInt8(truncatingIfNeeded: code >> 8), to: &output)
        output.append(0x2F)
        TerminalEncoder.appendHex(UInt8(truncatingIfNeeded: code), to: &output)
        output.append(0x1B)
        output.append(0x5C)  // ST
        return taken
    }

    private static let definitionStart: [UInt8] = Array("\u{1B}]4;".utf8)
    private static let definitionColor: [UInt8] = Array(";rgb:".utf8)
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    @inline(__always)
    private static func appendHex(_ value: UInt8, to output: inout ByteWriter) {
        output.append(hexDigits[Int(value >> 4)])
        output.append(hexDigits[Int(value & 0xF)])
    }

    /// Between frames: takes back the entries no cell on screen shows, when few are free and at
    /// least half the screen was written since the last look (the look reads every cell; a
    /// picture of more colours than entries would otherwise pay it every frame for nothing). Not
    /// while any cell is unknown: after `invalidate()` the terminal may still show an entry there.
    private func releaseUnseenPaletteEntries() {
        guard let table = paletteTable, table.freeCount < 8, cellsWrittenSinceRelease >= screen.count / 2 else { return }
        var visible = [Bool](repeating: false, count: table.count)
        @inline(__always) func mark(_ code: UInt32) {
            let position = table.position(of: code)
            if position >= 0 { visible[position] = true }
        }
        for cell in screen {
            if cell.character == TerminalEncoder.unknown { return }
            mark(cell.background)
            if cell.character != Cell.space { mark(cell.foreground) }
        }
        // The colours in effect stay too: a cell written without an SGR shows them.
        mark(currentForeground)
        mark(currentBackground)
        cellsWrittenSinceRelease = 0
        paletteTable!.release(keeping: visible)
    }

    /// Bytes of `CSI n C` for a move of `gap` ≥ 1 columns.
    @inline(__always)
    private func forwardMoveCost(_ gap: Int) -> Int { gap == 1 ? 3 : 3 &+ DecimalDigits.width(gap) }

    /// Bytes of `CSI row;col H` (parameters left out where 1).
    @inline(__always)
    private func absoluteMoveCost(row: Int, column: Int) -> Int {
        if row == 0 && column == 0 { return 3 }
        return 3 &+ DecimalDigits.width(row &+ 1) &+ (column == 0 ? 0 : 1 &+ DecimalDigits.width(column &+ 1))
    }

    private func appendAbsoluteMove(row: Int, column: Int, output: inout ByteWriter) {
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

    static func utf8Length(_ value: UInt32) -> Int {
        switch value {
        case 0..<0x80: return 1
        case 0x80..<0x800: return 2
        case 0x800..<0x10000: return 3
        default: return 4
        }
    }

    /// A sideways move of part of a row: cells `start..<end` now show what was `distance` cells to
    /// the right (negative: to the left).
    private struct RowShift {
        var start: Int
        var end: Int
        var distance: Int
    }

    /// Each row's last shift distance (0: none), for `triesLastShiftFirst`.
    @exclusivity(unchecked) private var lastShifts: [Int8] = []

    /// One row's reduced cells, for `rowShift` (a raw buffer: this runs for every changed row of
    /// every frame, and an array property pays for exclusivity and uniqueness checks per cell).
    @exclusivity(unchecked) private var rowScratch = ScratchBuffer<ScreenCell>()
    private static let shiftDistances = [1, -1, 2, -2, 3, -3]

    /// What `rowShift` found in one row: the columns from its first to its last changed cell
    /// (empty: none changed), the shift to apply, and when it searched, each of those columns'
    /// cells reduced (`reduced[x]` for x in `changed`; valid until the next `rowShift`).
    private struct RowScan {
        var changed: Range<Int>
        var shift: RowShift?
        var reduced: UnsafePointer<ScreenCell>?
    }

    /// The shift of the changed part of `row` that leaves the most cells already right, when it
    /// saves more than the two cursor moves and DCH/ICH cost.
    private func rowShift(row: Int, cells: UnsafePointer<Cell>, last: UnsafePointer<Cell>,
                          screen: UnsafePointer<ScreenCell>) -> RowScan {
        let rowStart = row &* columns
        let rowCells = cells + rowStart, rowLast = last + rowStart, shown = screen + rowStart
        // The first and the last changed cell, each found from its own end; between them only
        // whether more than `minimumGain` changed matters, so the count stops there (a full
        // count of a row that changed everywhere cost a quarter of this function).
        var first = 0
        while first < columns && rowCells[first] == rowLast[first] { first &+= 1 }
        guard first < columns else { return RowScan(changed: 0..<0) }
        var lastChanged = columns &- 1
        while rowCells[lastChanged] == rowLast[lastChanged] { lastChanged &-= 1 }
        // A shift must leave `minimumGain` more cells right than none does. Unchanged cells are
        // right already and a shift cannot make every cell right, so it gains at most
        // `changed - 1`: rows with fewer changes are not searched.
        guard lastChanged - first >= 16 else { return RowScan(changed: first..<(lastChanged + 1)) }
        var changed = 2
        var x = first &+ 1
        while changed <= TerminalEncoder.minimumGain && x < lastChanged {
            if rowCells[x] != rowLast[x] { changed &+= 1 }
            x &+= 1
        }
        guard changed > TerminalEncoder.minimumGain else { return RowScan(changed: first..<(lastChanged + 1)) }
        let start = first, end = lastChanged + 1
        // `reduced[x]` is column x's cell as the terminal would show it (x in start..<end).
        let reduced = rowScratch.pointer(capacity: end)
        if colorMode == .trueColor {
            for x in start..<end { reduced[x] = TerminalEncoder.reduceTrueColor(rowCells[x]) }
        } else {
            for x in start..<end { reduced[x] = reduce(rowCells[x]) }
        }
        let hint = triesLastShiftFirst ? Int(lastShifts.withUnsafeBufferPointer { $0[row] }) : 0
        let best = TerminalEncoder.bestDistance(start: start, end: end, reduced: reduced, shown: shown, tryingFirst: hint,
                                                wholeScrollsOnly: shiftsOnlyWholeScrolls)
        lastShifts.withUnsafeMutableBufferPointer { $0[row] = Int8(truncatingIfNeeded: best) }
        return RowScan(changed: start..<end, shift: best == 0 ? nil : RowShift(start: start, end: end, distance: best),
                       reduced: UnsafePointer(reduced))
    }

    /// The distance (0: none) whose shift leaves the most cells of `start..<end` right, when it
    /// gains enough: a cell is right when `reduced[x]` equals `shown[x + distance]`. The first
    /// distance with the most matches wins. A distance is given up as soon as it can no longer
    /// beat both the best so far and that threshold (same answer as counting every cell, at a
    /// fraction of the comparisons on rows no shift explains). `tryingFirst` (not 0): that
    /// distance is counted first and taken if it gains enough, without trying the others.
    /// `wholeScrollsOnly`: a shift must also leave at most a quarter of the changed cells
    /// (`shiftsOnlyWholeScrolls`).
    @inline(__always)
    private static func bestDistance(start: Int, end: Int, reduced: UnsafePointer<ScreenCell>,
                                     shown: UnsafePointer<ScreenCell>, tryingFirst hint: Int, wholeScrollsOnly: Bool) -> Int {
        let span = end &- start
        if hint != 0 {
            // The hint is taken when it leaves at least `minimumGain` more cells right than no
            // shift does; no shift's count stops as soon as that is decided (about a fifth of the
            // way along a scrolling row), not at the row's end.
            let shifted = matches(distance: hint, start: start, end: end, reduced: reduced, shown: shown,
                                  needed: fewestShiftedMatches(unshifted: 0, span: span, wholeScrollsOnly: wholeScrollsOnly))
            let mostUnshifted = mostUnshiftedMatches(shifted: shifted, span: span, wholeScrollsOnly: wholeScrollsOnly)
            if mostUnshifted >= 0 && countSame(reduced + start, shown + start, count: span, isAtMost: mostUnshifted) {
                return hint
            }
        }
        let unshifted = countSame(reduced + start, shown + start, count: span)
        let enough = fewestShiftedMatches(unshifted: unshifted, span: span, wholeScrollsOnly: wholeScrollsOnly)
        var best = 0, bestMatches = unshifted
        for distance in TerminalEncoder.shiftDistances {
            let needed = max(bestMatches + 1, enough)
            let found = matches(distance: distance, start: start, end: end, reduced: reduced, shown: shown, needed: needed)
            if found >= needed {
                best = distance
                bestMatches = found
            }
        }
        return best
    }

    /// The fewest cells a shift must leave right to be taken where no shift leaves `unshifted`
    /// right: `minimumGain` more, and where only whole scrolls count, all but a quarter of the
    /// cells no shift leaves right (`span - shifted` ≤ (`span - unshifted`) / 4).
    @inline(__always)
    private static func fewestShiftedMatches(unshifted: Int, span: Int, wholeScrollsOnly: Bool) -> Int {
        let gaining = unshifted &+ TerminalEncoder.minimumGain
        return wholeScrollsOnly ? max(gaining, (unshifted &+ 3 &* span &+ 3) / 4) : gaining
    }

    /// The same rule the other way round, for a shift counted before no shift is: the most cells
    /// no shift may leave right for a shift that leaves `shifted` right to be taken (negative:
    /// none): `minimumGain` fewer, and where only whole scrolls count, few
    /// enough that the shift leaves at most a quarter of the changed cells (`span - shifted` ≤
    /// (`span - unshifted`) / 4).
    @inline(__always)
    private static func mostUnshiftedMatches(shifted: Int, span: Int, wholeScrollsOnly: Bool) -> Int {
        let gaining = shifted &- TerminalEncoder.minimumGain
        return wholeScrollsOnly ? min(gaining, 4 &* shifted &- 3 &* span) : gaining
    }

    /// How many cells of `start..<end` a shift by `distance` leaves right, counted until it is
    /// clear they cannot reach `needed` (then fewer than `needed`).
    @inline(__always)
    private static func matches(distance: Int, start: Int, end: Int, reduced: UnsafePointer<ScreenCell>,
                                shown: UnsafePointer<ScreenCell>, needed: Int) -> Int {
        let from = max(start, start - distance), to = min(end, end - distance)
        guard to - from >= needed else { return 0 }
        var matches = 0
        var x = from
        while x < to {
            let chunk = min(to &- x, 16)
            matches &+= countSame(reduced + x, shown + (x &+ distance), count: chunk)
            x &+= chunk
            if matches &+ (to &- x) < needed { break }
        }
        return matches
    }

    /// Whether at most `limit` of `count` cell pairs are equal, counted in chunks until that is
    /// decided either way.
    @inline(__always)
    private static func countSame(_ a: UnsafePointer<ScreenCell>, _ b: UnsafePointer<ScreenCell>, count: Int,
                                  isAtMost limit: Int) -> Bool {
        var same = 0
        var index = 0
        while index < count {
            let chunk = min(count &- index, 16)
            same &+= countSame(a + index, b + index, count: chunk)
            index &+= chunk
            if same > limit { return false }
            if same &+ (count &- index) <= limit { return true }
        }
        return true
    }

    /// How many of `count` cell pairs are equal, without a branch per cell: the shift search
    /// compares ~600 pairs a row, and which of them match follows the picture, not a pattern a
    /// branch predictor learns. Four pairs a turn (the loop's own work was a third of a pair's).
    @inline(__always)
    private static func countSame(_ a: UnsafePointer<ScreenCell>, _ b: UnsafePointer<ScreenCell>, count: Int) -> Int {
        @inline(__always) func same(_ index: Int) -> Int {
            let difference = (a[index].character ^ b[index].character) | (a[index].foreground ^ b[index].foreground)
                | (a[index].background ^ b[index].background)
            return difference == 0 ? 1 : 0
        }
        var total = 0
        var index = 0
        while index &+ 4 <= count {
            total &+= same(index) &+ same(index &+ 1) &+ same(index &+ 2) &+ same(index &+ 3)
            index &+= 4
        }
        while index < count {
            total &+= same(index)
            index &+= 1
        }
        return total
    }

    /// Each cell already right saves a glyph and often an SGR (≥ 4 bytes); a shift costs ~20
    /// bytes, so it must leave more than 6 more cells right than none does.
    private static let minimumGain = 7

    /// Shifts the row on the terminal with DCH and ICH (the part right of `end` ends where it
    /// was), and in the remembered screen; the cells it touched are compared afresh.
    private func apply(_ shift: RowShift, row: Int, last: UnsafeMutablePointer<Cell>, screen: UnsafeMutablePointer<ScreenCell>,
                       output: inout ByteWriter) {
        let count = abs(shift.distance)
        let deleteAt = shift.distance > 0 ? shift.start : shift.end - count
        let insertAt = shift.distance > 0 ? shift.end - count : shift.start
        moveCursor(toRow: row, column: deleteAt, screen: screen, output: &output)
        appendControl(count, final: 0x50, output: &output)  // P: DCH
        moveCursor(toRow: row, column: insertAt, screen: screen, output: &output)
        appendControl(count, final: 0x40, output: &output)  // @: ICH
        let rowStart = row &* columns
        let unknown = ScreenCell(character: TerminalEncoder.unknown, foreground: TerminalEncoder.unknown,
                                 background: TerminalEncoder.unknown)
        if shift.distance > 0 {
            for x in shift.start..<(shift.end - count) { screen[rowStart &+ x] = screen[rowStart &+ x &+ count] }
            for x in (shift.end - count)..<shift.end { screen[rowStart &+ x] = unknown }
        } else {
            for x in stride(from: shift.end - 1, through: shift.start + count, by: -1) {
                screen[rowStart &+ x] = screen[rowStart &+ x &- count]
            }
            for x in shift.start..<(shift.start + count) { screen[rowStart &+ x] = unknown }
        }
        for x in shift.start..<shift.end { last[rowStart &+ x] = TerminalEncoder.unknownCell }
    }

    /// `CSI n final` (n omitted when 1).
    private func appendControl(_ count: Int, final: UInt8, output: inout ByteWriter) {
        output.append(0x1B)
        output.append(0x5B)
        if count != 1 { digits.append(count, to: &output) }
        output.append(final)
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

    /// A cell as the terminal will show it in the current colour mode.
    @inline(__always)
    private func reduce(_ cell: Cell) -> ScreenCell {
        TerminalEncoder.reduce(cell) { code($0) }
    }

    /// `reduce` in 24-bit mode, where a colour's code is its value: no mode test per cell (the
    /// row-shift search reduces every changed cell of a row).
    @inline(__always)
    private static func reduceTrueColor(_ cell: Cell) -> ScreenCell {
        reduce(cell) { $0.rawValue }
    }

    /// `cell` with its colours turned into codes by `code`; a space, or a `▀` whose halves got the
    /// same code, becomes a space (whose foreground nobody sees).
    @inline(__always)
    private static func reduce(_ cell: Cell, code: (RGBColor) -> UInt32) -> ScreenCell {
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
    private func moveCursor(toRow row: Int, column: Int, screen: UnsafePointer<ScreenCell>, output: inout ByteWriter) {
        if cursorRow == row && cursorColumn == column { return }
        let absoluteCost = absoluteMoveCost(row: row, column: column)
        if cursorRow == row && cursorColumn >= 0 && column > cursorColumn {
            let gap = column - cursorColumn
            let forwardCost = forwardMoveCost(gap)
            if gap < min(forwardCost, absoluteCost) && skippedCellsAreCurrentSpaces(screen + row * columns, from: cursorColumn, to: column) {
                output.append(0x20, repeating: gap)
                cursorColumn = column
                return
            }
            if forwardCost <= absoluteCost {
                appendControl(gap, final: 0x43, output: &output)  // C: CUF
                cursorColumn = column
                return
            }
        }
        appendAbsoluteMove(row: row, column: column, output: &output)
    }

    private func skippedCellsAreCurrentSpaces(_ screenRow: UnsafePointer<ScreenCell>, from start: Int, to end: Int) -> Bool {
        for column in start..<end {
            let cell = screenRow[column]
            if cell.character != Cell.space || cell.background != currentBackground { return false }
        }
        return true
    }

    /// `▄` U+2584 and `█` U+2588: the other forms of a picture cell.
    static let lowerHalfBlock: UInt32 = 0x2584
    static let fullBlock: UInt32 = 0x2588

    /// Length of `appendColor`'s parameters for a colour code.
    @inline(__always)
    private func parameterLength(_ code: UInt32) -> Int {
        switch code >> 24 {
        case 0:
            // Taken as defined: a colour without an entry gets one when it is written (only when
            // none is free does it go out longer).
            if paletteTable != nil { return slotParameterLength }
            if usesExactPaletteIndices, let index = PaletteMatcher.exactIndex256(RGBColor(rawValue: code)) {
                return 5 + DecimalDigits.width(index)
            }
            return 9 + DecimalDigits.width(Int((code >> 16) & 0xFF)) + DecimalDigits.width(Int((code >> 8) & 0xFF))
                + DecimalDigits.width(Int(code & 0xFF))
        case 1: return 5 + DecimalDigits.width(Int(code & 0xFF))
        default: return (code & 0xFF) < 8 ? 2 : 3  // about: 9x is 2 digits, 10x is 3
        }
    }

    /// `parameterLength` of a 24-bit colour sent as a redefined entry (`38;5;n`).
    @exclusivity(unchecked) private var slotParameterLength = 7

    /// The xterm palette index that shows a 24-bit colour exactly, if one does and it was not
    /// redefined.
    @inline(__always)
    private func exactPaletteIndex(_ code: UInt32) -> Int? {
        guard usesExactPaletteIndices, let index = PaletteMatcher.exactIndex256(RGBColor(rawValue: code)) else { return nil }
        if let table = paletteTable, table.isSlot[index] { return nil }
        return index
    }

    /// SGR parameters for one colour code: `38;5;entry` for a redefined palette entry (`entry`
    /// ≥ 0), else `38;2;r;g;b`, `38;5;n`, or an ANSI 30–37/90–97 number (40–47/100–107 for
    /// backgrounds).
    @inline(__always)
    private func appendColor(_ code: UInt32, isForeground: Bool, entry: Int, output: inout ByteWriter) {
        if entry >= 0 {
            output.append(isForeground ? 0x33 : 0x34)
            output.append(0x38)
            output.append(0x3B)
            output.append(0x35)  // 5
            output.append(0x3B)
            digits.append(entry, to: &output)
            return
        }
        switch code >> 24 {
        case 0 where exactPaletteIndex(code) != nil:
            output.append(isForeground ? 0x33 : 0x34)
            output.append(0x38)
            output.append(0x3B)
            output.append(0x35)  // 5
            output.append(0x3B)
            digits.append(exactPaletteIndex(code)!, to: &output)
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

    /// Appends one scalar as UTF-8; returns its length.
    @inline(__always)
    @discardableResult
    private func appendUTF8(_ value: UInt32, output: inout ByteWriter) -> Int {
        switch value {
        case 0..<0x80:
            output.append(UInt8(value))
            return 1
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | value >> 6))
            output.append(UInt8(0x80 | value & 0x3F))
            return 2
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | value >> 12))
            output.append(UInt8(0x80 | (value >> 6) & 0x3F))
            output.append(UInt8(0x80 | value & 0x3F))
            return 3
        default:
            output.append(UInt8(0xF0 | value >> 18))
            output.append(UInt8(0x80 | (value >> 12) & 0x3F))
            output.append(UInt8(0x80 | (value >> 6) & 0x3F))
            output.append(UInt8(0x80 | value & 0x3F))
            return 4
        }
    }
}
