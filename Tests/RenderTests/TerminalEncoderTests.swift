import TestSupport
import PhosphorKit
import Render
import XCTest

final class TerminalEncoderTests: XCTestCase {
    /// A canvas with a picture (few colours, so equal halves and repeated colours happen), bars, and text.
    private func randomCanvas(columns: Int, rows: Int, using generator: inout SeededGenerator) throws -> CellCanvas {
        var canvas = CellCanvas(columns: columns, rows: rows, background: RGBColor(rawValue: UInt32.random(in: 0...0xFF_FFFF, using: &generator)))
        let frame = TestFrame.random(width: Int.random(in: 1...48, using: &generator), height: Int.random(in: 1...48, using: &generator),
                                     paletteSize: Int.random(in: 1...6, using: &generator), using: &generator)
        let target = CellRect(x: Int.random(in: -2..<columns, using: &generator), y: Int.random(in: -2..<rows, using: &generator),
                              columns: Int.random(in: 1...columns + 2, using: &generator), rows: Int.random(in: 1...rows + 2, using: &generator))
        try frame.withSource { source in
            Downsampler().draw(source, from: source.bounds, into: target, on: &canvas,
                               options: ScalingOptions(integerScaling: Bool.random(using: &generator)))
        }
        sprinkleText(on: &canvas, count: Int.random(in: 0...5, using: &generator), using: &generator)
        return canvas
    }

    private func sprinkleText(on canvas: inout CellCanvas, count: Int, using generator: inout SeededGenerator) {
        let characters: [Unicode.Scalar] = ["A", "z", " ", "│", "─", "é", "▀", "#"]
        for _ in 0..<count {
            let color = RGBColor(rawValue: UInt32.random(in: 0...0xFF_FFFF, using: &generator))
            let cell = Cell(characters.randomElement(using: &generator)!, foreground: color, background: Bool.random(using: &generator) ? color : .black)
            canvas.put(cell, column: Int.random(in: 0..<canvas.columns, using: &generator), row: Int.random(in: 0..<canvas.rows, using: &generator))
        }
    }

    /// Random edits: single pixels, filled rectangles, text.
    private func mutate(_ canvas: inout CellCanvas, using generator: inout SeededGenerator) {
        let palette = (0..<4).map { _ in RGBColor(rawValue: UInt32.random(in: 0...0xFF_FFFF, using: &generator)) }
        for _ in 0..<Int.random(in: 0...6, using: &generator) {
            switch Int.random(in: 0..<3, using: &generator) {
            case 0:
                canvas.setPixel(x: Int.random(in: 0..<canvas.columns, using: &generator), y: Int.random(in: 0..<canvas.rows * 2, using: &generator),
                                to: palette.randomElement(using: &generator)!)
            case 1:
                let rect = CellRect(x: Int.random(in: 0..<canvas.columns, using: &generator), y: Int.random(in: 0..<canvas.rows, using: &generator),
                                    columns: Int.random(in: 1...6, using: &generator), rows: Int.random(in: 1...3, using: &generator))
                canvas.fill(rect, with: palette.randomElement(using: &generator)!)
            default:
                sprinkleText(on: &canvas, count: 1, using: &generator)
            }
        }
    }

