import TestSupport
import PhosphorKit
@testable import Render
import XCTest

/// The encoder's per-row plan (`GlyphPlanner`): each cell's form and each short gap's rewrite
/// are chosen for the whole row, not cell by cell.
final class TerminalEncoderRowPlanTests: XCTestCase {
    /// Red all over, red over blue twice, white "A" on blue.
    static func redBlueWhiteRow() -> CellCanvas {
        var canvas = CellCanvas(columns: 4, rows: 1)
        let red = RGBColor(rawValue: 0xFE0000), blue = RGBColor(rawValue: 0x0000FE), white = RGBColor(rawValue: 0xFEFEFE)
        canvas.put(Cell(top: red, bottom: red), column: 0, row: 0)
        canvas.put(Cell(top: red, bottom: blue), column: 1, row: 0)
        canvas.put(Cell(top: red, bottom: blue), column: 2, row: 0)
        canvas.put(Cell("A", foreground: white, background: blue), column: 3, row: 0)
        return canvas
    }

    /// Red all over, red over blue twice, white "A" on blue, from nothing in effect. Cell by cell
    /// (the encoder before the plan), cell 0 was a space on red, then red over blue a `▄` in blue
    /// and the A had to set both its colours: `CSI H`, `CSI 48;2;254;0;0m` + space,
    /// `CSI 38;2;0;0;254m▄▄`, `CSI 38;2;254;254;254;48;2;0;0;254m` + A = 3 + 16 + 21 + 33 = 73
    /// bytes. Planned for the row: cells 1–2 show red over blue and the A white on blue, so cell 0
    /// is a red `█` (red is then the foreground `▀` needs), red over blue `▀▀` sets only the blue
    /// background, and the A only its white: 3 + 15 + 3 + 15 + 6 + 19 + 1 = 62.
    func testTheRowIsPlannedAsAWholeWhereCellByCellCostsMore() throws {
        let canvas = TerminalEncoderRowPlanTests.redBlueWhiteRow()
        let encoder = TerminalEncoder(colorMode: .trueColor, synchronizedOutput: false)
        var bytes: [UInt8] = []
        XCTAssertEqual(encoder.encode(canvas, into: &bytes), 62)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "\u{1B}[H\u{1B}[38;2;254;0;0m█\u{1B}[48;2;0;0;254m▀▀\u{1B}[38;2;254;254;254mA")
        let terminal = VirtualTerminal(columns: 4, rows: 1)
        try terminal.feed(bytes)
        assertScreen(terminal, shows: canvas, mode: .trueColor, "planned row")
        XCTAssertEqual(terminal.waste, [])

