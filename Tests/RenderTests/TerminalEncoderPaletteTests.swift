import TestSupport
import PhosphorKit
import Render
import XCTest

/// The encoder sending 24-bit colours as redefined palette entries (`OSC 4`, then `38;5;n`).
/// `VirtualTerminal` keeps each cell's index and shows the entry as it is now, and records every
/// entry redefined while a cell shows it.
final class TerminalEncoderPaletteTests: XCTestCase {
    /// Entries `indices` with restore bytes that put back xterm's defaults.
    private func slots(_ indices: [UInt8]) -> PaletteSlots {
        var restore: [UInt8] = []
        for index in indices {
            let color = PaletteMatcher.color(ofIndex: index)
            let spec = String(format: "rgb:%02x%02x/%02x%02x/%02x%02x", color.red, color.red, color.green, color.green,
                              color.blue, color.blue)
            restore += Array("\u{1B}]4;\(index);\(spec)\u{1B}\\".utf8)
        }
        return PaletteSlots(indices: indices, restoreBytes: restore)
    }

    private func encoder(_ slots: PaletteSlots?) -> TerminalEncoder {
        let encoder = TerminalEncoder(colorMode: .trueColor, synchronizedOutput: false)
        encoder.paletteSlots = slots
        return encoder
    }

    private func encode(_ canvas: CellCanvas, with encoder: TerminalEncoder, on terminal: VirtualTerminal,
                        _ context: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        var bytes: [UInt8] = []
        encoder.encode(canvas, into: &bytes)
        try terminal.feed(bytes)
        assertScreen(terminal, shows: canvas, mode: encoder.colorMode, context, file: file, line: line)
        XCTAssertEqual(terminal.waste, [], context, file: file, line: line)
        XCTAssertEqual(terminal.paletteViolations, [], context, file: file, line: line)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A canvas of spaces in the given colours, one per cell.
    private func row(_ colors: [RGBColor]) -> CellCanvas {
        var canvas = CellCanvas(columns: colors.count, rows: 1)
        for (column, color) in colors.enumerated() { canvas.put(Cell(" ", foreground: .black, background: color), column: column, row: 0) }
        return canvas
    }

    private let a = RGBColor(rawValue: 0x102030), b = RGBColor(rawValue: 0x405060), c = RGBColor(rawValue: 0x708090)

    func testAColourIsDefinedOnceThenSentByItsEntry() throws {
        let encoder = encoder(slots([40, 41]))
        let terminal = VirtualTerminal(columns: 3, rows: 1)
        var canvas = CellCanvas(columns: 3, rows: 1)
        canvas.put(Cell(top: a, bottom: b), column: 0, row: 0)
        canvas.put(Cell(top: b, bottom: a), column: 1, row: 0)
        canvas.put(Cell("x", foreground: a, background: b), column: 2, row: 0)
        let text = try encode(canvas, with: encoder, on: terminal, "first")
        // Entries are taken from the front of the list; each colour is defined before its first SGR.
        XCTAssertEqual(text, "\u{1B}[H\u{1B}]4;40;rgb:10/20/30\u{1B}\\\u{1B}]4;41;rgb:40/50/60\u{1B}\\\u{1B}[38;5;40;48;5;41m▀▄x",
                       text.debugDescription)
        XCTAssertEqual(terminal.paletteDefinitions, 2)
    }

    func testAFreedEntryIsReusedAndAColourWithoutOneGoesOutAsItIs() throws {
        let encoder = encoder(slots([40, 41]))
        let terminal = VirtualTerminal(columns: 4, rows: 1)
        _ = try encode(row([a, a, b, b]), with: encoder, on: terminal, "a and b take both entries")
        // c finds no free entry: b is still on screen.
        let third = try encode(row([a, a, b, c]), with: encoder, on: terminal, "c while a and b show")
        XCTAssertTrue(third.contains("48;2;112;128;144"), third.debugDescription)
        XCTAssertEqual(terminal.paletteDefinitions, 2)
        // b leaves the screen; once half the screen has been written since the last look, its
        // entry comes back, and c takes it.
        _ = try encode(row([a, a, a, c]), with: encoder, on: terminal, "b gone")
        let spread = try encode(row([a, c, c, c]), with: encoder, on: terminal, "c spreads")
        XCTAssertEqual(terminal.paletteDefinitions, 3, spread.debugDescription)
        XCTAssertTrue(spread.contains("\u{1B}]4;41;rgb:70/80/90"), spread.debugDescription)
        XCTAssertFalse(spread.contains("48;2;"), spread.debugDescription)
    }

    func testReleasingTheEntriesRedrawsInPlainColourThenPutsThemBack() throws {
        let slots = slots([40, 41, 42])
        let encoder = encoder(slots)
        let terminal = VirtualTerminal(columns: 3, rows: 1)
        let canvas = row([a, b, c])
        _ = try encode(canvas, with: encoder, on: terminal, "with entries")
        XCTAssertEqual(terminal.palette.count, 3)
        encoder.paletteSlots = nil
        let text = try encode(canvas, with: encoder, on: terminal, "released")
        XCTAssertTrue(text.hasSuffix(String(decoding: slots.restoreBytes, as: UTF8.self)), text.debugDescription)
        XCTAssertTrue(text.contains("48;2;16;32;48"), text.debugDescription)
        for index in slots.indices {
            XCTAssertEqual(terminal.palette[Int(index)], PaletteMatcher.color(ofIndex: index).rawValue, "entry \(index) restored")
        }
        // Nothing more to say afterwards.
        var bytes: [UInt8] = []
        XCTAssertEqual(encoder.encode(canvas, into: &bytes), 0)
    }

    func testLeaving24BitColourPutsTheEntriesBackBeforeTheIndexedRedraw() throws {
        let slots = slots([16, 17, 18])
        let encoder = encoder(slots)
        let terminal = VirtualTerminal(columns: 3, rows: 1)
        let canvas = row([a, b, c])
        _ = try encode(canvas, with: encoder, on: terminal, "with entries")
        encoder.colorMode = .palette256
        var bytes: [UInt8] = []
        encoder.encode(canvas, into: &bytes)
        XCTAssertEqual(Array(bytes.prefix(slots.restoreBytes.count)), slots.restoreBytes)
        try terminal.feed(bytes)
        assertScreen(terminal, shows: canvas, mode: .palette256, "256 colours")
        // The entries change back while the old picture still shows them, for the moment until
        // the redraw after them reaches those cells (inside synchronized output: never seen).
        XCTAssertEqual(terminal.paletteViolations.count, 3)
        // And back: entries are defined afresh, none under a cell that shows it.
        encoder.colorMode = .trueColor
        bytes.removeAll()
        encoder.encode(canvas, into: &bytes)
        try terminal.feed(bytes)
        assertScreen(terminal, shows: canvas, mode: .trueColor, "24-bit again")
        XCTAssertTrue(String(decoding: bytes, as: UTF8.self).contains("\u{1B}]4;16;"))
        XCTAssertEqual(terminal.paletteViolations.count, 3)
    }

    func testAfterTheTerminalRestoredItsPaletteEntriesAreDefinedAgain() throws {
        let slots = slots([40, 41])
        let encoder = encoder(slots)
        let terminal = VirtualTerminal(columns: 2, rows: 1)
        let canvas = row([a, b])
        _ = try encode(canvas, with: encoder, on: terminal, "with entries")
        // A suspend: the session cleared the screen and wrote the restore bytes.
        try terminal.feed(Array("\u{1B}[0m\u{1B}[H  ".utf8) + slots.restoreBytes)
        encoder.paletteWasRestored()
        encoder.invalidate()
        let again = try encode(canvas, with: encoder, on: terminal, "resumed")
        XCTAssertTrue(again.contains("\u{1B}]4;40;rgb:10/20/30"), again.debugDescription)
    }

    /// Random pictures, text and edits over many frames, with few entries (so they run out, are
    /// taken back and reused) or many, with row shifts and REP on or off: the screen always shows
    /// the canvas and no entry changes under a cell that shows it.
    func testRandomFramesShowTheCanvasAndNoEntryChangesUnderAVisibleCell() throws {
        for seed in 1...60 {
            var generator = SeededGenerator(seed: UInt64(seed) * 104_729)
            let columns = Int.random(in: 2...30, using: &generator), rows = Int.random(in: 1...10, using: &generator)
            let count = [1, 3, 8, 40].randomElement(using: &generator)!
            let encoder = encoder(slots((0..<count).map { UInt8(16 + $0) }))
            encoder.shiftsRows = Bool.random(using: &generator)
            encoder.repeatsCharacters = Bool.random(using: &generator)
            encoder.synchronizedOutput = Bool.random(using: &generator)
            let terminal = VirtualTerminal(columns: columns, rows: rows)
            let colors = (0..<Int.random(in: 2...60, using: &generator)).map { _ in
                RGBColor(rawValue: UInt32.random(in: 0...0xFF_FFFF, using: &generator))
            }
            var canvas = CellCanvas(columns: columns, rows: rows, background: colors[0])
            for step in 0..<30 {
                for _ in 0..<Int.random(in: 1...(columns * rows * 2), using: &generator) {
                    canvas.setPixel(x: Int.random(in: 0..<columns, using: &generator), y: Int.random(in: 0..<(rows * 2), using: &generator),
                                    to: colors.randomElement(using: &generator)!)
                }
                if Bool.random(using: &generator) {
                    canvas.put(Cell("A", foreground: colors.randomElement(using: &generator)!, background: colors.randomElement(using: &generator)!),
                               column: Int.random(in: 0..<columns, using: &generator), row: Int.random(in: 0..<rows, using: &generator))
                }
                if step == 15 {
                    // Someone else drew over the picture.
                    encoder.invalidate()
                    try terminal.feed(Array("\u{1B}[1;1H\u{1B}[0mXX".prefix(columns + 8).utf8))
                }
                _ = try encode(canvas, with: encoder, on: terminal, "seed \(seed) step \(step)")
            }
        }
    }

    /// A game-like run (a scrolling tiled world of 40 colours, a moving sprite): the entries take
    /// its bytes well below plain 24-bit colour.
    func testAGameLikeRunTakesFewerBytesWithEntries() throws {
        var generator = SeededGenerator(seed: 5)
        let colors = (0..<40).map { _ in RGBColor(rawValue: UInt32.random(in: 0...0xFF_FFFF, using: &generator)) }
        let tiles = (0..<(16 * 64)).map { _ in colors[Int.random(in: 0..<32, using: &generator)] }
        func frame(_ t: Int) -> CellCanvas {
            var canvas = CellCanvas(columns: 80, rows: 24)
            for y in 0..<48 {
                for x in 0..<80 { canvas.setPixel(x: x, y: y, to: tiles[(y / 3 % 16) * 64 + (x / 2 + t) % 64]) }
            }
            for y in 0..<8 { for x in 0..<8 { canvas.setPixel(x: 20 + t % 40 + x, y: 20 + y, to: colors[32 + (x + y) % 8]) } }
            return canvas
        }
        var totals: [Int] = []
        for slots in [nil, slots((16...24).map { $0 } + (26...87).map { $0 })] {
            let encoder = encoder(slots)
            encoder.shiftsRows = true
            let terminal = VirtualTerminal(columns: 80, rows: 24)
            var total = 0
            for t in 0..<60 { total += try encode(frame(t), with: encoder, on: terminal, "frame \(t)").utf8.count }
            totals.append(total)
        }
        XCTAssertLessThan(Double(totals[1]), Double(totals[0]) * 0.8, "\(totals)")
    }
}