    func testRandomFramesAndChangesReproduceTheCanvasInEveryMode() throws {
        for mode in ColorMode.allCases {
            for seed in 1...40 {
                var generator = SeededGenerator(seed: UInt64(seed) * 7919 + UInt64(mode.rawValue.count))
                let columns = Int.random(in: 1...30, using: &generator), rows = Int.random(in: 1...12, using: &generator)
                let synchronized = Bool.random(using: &generator)
                let encoder = TerminalEncoder(colorMode: mode, synchronizedOutput: synchronized)
                encoder.repeatsCharacters = Bool.random(using: &generator)
                encoder.shiftsRows = Bool.random(using: &generator)
                encoder.fullBlockFillsCell = Bool.random(using: &generator)
                encoder.plansRows = Bool.random(using: &generator)
                encoder.triesLastShiftFirst = Bool.random(using: &generator)
                let terminal = VirtualTerminal(columns: columns, rows: rows)
                var canvas = try randomCanvas(columns: columns, rows: rows, using: &generator)
                var bytes: [UInt8] = []
                for step in 0..<12 {
                    let context = "\(mode) seed \(seed) step \(step)"
                    bytes.removeAll(keepingCapacity: true)
                    let count = encoder.encode(canvas, into: &bytes)
                    XCTAssertEqual(count, bytes.count)
                    try terminal.feed(bytes)
                    assertScreen(terminal, shows: canvas, mode: mode, context)
                    XCTAssertEqual(terminal.waste, [], context)
                    if !encoder.fullBlockFillsCell {
                        // xterm: no `█` whose background could show around it.
                        XCTAssertFalse(terminal.cells.contains { $0.character == 0x2588 }, context)
                    }
                    if synchronized && !bytes.isEmpty {
                        XCTAssertEqual(Array(bytes.prefix(8)), Array("\u{1B}[?2026h".utf8), context)
                        XCTAssertEqual(Array(bytes.suffix(8)), Array("\u{1B}[?2026l".utf8), context)
                    }
                    if !synchronized { XCTAssertEqual(terminal.synchronizedBlocks, 0, context) }
                    // The same canvas again: nothing to say.
                    bytes.removeAll(keepingCapacity: true)
                    XCTAssertEqual(encoder.encode(canvas, into: &bytes), 0, context)
                    if step == 6 {
                        // Someone else drew: the next frame repaints every cell over garbage.
                        encoder.invalidate()
                        try terminal.feed(Array("\u{1B}[1;1H\u{1B}[0mXX".utf8))
                        canvas = try randomCanvas(columns: columns, rows: rows, using: &generator)
                    } else {
                        mutate(&canvas, using: &generator)
                    }
                }
            }
        }
    }

    func testFullRedrawWritesEveryCellAndIdenticalFrameWritesNothing() throws {
        var generator = SeededGenerator(seed: 5)
        let canvas = try randomCanvas(columns: 20, rows: 8, using: &generator)
        let encoder = TerminalEncoder(colorMode: .trueColor, synchronizedOutput: true)
        let terminal = VirtualTerminal(columns: 20, rows: 8)
        var bytes: [UInt8] = []
        encoder.encode(canvas, into: &bytes)
        try terminal.feed(bytes)
        XCTAssertEqual(terminal.glyphsWritten, 20 * 8)
        bytes.removeAll()
        XCTAssertEqual(encoder.encode(canvas, into: &bytes), 0)
        XCTAssertEqual(bytes, [])
        encoder.invalidate()
        encoder.encode(canvas, into: &bytes)
        try terminal.feed(bytes)
        XCTAssertEqual(terminal.glyphsWritten, 20 * 8)
        assertScreen(terminal, shows: canvas, mode: .trueColor, "after invalidate")
    }

    func testOnePixelChangeWritesExactlyOneCell() throws {
        var generator = SeededGenerator(seed: 9)
        let frame = TestFrame.random(width: 32, height: 20, paletteSize: 200, using: &generator)
        let renderer = FrameRenderer(colorMode: .trueColor, synchronizedOutput: false)
        let terminal = VirtualTerminal(columns: 40, rows: 12)
        var bytes: [UInt8] = []
        func show(_ frame: TestFrame) throws {
            renderer.beginFrame(columns: 40, rows: 12)
            try frame.withSource { renderer.draw($0, from: $0.bounds, into: CellRect(x: 0, y: 0, columns: 40, rows: 12), options: ScalingOptions(integerScaling: true)) }
            bytes.removeAll(keepingCapacity: true)
            renderer.encodeChanges(into: &bytes)
            try terminal.feed(bytes)
        }
        try show(frame)
        XCTAssertEqual(terminal.glyphsWritten, 40 * 12)
        var changed = frame
        changed.setRaw(x: 17, y: 9, 0xFEDCBA)
        try show(changed)
        XCTAssertEqual(terminal.glyphsWritten, 1)
        // 32x20 centred in 40x24 pixels: pixel (17, 9) lands at x 21, y 11 -> cell (21, 5), bottom half.
        XCTAssertEqual(terminal.glyph(column: 21, row: 5).background, .rgb(0xFEDCBA))
        assertScreen(terminal, shows: renderer.canvas, mode: .trueColor, "one pixel")
        try show(changed)
        XCTAssertEqual(bytes, [])
    }