        // Cell by cell (`plansRows` off, as on a link that takes every byte at once): the 73 bytes above.
        let greedy = TerminalEncoder(colorMode: .trueColor, synchronizedOutput: false)
        greedy.plansRows = false
        bytes.removeAll()
        XCTAssertEqual(greedy.encode(canvas, into: &bytes), 73)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self),
                       "\u{1B}[H\u{1B}[48;2;254;0;0m \u{1B}[38;2;0;0;254m▄▄\u{1B}[38;2;254;254;254;48;2;0;0;254mA")
        let greedyTerminal = VirtualTerminal(columns: 4, rows: 1)
        try greedyTerminal.feed(bytes)
        assertScreen(greedyTerminal, shows: canvas, mode: .trueColor, "cell by cell")

        // Where `█` leaves an outline (xterm) cell 0 must be a space on red; red over blue is
        // then `▀▀` with both colours set (`▄▄` would set only blue but leave the A both to set,
        // a byte more) and the A sets only white: 3 + 15 + 1 + 28 + 6 + 19 + 1 = 73.
        let xterm = TerminalEncoder(colorMode: .trueColor, synchronizedOutput: false)
        xterm.fullBlockFillsCell = false
        bytes.removeAll()
        XCTAssertEqual(xterm.encode(canvas, into: &bytes), 73)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self),
                       "\u{1B}[H\u{1B}[48;2;254;0;0m \u{1B}[38;2;254;0;0;48;2;0;0;254m▀▀\u{1B}[38;2;254;254;254mA")
        let xtermTerminal = VirtualTerminal(columns: 4, rows: 1)
        try xtermTerminal.feed(bytes)
        assertScreen(xtermTerminal, shows: canvas, mode: .trueColor, "planned row, xterm")
        XCTAssertFalse(xtermTerminal.cells.contains { $0.character == 0x2588 })
    }

    /// Text "ABBCDDDDDE" in white on grey; then A, C and E change. The gap "BB" is written again
    /// (2 bytes, colours in effect) rather than skipped by `CSI 2C` (4 bytes); the gap "DDDDD"
    /// costs 5 bytes written again and 4 as `CSI 5C`, so it is skipped.
    func testAShortGapIsWrittenAgainWhereThatIsCheaperThanTheCursorMove() throws {
        let white = RGBColor(rawValue: 0xFEFEFE), grey = RGBColor(rawValue: 0x404040)
        var canvas = CellCanvas(columns: 10, rows: 1)
        canvas.put(text: "ABBCDDDDDE", column: 0, row: 0, foreground: white, background: grey)
        let encoder = TerminalEncoder(colorMode: .trueColor, synchronizedOutput: false)
        let terminal = VirtualTerminal(columns: 10, rows: 1)
        try encode(canvas, with: encoder, on: terminal)
        canvas.put(text: "a", column: 0, row: 0, foreground: white, background: grey)
        canvas.put(text: "c", column: 3, row: 0, foreground: white, background: grey)
        canvas.put(text: "e", column: 9, row: 0, foreground: white, background: grey)
        XCTAssertEqual(try encode(canvas, with: encoder, on: terminal), "\u{1B}[HaBBc\u{1B}[5Ce")
        assertScreen(terminal, shows: canvas, mode: .trueColor, "gap rewritten")
        XCTAssertEqual(terminal.waste, [])
    }

    /// A gap whose cells need other colours than those in effect is skipped: writing it again
    /// would cost SGRs on top of its glyphs.
    func testAGapNeedingOtherColoursIsSkipped() throws {
        let white = RGBColor(rawValue: 0xFEFEFE), grey = RGBColor(rawValue: 0x404040), green = RGBColor(rawValue: 0x00A000)
        var canvas = CellCanvas(columns: 3, rows: 1)
        canvas.put(text: "A", column: 0, row: 0, foreground: white, background: grey)
        canvas.put(text: "B", column: 1, row: 0, foreground: green, background: grey)
        canvas.put(text: "C", column: 2, row: 0, foreground: white, background: grey)
        let encoder = TerminalEncoder(colorMode: .trueColor, synchronizedOutput: false)
        var bytes: [UInt8] = []
        encoder.encode(canvas, into: &bytes)
        canvas.put(text: "a", column: 0, row: 0, foreground: white, background: grey)
        canvas.put(text: "c", column: 2, row: 0, foreground: white, background: grey)
        bytes.removeAll()
        encoder.forgetTerminalState()
        encoder.encode(canvas, into: &bytes)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "\u{1B}[H\u{1B}[38;2;254;254;254;48;2;64;64;64ma\u{1B}[Cc")
    }

    /// A scrolled, downscaled picture changes every other cell. A gap of one or two unchanged
    /// `▀` cells costs at least as much written again (3 bytes a cell) as the cursor move (3 or 4
    /// bytes) that skips it, even in the colours in effect, so it is skipped: here the unchanged
    /// cells 1, 3 and 4 show the colours the changed cells leave in effect, and are stepped over.
    func testAGapOfPictureCellsIsSkippedEvenInTheColoursInEffect() throws {
        let red = RGBColor(rawValue: 0xFE0000), blue = RGBColor(rawValue: 0x0000FE), green = RGBColor(rawValue: 0x00FE00)
        var canvas = CellCanvas(columns: 6, rows: 1)
        for column in 0..<6 { canvas.put(Cell(top: red, bottom: [1, 3, 4].contains(column) ? green : blue), column: column, row: 0) }
        let encoder = TerminalEncoder(colorMode: .trueColor, synchronizedOutput: false)
        let terminal = VirtualTerminal(columns: 6, rows: 1)
        try encode(canvas, with: encoder, on: terminal)
        for column in [0, 2, 5] { canvas.put(Cell(top: red, bottom: green), column: column, row: 0) }
        let planned = encoder.stepsPlanned
        let text = try encode(canvas, with: encoder, on: terminal)
        // Three cells and two skipped gaps: no step writes a gap's cell again.
        XCTAssertEqual(encoder.stepsPlanned - planned, 5)
        // Red over blue was last in effect: only the green background is set.
        XCTAssertEqual(text, "\u{1B}[H\u{1B}[48;2;0;254;0m▀\u{1B}[C▀\u{1B}[2C▀")
        assertScreen(terminal, shows: canvas, mode: .trueColor, "gaps skipped")
        XCTAssertEqual(terminal.waste, [])
    }

    /// Cell by cell (`plansRows` off): each run is written as it comes, and a gap of unchanged
    /// cells is written again only where that is shorter than the move: one space in the
    /// background in effect (1 byte against `CSI C`'s 3) is; four (4 bytes without REP) are
    /// skipped by `CSI 4 C`, no longer.
    func testCellByCellAGapIsWrittenAgainOnlyWhereThatIsShorterThanTheMove() throws {
        let red = RGBColor(rawValue: 0xFE0000), blue = RGBColor(rawValue: 0x0000FE), green = RGBColor(rawValue: 0x00FE00)
        var canvas = CellCanvas(columns: 8, rows: 1)
        for column in 0..<8 { canvas.put(Cell(" ", foreground: red, background: blue), column: column, row: 0) }
        for column in [0, 2, 7] { canvas.put(Cell(top: red, bottom: blue), column: column, row: 0) }
        let encoder = TerminalEncoder(colorMode: .trueColor, synchronizedOutput: false)
        encoder.plansRows = false
        let terminal = VirtualTerminal(columns: 8, rows: 1)
        try encode(canvas, with: encoder, on: terminal)
        // Red over blue (cell 7) is in effect: green needs only its foreground.
        for column in [0, 2, 7] { canvas.put(Cell(top: green, bottom: blue), column: column, row: 0) }
        XCTAssertEqual(try encode(canvas, with: encoder, on: terminal), "\u{1B}[H\u{1B}[38;2;0;254;0m▀ ▀\u{1B}[4C▀")
        assertScreen(terminal, shows: canvas, mode: .trueColor, "cell by cell")
        XCTAssertEqual(terminal.waste, [])
    }

    /// Thousands of random rows (picture cells of a few colours, one-colour runs, text), each
    /// drawn, changed in random places and changed again, under every colour mode, with and
    /// without xterm's short `█`, REP, row shifts and the cheaper forms: the decoded screen is
    /// always the canvas, no `█` appears where it leaves an outline, and a first frame never
    /// costs more than with `▀` and spaces only.
    /// Encodes `canvas` and feeds the bytes to `terminal`; returns them as text.
    @discardableResult
    private func encode(_ canvas: CellCanvas, with encoder: TerminalEncoder, on terminal: VirtualTerminal) throws -> String {
        var bytes: [UInt8] = []
        encoder.encode(canvas, into: &bytes)
        try terminal.feed(bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    func testRandomRowsDecodeToTheCanvasUnderEverySetting() throws {
        var generator = SeededGenerator(seed: 2026)
        let characters: [Unicode.Scalar] = ["A", "é", "z", "│", "▀", "#"]
        var plannedTotal = 0, greedyTotal = 0
        for mode in ColorMode.allCases {
            for fills in [true, false] {
                for repeats in [true, false] {
                    for trial in 0..<250 {
                        let columns = Int.random(in: 1...40, using: &generator)
                        let palette = (0..<Int.random(in: 1...5, using: &generator)).map { _ in
                            RGBColor(rawValue: UInt32.random(in: 0...0xFF_FFFF, using: &generator))
                        }
                        func randomCell() -> Cell {
                            let top = palette.randomElement(using: &generator)!, bottom = palette.randomElement(using: &generator)!
                            switch Int.random(in: 0..<10, using: &generator) {
                            case 0: return Cell(characters.randomElement(using: &generator)!, foreground: top, background: bottom)
                            case 1, 2: return Cell(top: bottom, bottom: bottom)
                            default: return Cell(top: top, bottom: bottom)
                            }
                        }
                        var canvas = CellCanvas(columns: columns, rows: 1)
                        for column in 0..<columns { canvas.put(randomCell(), column: column, row: 0) }
                        let shifts = Bool.random(using: &generator), cheaper = Bool.random(using: &generator)
                        let encoder = TerminalEncoder(colorMode: mode, synchronizedOutput: false)
                        encoder.fullBlockFillsCell = fills
                        encoder.repeatsCharacters = repeats
                        encoder.shiftsRows = shifts
                        encoder.choosesCheaperGlyphs = cheaper
                        // The same rows cell by cell: also right, and never fewer bytes than planned.
                        let greedy = TerminalEncoder(colorMode: mode, synchronizedOutput: false)
                        greedy.fullBlockFillsCell = fills
                        greedy.repeatsCharacters = repeats
                        greedy.shiftsRows = shifts
                        greedy.choosesCheaperGlyphs = cheaper
                        greedy.plansRows = false
                        let greedyTerminal = VirtualTerminal(columns: columns, rows: 1)
                        let terminal = VirtualTerminal(columns: columns, rows: 1)
                        var bytes: [UInt8] = [], greedyBytes: [UInt8] = []
                        for frame in 0..<3 {
                            let context = "\(mode) fills \(fills) rep \(repeats) shifts \(shifts) cheaper \(cheaper) trial \(trial) frame \(frame)"
                            bytes.removeAll(keepingCapacity: true)
                            encoder.encode(canvas, into: &bytes)
                            try terminal.feed(bytes)
                            assertScreen(terminal, shows: canvas, mode: mode, context)
                            XCTAssertEqual(terminal.waste, [], context)
                            if !fills { XCTAssertFalse(terminal.cells.contains { $0.character == 0x2588 }, context) }
                            greedyBytes.removeAll(keepingCapacity: true)
                            greedy.encode(canvas, into: &greedyBytes)
                            try greedyTerminal.feed(greedyBytes)
                            assertScreen(greedyTerminal, shows: canvas, mode: mode, "cell by cell: " + context)
                            XCTAssertEqual(greedyTerminal.waste, [], context)
                            // 16 colours: the plan takes a bright colour's SGR as 3 bytes either way
                            // (`parameterLength`), but `9x` is 2, so there it may miss by a byte or two.
                            if frame == 0 && mode != .palette16 {
                                XCTAssertLessThanOrEqual(bytes.count, greedyBytes.count, context)
                                plannedTotal += bytes.count
                                greedyTotal += greedyBytes.count
                            }
                            if frame == 0 && cheaper {
                                let plain = TerminalEncoder(colorMode: mode, synchronizedOutput: false)
                                plain.fullBlockFillsCell = fills
                                plain.repeatsCharacters = repeats
                                plain.choosesCheaperGlyphs = false
                                var plainBytes: [UInt8] = []
                                XCTAssertLessThanOrEqual(bytes.count, plain.encode(canvas, into: &plainBytes), context)
                            }
                            // Change some cells (leaving gaps of unchanged ones); sometimes the
                            // colours in effect are unknown to the encoder (another writer).
                            let changes = Int.random(in: 0...columns, using: &generator)
                            for _ in 0..<changes { canvas.put(randomCell(), column: Int.random(in: 0..<columns, using: &generator), row: 0) }
                            if Bool.random(using: &generator) {
                                encoder.forgetTerminalState()
                                try terminal.feed(Array("\u{1B}[0m".utf8))
                                greedy.forgetTerminalState()
                                try greedyTerminal.feed(Array("\u{1B}[0m".utf8))
                            }
                        }
                    }
                }
            }
        }
        XCTAssertLessThan(Double(plannedTotal), Double(greedyTotal) * 0.99, "planning saves bytes: \(plannedTotal) against \(greedyTotal)")
    }
}