    func testEncodingDetails() throws {
        let encoder = TerminalEncoder(colorMode: .trueColor, synchronizedOutput: false)
        var canvas = TerminalEncoderRowPlanTests.redBlueWhiteRow()
        let blue = RGBColor(rawValue: 0x0000FE), white = RGBColor(rawValue: 0xFEFEFE)
        var bytes: [UInt8] = []
        encoder.encode(canvas, into: &bytes)
        // Home; the one-colour cell is a `█` in red, so red over blue `▀` sets only the blue
        // background; the identical third cell nothing; the text cell keeps that blue and sets
        // only its foreground.
        let expected = "\u{1B}[H\u{1B}[38;2;254;0;0m█\u{1B}[48;2;0;0;254m▀▀\u{1B}[38;2;254;254;254mA"
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), expected)

        // Changing cells 0 and 3 (not 1, 2): a relative move skips the unchanged cells.
        canvas.put(Cell(top: blue, bottom: blue), column: 0, row: 0)
        canvas.put(Cell("B", foreground: white, background: blue), column: 3, row: 0)
        bytes.removeAll()
        encoder.encode(canvas, into: &bytes)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "\u{1B}[H \u{1B}[2CB")
    }

    /// Encodes `canvas` from a blank screen and checks the decoded screen equals the cell grid.
    private func encodeChecked(_ canvas: CellCanvas, repeats: Bool = false, exactIndices: Bool = true, fullBlockFillsCell: Bool = true,
                               file: StaticString = #filePath, line: UInt = #line) throws -> (text: String, terminal: VirtualTerminal) {
        let encoder = TerminalEncoder(colorMode: .trueColor, synchronizedOutput: false)
        encoder.repeatsCharacters = repeats
        encoder.fullBlockFillsCell = fullBlockFillsCell
        encoder.usesExactPaletteIndices = exactIndices
        var bytes: [UInt8] = []
        encoder.encode(canvas, into: &bytes)
        let terminal = VirtualTerminal(columns: canvas.columns, rows: canvas.rows)
        try terminal.feed(bytes)
        assertScreen(terminal, shows: canvas, mode: .trueColor, "encoded", file: file, line: line)
        XCTAssertEqual(terminal.waste, [], file: file, line: line)
        return (String(decoding: bytes, as: UTF8.self), terminal)
    }

    func testOnlyTheSGRHalfThatDiffersIsSent() throws {
        var canvas = CellCanvas(columns: 3, rows: 1)
        let a = RGBColor(rawValue: 0x102030), b = RGBColor(rawValue: 0x405060), c = RGBColor(rawValue: 0x708090)
        canvas.put(Cell(top: a, bottom: b), column: 0, row: 0)
        canvas.put(Cell(top: c, bottom: b), column: 1, row: 0)  // only the foreground differs
        canvas.put(Cell(top: c, bottom: a), column: 2, row: 0)  // only the background differs
        let result = try encodeChecked(canvas)
        XCTAssertEqual(result.text, "\u{1B}[H\u{1B}[38;2;16;32;48;48;2;64;80;96m▀\u{1B}[38;2;112;128;144m▀\u{1B}[48;2;16;32;48m▀")
    }

    func testLowerHalfBlockWhenTheColoursInEffectAreTheOtherWayRound() throws {
        var canvas = CellCanvas(columns: 3, rows: 1)
        let a = RGBColor(rawValue: 0x102030), b = RGBColor(rawValue: 0x405060)
        // The text fixes the colours in effect: a on b.
        canvas.put(Cell("A", foreground: a, background: b), column: 0, row: 0)
        canvas.put(Cell(top: a, bottom: b), column: 1, row: 0)
        canvas.put(Cell(top: b, bottom: a), column: 2, row: 0)
        let result = try encodeChecked(canvas)
        XCTAssertEqual(result.text, "\u{1B}[H\u{1B}[38;2;16;32;48;48;2;64;80;96mA▀▄")
        XCTAssertEqual(result.terminal.glyph(column: 2, row: 0).character, 0x2584)
    }

    func testOneColourCellIsASpaceOrAFullBlockInTheForeground() throws {
        var canvas = CellCanvas(columns: 3, rows: 1)
        let a = RGBColor(rawValue: 0x102030), b = RGBColor(rawValue: 0x405060)
        // The text leaves b on a in effect: cell 1 (all a) is a bare space in the background,
        // cell 2 (all b) a `█` in the foreground, neither with an SGR.
        canvas.put(Cell("A", foreground: b, background: a), column: 0, row: 0)
        canvas.put(Cell(top: a, bottom: a), column: 1, row: 0)
        canvas.put(Cell(top: b, bottom: b), column: 2, row: 0)
        let result = try encodeChecked(canvas)
        XCTAssertEqual(result.text, "\u{1B}[H\u{1B}[38;2;64;80;96;48;2;16;32;48mA █")
    }

    /// `▀` or `▄` is chosen for what follows too: with the colours in effect unknown both cost the
    /// same, and the one that leaves the next (one-colour) cell's colour as the background wins,
    /// so that cell is a bare space rather than an SGR and a space (where `█` would leave an outline).
    func testTheHalfBlockIsTurnedSoTheNextOneColourCellIsABareSpace() throws {
        var canvas = CellCanvas(columns: 2, rows: 1)
        let sky = RGBColor(rawValue: 0x8AB0D8), pink = RGBColor(rawValue: 0xD8608A)
        canvas.put(Cell(top: sky, bottom: pink), column: 0, row: 0)
        canvas.put(Cell(top: sky, bottom: sky), column: 1, row: 0)
        XCTAssertEqual(try encodeChecked(canvas, fullBlockFillsCell: false).text, "\u{1B}[H\u{1B}[38;2;216;96;138;48;2;138;176;216m▄ ")
    }

    /// xterm with an Xft font draws `█` a pixel short of the cell's top, bottom and right edges,
    /// and the background in effect shows there as an outline. Where `fullBlockFillsCell` is off, a
    /// picture cell that turns one colour is a space in that colour (its own background); elsewhere
    /// it stays the 3-byte `█` in the foreground in effect. Both decode to the same cell grid.
    func testACellTurningOneColourIsASpaceWhereTheFullBlockLeavesAnOutline() throws {
        let sky = RGBColor(rawValue: 0x8AB0D8), pink = RGBColor(rawValue: 0xD8608A)
        var before = CellCanvas(columns: 3, rows: 1)
        before.put(Cell(top: sky, bottom: pink), column: 0, row: 0)
        before.put(Cell(top: pink, bottom: sky), column: 1, row: 0)
        before.put(Cell(top: sky, bottom: pink), column: 2, row: 0)
        var after = before
        after.put(Cell(top: sky, bottom: sky), column: 1, row: 0)  // the block goes, the sky stays
        for fills in [true, false] {
            let encoder = TerminalEncoder(colorMode: .trueColor, synchronizedOutput: false)
            encoder.fullBlockFillsCell = fills
            let terminal = VirtualTerminal(columns: 3, rows: 1)
            var bytes: [UInt8] = []
            encoder.encode(before, into: &bytes)
            try terminal.feed(bytes)
            bytes.removeAll()
            encoder.encode(after, into: &bytes)
            try terminal.feed(bytes)
            assertScreen(terminal, shows: after, mode: .trueColor, "fullBlockFillsCell \(fills)")
            XCTAssertEqual(terminal.waste, [])
            // The colours in effect are sky on pink (the last cell of the first frame).
            let text = String(decoding: bytes, as: UTF8.self)
            let glyph = terminal.glyph(column: 1, row: 0)
            if fills {
                XCTAssertEqual(text, "\u{1B}[1;2H█")
            } else {
                XCTAssertEqual(text, "\u{1B}[1;2H\u{1B}[48;2;138;176;216m ")
                XCTAssertEqual(glyph.character, Cell.space)
                XCTAssertEqual(glyph.background, .rgb(sky.rawValue), "no pink left around the cell")
            }
        }
    }

    func testExactPaletteColoursAreSentByIndexIn24BitMode() throws {
        var canvas = CellCanvas(columns: 3, rows: 1)
        canvas.put(Cell(top: RGBColor(rawValue: 0x5F87AF), bottom: RGBColor(rawValue: 0x080808)), column: 0, row: 0)
        canvas.put(Cell(top: RGBColor(rawValue: 0x5F87AE), bottom: RGBColor(rawValue: 0xEEEEEE)), column: 1, row: 0)
        // Red is palette entry 9 as well as 196: only 16–255 are used (users recolour 0–15).
        canvas.put(Cell(top: RGBColor(rawValue: 0xFF0000), bottom: RGBColor(rawValue: 0xEEEEEE)), column: 2, row: 0)
        let result = try encodeChecked(canvas)
        XCTAssertEqual(result.text, "\u{1B}[H\u{1B}[38;5;67;48;5;232m▀\u{1B}[38;2;95;135;174;48;5;255m▀\u{1B}[38;5;196m▀")
        XCTAssertEqual(try encodeChecked(canvas, exactIndices: false).text,
                       "\u{1B}[H\u{1B}[38;2;95;135;175;48;2;8;8;8m▀\u{1B}[38;2;95;135;174;48;2;238;238;238m▀\u{1B}[38;2;255;0;0m▀")
    }

    func testRunsUseREPOnlyWhereTheTerminalHasIt() throws {
        var canvas = CellCanvas(columns: 30, rows: 2, background: RGBColor(rawValue: 0x123456))
        let a = RGBColor(rawValue: 0x102030), b = RGBColor(rawValue: 0x405060)
        for column in 5..<25 { canvas.put(Cell(top: a, bottom: b), column: column, row: 1) }
        let plain = try encodeChecked(canvas)
        XCTAssertEqual(plain.terminal.repeats, 0)
        let repeated = try encodeChecked(canvas, repeats: true)
        XCTAssertGreaterThan(repeated.terminal.repeats, 0)
        // Row 0: a space and 29 more (a REP of 29). The half blocks of row 1 are written out: tmux
        // 3.3 ignores REP after a multibyte character.
        XCTAssertTrue(repeated.text.contains(" \u{1B}[29b"), repeated.text)
        XCTAssertTrue(repeated.text.contains(String(repeating: "▀", count: 20)), repeated.text)
        XCTAssertLessThan(repeated.text.utf8.count, plain.text.utf8.count, repeated.text.debugDescription)
        // A run of two spaces is cheaper as it is than as a REP.
        var short = CellCanvas(columns: 3, rows: 1, background: a)
        short.put(Cell(top: b, bottom: a), column: 0, row: 0)
        XCTAssertFalse(try encodeChecked(short, repeats: true).text.contains("b"))
    }

    /// Trying each row's last shift first: while the scroll goes on it is taken (the same bytes
    /// as trying every distance), and when the game turns round the others are tried again.
    func testTheLastShiftIsTriedFirstAndTheOthersWhenItNoLongerFits() throws {
        var generator = SeededGenerator(seed: 13)
        let palette = (0..<12).map { _ in RGBColor(rawValue: UInt32.random(in: 0...0xFF_FFFF, using: &generator)) }
        let world = (0..<(200 * 16)).map { _ in palette.randomElement(using: &generator)! }
        func frame(scroll: Int) -> CellCanvas {
            var canvas = CellCanvas(columns: 80, rows: 8, background: RGBColor(rawValue: 0x202020))
            for y in 0..<16 {
                for x in 0..<60 { canvas.setPixel(x: 5 + x, y: y, to: world[y * 200 + (x + scroll + 200) % 200]) }
            }
            return canvas
        }
        let hinted = TerminalEncoder(colorMode: .trueColor, synchronizedOutput: false)
        hinted.shiftsRows = true
        hinted.triesLastShiftFirst = true
        let exhaustive = TerminalEncoder(colorMode: .trueColor, synchronizedOutput: false)
        exhaustive.shiftsRows = true
        let terminal = VirtualTerminal(columns: 80, rows: 8)
        var bytes: [UInt8] = [], reference: [UInt8] = []
        for (step, scroll) in [10, 11, 12, 13, 11, 9, 7].enumerated() {
            bytes.removeAll()
            reference.removeAll()
            hinted.encode(frame(scroll: scroll), into: &bytes)
            exhaustive.encode(frame(scroll: scroll), into: &reference)
            try terminal.feed(bytes)
            assertScreen(terminal, shows: frame(scroll: scroll), mode: .trueColor, "step \(step)")
            XCTAssertEqual(bytes, reference, "step \(step): the same shifts either way")
            if step == 4 {
                // Turned round by two: the last shift (1) no longer fits, and two to the right is found.
                XCTAssertTrue(String(decoding: bytes, as: UTF8.self).contains("\u{1B}[2@"), "step 4")
            }
        }
    }

    /// Encodes `first`, then `second`, through a 24-bit encoder that shifts rows (only whole
    /// scrolls where `wholeScrollsOnly`), into a fresh `VirtualTerminal`; checks that it shows
    /// `second` and returns the second frame's bytes and the first's.
    private func encodeScroll(from first: CellCanvas, to second: CellCanvas, wholeScrollsOnly: Bool = false,
                              _ message: String) throws -> (bytes: [UInt8], firstFrameBytes: Int) {
        let encoder = TerminalEncoder(colorMode: .trueColor, synchronizedOutput: false)
        encoder.shiftsRows = true
        encoder.shiftsOnlyWholeScrolls = wholeScrollsOnly
        let terminal = VirtualTerminal(columns: first.columns, rows: first.rows)
        var bytes: [UInt8] = []
        encoder.encode(first, into: &bytes)
        try terminal.feed(bytes)
        let firstFrameBytes = bytes.count
        bytes.removeAll()
        encoder.encode(second, into: &bytes)
        try terminal.feed(bytes)
        assertScreen(terminal, shows: second, mode: .trueColor, message)
        return (bytes, firstFrameBytes)
    }

    func testAScrolledPictureShiftsRowsAndWritesOnlyTheNewColumn() throws {
        // A 60-pixel-wide "game" between a left and a right panel, scrolled 1 pixel per frame.
        var generator = SeededGenerator(seed: 11)
        let palette = (0..<12).map { _ in RGBColor(rawValue: UInt32.random(in: 0...0xFF_FFFF, using: &generator)) }
        let world = (0..<(200 * 16)).map { _ in palette.randomElement(using: &generator)! }
        func frame(scroll: Int) -> CellCanvas {
            var canvas = CellCanvas(columns: 80, rows: 8, background: RGBColor(rawValue: 0x202020))
            canvas.put(text: "LEFT", column: 0, row: 0, foreground: .white, background: .black)
            canvas.put(text: "RIGHT PANEL", column: 69, row: 3, foreground: .white, background: .black)
            for y in 0..<16 {
                for x in 0..<60 { canvas.setPixel(x: 5 + x, y: y, to: world[y * 200 + (x + scroll) % 200]) }
            }
            return canvas
        }
        for distance in [1, -2, 3] {
            let scrolled = frame(scroll: 10 + distance)
            let (bytes, full) = try encodeScroll(from: frame(scroll: 10), to: scrolled, "scrolled by \(distance)")
            let text = String(decoding: bytes, as: UTF8.self)
            XCTAssertTrue(text.contains("P") && text.contains("@"), text.debugDescription)
            // Eight rows of shift commands and the new column(s): a small part of a full frame.
            XCTAssertLessThan(bytes.count, full / 4, "scrolled by \(distance)")
            // Without DCH/ICH every moved cell is written again.
            let plain = TerminalEncoder(colorMode: .trueColor, synchronizedOutput: false)
            var plainBytes: [UInt8] = []
            plain.encode(frame(scroll: 10), into: &plainBytes)
            plainBytes.removeAll()
            plain.encode(scrolled, into: &plainBytes)
            XCTAssertGreaterThan(plainBytes.count, bytes.count * 3)
        }
    }

    /// Where each DCH and ICH makes the terminal wait for its display server (xterm), a row is
    /// shifted only when the shift leaves at most a quarter of its changed cells to write: a
    /// whole scroll still is, a shift that rights only every other cell (a downscaled scroll's
    /// shimmer) is not, and the screen comes out right either way.
    func testWhereShiftsWaitForTheServerOnlyAWholeScrollIsShifted() throws {
        var generator = SeededGenerator(seed: 13)
        let palette = (0..<12).map { _ in RGBColor(rawValue: UInt32.random(in: 0...0xFF_FFFF, using: &generator)) }
        let world = (0..<(200 * 16)).map { _ in palette.randomElement(using: &generator)! }
        // `shimmer`: every other column gets a colour the world never has, as a downscaled
        // picture's sampled columns change when it scrolls by less than a cell.
        func frame(scroll: Int, shimmer: Bool = false) -> CellCanvas {
            var canvas = CellCanvas(columns: 80, rows: 8, background: RGBColor(rawValue: 0x202020))
            for y in 0..<16 {
                for x in 0..<60 {
                    let shimmers = shimmer && x % 2 == 0
                    canvas.setPixel(x: 5 + x, y: y, to: shimmers ? RGBColor(rawValue: 0x0102_03 &+ UInt32(x * 16 + y))
                                                                  : world[y * 200 + (x + scroll) % 200])
                }
            }
            return canvas
        }
        func encode(_ next: CellCanvas, wholeScrollsOnly: Bool) throws -> String {
            let (bytes, _) = try encodeScroll(from: frame(scroll: 10), to: next, wholeScrollsOnly: wholeScrollsOnly,
                                              "whole scrolls only: \(wholeScrollsOnly)")
            return String(decoding: bytes, as: UTF8.self)
        }
        let whole = try encode(frame(scroll: 11), wholeScrollsOnly: true)
        XCTAssertTrue(whole.contains("P") && whole.contains("@"), whole.debugDescription)
        let shimmering = frame(scroll: 11, shimmer: true)
        let halfRighted = try encode(shimmering, wholeScrollsOnly: false)
        XCTAssertTrue(halfRighted.contains("P") && halfRighted.contains("@"), "a shift rights half the row: taken anywhere else")
        let notShifted = try encode(shimmering, wholeScrollsOnly: true)
        XCTAssertFalse(notShifted.contains("P") || notShifted.contains("@"), notShifted.debugDescription)
    }

    /// The shift search compares picture cells as packed keys and falls back to field by field
    /// where text is among the changed cells: scrolled text is shifted too, and comes out right.
    func testScrolledTextAmongThePictureIsShiftedToo() throws {
        var generator = SeededGenerator(seed: 12)
        let palette = (0..<6).map { _ in RGBColor(rawValue: UInt32.random(in: 0...0xFF_FFFF, using: &generator)) }
        let world = (0..<(120 * 4)).map { _ in palette.randomElement(using: &generator)! }
        let letters = Array("THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG 0123456789 ".unicodeScalars)
        func frame(scroll: Int) -> CellCanvas {
            var canvas = CellCanvas(columns: 60, rows: 3, background: .black)
            for x in 0..<50 {
                canvas.put(Cell(letters[(x + scroll) % letters.count], foreground: palette[(x + scroll) % 6], background: .black),
                           column: 5 + x, row: 0)
            }
            for y in 0..<4 {
                for x in 0..<50 { canvas.setPixel(x: 5 + x, y: 2 + y, to: world[y * 120 + (x + scroll) % 120]) }
            }
            return canvas
        }
        for distance in [1, -2, 3] {
            let (bytes, _) = try encodeScroll(from: frame(scroll: 7), to: frame(scroll: 7 + distance), "scrolled by \(distance)")
            // Both the text row and the picture rows: three shifts, each a DCH and an ICH.
            let text = String(decoding: bytes, as: UTF8.self)
            let count = abs(distance) == 1 ? "" : "\(abs(distance))"
            XCTAssertEqual(text.components(separatedBy: "\u{1B}[\(count)P").count - 1, 3, text.debugDescription)
            XCTAssertEqual(text.components(separatedBy: "\u{1B}[\(count)@").count - 1, 3, text.debugDescription)
        }
    }

    func testPaletteModesEmitIndexedColours() throws {
        var canvas = CellCanvas(columns: 2, rows: 1)
        canvas.put(Cell(top: RGBColor(rawValue: 0xFF0000), bottom: RGBColor(rawValue: 0x808080)), column: 0, row: 0)
        canvas.put(Cell(top: RGBColor(rawValue: 0x00FF00), bottom: RGBColor(rawValue: 0x000000)), column: 1, row: 0)
        var bytes: [UInt8] = []
        TerminalEncoder(colorMode: .palette256, synchronizedOutput: false).encode(canvas, into: &bytes)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "\u{1B}[H\u{1B}[38;5;196;48;5;244m▀\u{1B}[38;5;46;48;5;16m▀")
        bytes.removeAll()
        TerminalEncoder(colorMode: .palette16, synchronizedOutput: false).encode(canvas, into: &bytes)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "\u{1B}[H\u{1B}[91;100m▀\u{1B}[92;40m▀")
    }

    func testResizeRedrawsAndChangingModeRedraws() throws {
        let renderer = FrameRenderer(colorMode: .trueColor, synchronizedOutput: true)
        var bytes: [UInt8] = []
        renderer.beginFrame(columns: 10, rows: 4, background: RGBColor(rawValue: 0x334455))
        renderer.put(text: "Hi", column: 1, row: 1, foreground: .white, background: .black)
        renderer.encodeChanges(into: &bytes)
        bytes.removeAll()
        renderer.beginFrame(columns: 10, rows: 4, background: RGBColor(rawValue: 0x334455))
        renderer.put(text: "Hi", column: 1, row: 1, foreground: .white, background: .black)
        XCTAssertEqual(renderer.encodeChanges(into: &bytes), 0)
        renderer.beginFrame(columns: 12, rows: 5, background: RGBColor(rawValue: 0x334455))
        renderer.encodeChanges(into: &bytes)
        let big = VirtualTerminal(columns: 12, rows: 5)
        try big.feed(bytes)
        XCTAssertEqual(big.glyphsWritten, 60)
        bytes.removeAll()
        renderer.colorMode = .palette16
        renderer.encodeChanges(into: &bytes)
        try big.feed(bytes)
        XCTAssertEqual(big.glyphsWritten, 60)
        assertScreen(big, shows: renderer.canvas, mode: .palette16, "after mode change")
    }
}
