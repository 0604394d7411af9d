import Foundation
import TestSupport
import XCTest

/// ScreenModel against hand-written sequences, against the exact sequences ncurses's terminfo
/// entries produce (through `tput`), and against a real ncurses program in a pseudo-terminal.
final class ScreenModelTests: XCTestCase {

    // MARK: Helpers

    private let esc = "\u{1B}"

    /// A screen fed with `text` (with "\u{1B}" written as `esc` by the callers).
    private func screen(columns: Int = 20, rows: Int = 6, _ text: String) -> ScreenModel {
        let screen = ScreenModel(columns: columns, rows: rows)
        screen.feed(text)
        return screen
    }

    /// The bytes `tput -T term capability parameters…` prints: what ncurses sends for it.
    private func tput(_ term: String, _ arguments: String...) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tput") else {
            throw XCTSkip("tput (ncurses-bin) is not installed")
        }
        return try runCommand(["/usr/bin/tput", "-T", term] + arguments)
    }

    private func assertRGB(_ actual: (UInt8, UInt8, UInt8), _ expected: (UInt8, UInt8, UInt8),
                           file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(actual == expected, "\(actual) is not \(expected)", file: file, line: line)
    }

    // MARK: Text, cursor, wrapping

    func testPrintsTextWhereTheCursorIs() {
        let model = screen("\(esc)[2;3HHello\(esc)[4;1HWorld")
        XCTAssertEqual(model.text(row: 1), "  Hello")
        XCTAssertEqual(model.text(row: 3), "World")
        XCTAssertEqual(model.lines.count, 6)
        XCTAssertEqual(model.text, "\n  Hello\n\nWorld\n\n")
        XCTAssertTrue(model.contains("Hello"))
        XCTAssertFalse(model.contains("Hello World"))
        XCTAssertEqual(model.find("llo")?.column, 4)
        XCTAssertEqual(model.find("llo")?.row, 1)
        XCTAssertEqual(model.find("World", inRow: 3), 0)
        XCTAssertNil(model.find("World", inRow: 1))
        XCTAssertEqual(model.cursorColumn, 5)
        XCTAssertEqual(model.cursorRow, 3)
        XCTAssertEqual(model.count(of: "l"), 3)
        XCTAssertTrue(model.ignored.isEmpty, "\(model.ignored)")
    }

    func testControlCharacters() {
        // CR, LF (down only), BS, TAB, BEL.
        let model = screen("ab\r\ncd\u{08}X\tY\u{07}\n\rZ")
        XCTAssertEqual(model.text(row: 0), "ab")
        XCTAssertEqual(model.text(row: 1), "cX      Y")
        XCTAssertEqual(model.text(row: 2), "Z")
        XCTAssertEqual(model.bellCount, 1)
        // A bare LF keeps the column, as a terminal does; LNM makes it a new line.
        let bare = screen("ab\ncd")
        XCTAssertEqual(bare.lines[0...1], ["ab", "  cd"])
        let newLine = screen("\(esc)[20hab\ncd")
        XCTAssertEqual(newLine.lines[0...1], ["ab", "cd"])
    }

    func testAutoWrapWaitsForTheNextCharacter() {
        let model = ScreenModel(columns: 5, rows: 3)
        model.feed("abcde")
        // The cursor stays on the last column until something is printed.
        XCTAssertEqual(model.cursorColumn, 4)
        XCTAssertEqual(model.cursorRow, 0)
        model.feed("\r")
        XCTAssertEqual(model.cursorRow, 0, "CR after a full line must not wrap")
        model.feed("ABCDEfg")
        XCTAssertEqual(model.lines, ["ABCDE", "fg", ""])
        // At the bottom, wrapping scrolls.
        model.feed("\(esc)[3;1H12345678")
        XCTAssertEqual(model.lines, ["fg", "12345", "678"])
        // A cursor move cancels the pending wrap.
        let moved = ScreenModel(columns: 5, rows: 2)
        moved.feed("abcde\(esc)[1;5HX")
        XCTAssertEqual(moved.lines, ["abcdX", ""])
        // Without auto-wrap, the last column is overwritten.
        let noWrap = ScreenModel(columns: 5, rows: 2)
        noWrap.feed("\(esc)[?7labcdefg")
        XCTAssertEqual(noWrap.lines, ["abcdg", ""])
    }

    func testWideCharactersTakeTwoColumns() {
        let model = screen("日本語ok e\u{301}!")
        XCTAssertEqual(model.text(row: 0), "日本語ok é!")
        XCTAssertEqual(model.cell(column: 0, row: 0).character, "日")
        XCTAssertTrue(model.cell(column: 1, row: 0).isWideContinuation)
        XCTAssertEqual(model.find("ok")?.column, 6)
        XCTAssertEqual(model.find("é")?.column, 9)
        XCTAssertEqual(model.cursorColumn, 11)
        // Overwriting half of a wide character leaves a space in the other half.
        model.feed("\(esc)[1;2HX")
        XCTAssertEqual(model.text(row: 0), " X本語ok é!")
        // A wide character that does not fit in the last column wraps whole.
        let narrow = ScreenModel(columns: 3, rows: 2)
        narrow.feed("ab日")
        XCTAssertEqual(narrow.lines, ["ab", "日"])
    }

    // MARK: Editing

    func testEraseInLineAndDisplay() {
        let filled = "\(esc)[1;1Haaaaaaaaaa\(esc)[2;1Hbbbbbbbbbb\(esc)[3;1Hcccccccccc"
        XCTAssertEqual(screen(columns: 10, rows: 3, filled + "\(esc)[2;4H\(esc)[K").lines,
                       ["aaaaaaaaaa", "bbb", "cccccccccc"])
        XCTAssertEqual(screen(columns: 10, rows: 3, filled + "\(esc)[2;4H\(esc)[1K").lines,
                       ["aaaaaaaaaa", "    bbbbbb", "cccccccccc"])
        XCTAssertEqual(screen(columns: 10, rows: 3, filled + "\(esc)[2;4H\(esc)[2K").lines,
                       ["aaaaaaaaaa", "", "cccccccccc"])
        XCTAssertEqual(screen(columns: 10, rows: 3, filled + "\(esc)[2;4H\(esc)[J").lines,
                       ["aaaaaaaaaa", "bbb", ""])
        XCTAssertEqual(screen(columns: 10, rows: 3, filled + "\(esc)[2;4H\(esc)[1J").lines,
                       ["", "    bbbbbb", "cccccccccc"])
        XCTAssertEqual(screen(columns: 10, rows: 3, filled + "\(esc)[2J").lines, ["", "", ""])
        // ED 3 erases the scrollback only; there is none, so the screen stays.
        XCTAssertEqual(screen(columns: 10, rows: 3, filled + "\(esc)[3J").lines,
                       ["aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc"])
        // Erasing uses the current background (bce).
        let coloured = screen(columns: 10, rows: 3, filled + "\(esc)[44m\(esc)[2;1H\(esc)[K")
        XCTAssertEqual(coloured.cell(column: 5, row: 1).background, .palette(4))
        XCTAssertEqual(coloured.cell(column: 5, row: 0).background, .default)
    }

    func testRepeatAndEraseCharacters() {
        let model = screen("\(esc)[31m-\(esc)[9b|\(esc)[1;3H\(esc)[3X")
        XCTAssertEqual(model.text(row: 0), "--   -----|")
        XCTAssertEqual(model.cell(column: 9, row: 0).foreground, .palette(1))
        XCTAssertEqual(model.cursorColumn, 2, "ECH does not move the cursor")
        XCTAssertEqual(model.count(of: "-"), 7)
    }

    func testInsertAndDeleteCharactersAndLines() {
        XCTAssertEqual(screen("abcdef\(esc)[1;3H\(esc)[2@").text(row: 0), "ab  cdef")
        XCTAssertEqual(screen("abcdef\(esc)[1;3H\(esc)[2P").text(row: 0), "abef")
        // Insert mode (IRM) pushes the rest of the line right.
        let inserting = screen(columns: 8, rows: 1, "abcdef\(esc)[1;3H\(esc)[4hXY\(esc)[4lZ")
        XCTAssertEqual(inserting.text(row: 0), "abXYZdef")
        XCTAssertFalse(inserting.isInsertMode)
        let lines = "\(esc)[1;1H1\(esc)[2;1H2\(esc)[3;1H3\(esc)[4;1H4"
        XCTAssertEqual(screen(columns: 5, rows: 4, lines + "\(esc)[2;1H\(esc)[L").lines, ["1", "", "2", "3"])
        XCTAssertEqual(screen(columns: 5, rows: 4, lines + "\(esc)[2;1H\(esc)[2M").lines, ["1", "4", "", ""])
        XCTAssertEqual(screen(columns: 5, rows: 4, lines + "\(esc)[2S").lines, ["3", "4", "", ""])
        XCTAssertEqual(screen(columns: 5, rows: 4, lines + "\(esc)[T").lines, ["", "1", "2", "3"])
    }

    func testCursorMovesStopAtTheEdges() {
        let model = ScreenModel(columns: 10, rows: 5)
        model.feed("\(esc)[3;4H\(esc)[2A")
        XCTAssertEqual([model.cursorColumn, model.cursorRow], [3, 0])
        model.feed("\(esc)[9A\(esc)[B\(esc)[3C")
        XCTAssertEqual([model.cursorColumn, model.cursorRow], [6, 1])
        model.feed("\(esc)[99C\(esc)[99B")
        XCTAssertEqual([model.cursorColumn, model.cursorRow], [9, 4])
        model.feed("\(esc)[4D\(esc)[2G")
        XCTAssertEqual([model.cursorColumn, model.cursorRow], [1, 4])
        model.feed("\(esc)[3d\(esc)[7`")
        XCTAssertEqual([model.cursorColumn, model.cursorRow], [6, 2])
        model.feed("\(esc)[H")
        XCTAssertEqual([model.cursorColumn, model.cursorRow], [0, 0])
        model.feed("\(esc)[5;6f")
        XCTAssertEqual([model.cursorColumn, model.cursorRow], [5, 4])
        // Save and restore, with the attributes.
        model.feed("\(esc)[1m\(esc)7\(esc)[H\(esc)[0mA\(esc)8B")
        XCTAssertEqual(model.cell(column: 0, row: 0), ScreenModel.Cell(character: "A"))
        XCTAssertEqual(model.cell(column: 5, row: 4).character, "B")
        XCTAssertTrue(model.cell(column: 5, row: 4).isBold)
    }

    func testScrollRegion() {
        let model = ScreenModel(columns: 5, rows: 6)
        for row in 1...6 { model.feed("\(esc)[\(row);1Hline\(row)") }
        XCTAssertEqual(model.lines, ["line1", "line2", "line3", "line4", "line5", "line6"])
        // Region rows 2–4 (1-based); setting it homes the cursor.
        model.feed("\(esc)[2;4r")
        XCTAssertEqual([model.cursorColumn, model.cursorRow], [0, 0])
        XCTAssertEqual([model.scrollTop, model.scrollBottom], [1, 3])
        model.feed("\(esc)[4;1H\nnew")
        XCTAssertEqual(model.lines, ["line1", "line3", "line4", "new", "line5", "line6"])
        // Reverse index at the top margin scrolls the region down.
        model.feed("\(esc)[2;1H\(esc)Mtop")
        XCTAssertEqual(model.lines, ["line1", "top", "line3", "line4", "line5", "line6"])
        // CUD stops at the bottom margin from inside the region.
        model.feed("\(esc)[9B")
        XCTAssertEqual(model.cursorRow, 3)
        // Below the region, LF at the last row does not scroll anything.
        model.feed("\(esc)[6;1H\n")
        XCTAssertEqual(model.lines.last, "line6")
        // ESC D and ESC E index too.
        model.feed("\(esc)[4;1H\(esc)D")
        XCTAssertEqual(model.lines[1...3], ["line3", "line4", ""])
        model.feed("\(esc)[r")
        XCTAssertEqual([model.scrollTop, model.scrollBottom], [0, 5])
    }

    func testAlternateScreenKeepsTheMainScreen() {
        let model = ScreenModel(columns: 10, rows: 3)
        model.feed("shell$ \(esc)[?1049h")
        XCTAssertTrue(model.isAlternateScreen)
        XCTAssertEqual(model.text, "\n\n")
        model.feed("\(esc)[2;2Hmenu\(esc)[?25l")
        XCTAssertEqual(model.text(row: 1), " menu")
        XCTAssertFalse(model.isCursorVisible)
        model.feed("\(esc)[?1049l\(esc)[?25h")
        XCTAssertFalse(model.isAlternateScreen)
        XCTAssertTrue(model.isCursorVisible)
        XCTAssertEqual(model.lines, ["shell$", "", ""])
        XCTAssertEqual([model.cursorColumn, model.cursorRow], [7, 0], "?1049l restores the cursor")
        // Entering again starts from a clear screen.
        model.feed("\(esc)[?1049h")
        XCTAssertFalse(model.contains("menu"))
    }

    func testLineDrawingBox() {
        let model = ScreenModel(columns: 6, rows: 4)
        model.feed("\(esc)(0lqqqqk\(esc)(B")
        model.feed("\(esc)[2;1H\(esc)(0x\(esc)(Bqx\(esc)(0\(esc)[2;6Hx")
        model.feed("\(esc)[3;1Htqwqu\(esc)[4;1Hmqvqnj")
        model.feed("\(esc)(B")
        XCTAssertEqual(model.lines, ["┌────┐", "│qx  │", "├─┬─┤", "└─┴─┼┘"])
        // SO / SI switch to G1 and back; here G1 is line drawing.
        let shifted = ScreenModel(columns: 6, rows: 1)
        shifted.feed("\(esc))0q\u{0E}q\u{0F}q")
        XCTAssertEqual(shifted.text(row: 0), "q─q")
        // REP repeats the drawn character, not the letter.
        let repeated = ScreenModel(columns: 6, rows: 1)
        repeated.feed("\(esc)(0q\(esc)[4b\(esc)(B")
        XCTAssertEqual(repeated.text(row: 0), "─────")
        XCTAssertEqual(repeated.count(of: "─"), 5)
    }

    // MARK: Colours

    func testHalfBlocksWithTruecolorAnd256AndSixteenColours() {
        let model = ScreenModel(columns: 8, rows: 2)
        model.feed("\(esc)[38;2;255;0;0;48;2;0;0;255m▀")
        model.feed("\(esc)[38:2::1:2:3m\(esc)[48:2:4:5:6m▄")
        model.feed("\(esc)[38;5;196;48;5;232m▀\(esc)[38:5:21m▀")
        model.feed("\(esc)[91;104m▀\(esc)[39;49m▀\(esc)[0m ")
        let first = model.cell(column: 0, row: 0)
        XCTAssertEqual(first.character, "▀")
        XCTAssertEqual(first.foreground, .rgb(255, 0, 0))
        XCTAssertEqual(first.background, .rgb(0, 0, 255))
        XCTAssertEqual(model.cell(column: 1, row: 0).foreground, .rgb(1, 2, 3))
        XCTAssertEqual(model.cell(column: 1, row: 0).background, .rgb(4, 5, 6))
        XCTAssertEqual(model.cell(column: 2, row: 0).foreground, .palette(196))
        XCTAssertEqual(model.cell(column: 2, row: 0).background, .palette(232))
        XCTAssertEqual(model.cell(column: 3, row: 0).foreground, .palette(21))
        XCTAssertEqual(model.cell(column: 3, row: 0).background, .palette(232))
        XCTAssertEqual(model.cell(column: 4, row: 0).foreground, .palette(9))
        XCTAssertEqual(model.cell(column: 4, row: 0).background, .palette(12))
        XCTAssertEqual(model.cell(column: 5, row: 0).foreground, .default)
        XCTAssertEqual(model.cell(column: 5, row: 0).background, .default)
        XCTAssertEqual(model.count(of: "▀"), 5)
        XCTAssertTrue(model.ignored.isEmpty, "\(model.ignored)")

        assertRGB(model.resolvedRGB(.palette(196), isForeground: true), (255, 0, 0))
        assertRGB(model.resolvedRGB(.palette(21), isForeground: true), (0, 0, 255))
        assertRGB(model.resolvedRGB(.palette(16), isForeground: true), (0, 0, 0))
        assertRGB(model.resolvedRGB(.palette(110), isForeground: true), (135, 175, 215))
        assertRGB(model.resolvedRGB(.palette(232), isForeground: true), (8, 8, 8))
        assertRGB(model.resolvedRGB(.palette(255), isForeground: true), (238, 238, 238))
        assertRGB(model.resolvedRGB(.palette(4), isForeground: true), (0, 0, 238))
        assertRGB(model.resolvedRGB(.palette(15), isForeground: true), (255, 255, 255))
        assertRGB(model.resolvedRGB(.default, isForeground: true), model.defaultForeground)
        assertRGB(model.resolvedRGB(.default, isForeground: false), model.defaultBackground)
    }

    /// The shape of the app's own picture output (Render's TerminalEncoder): synchronized
    /// output, absolute moves, "CSI C" skips, one SGR with both colours, spaces for one-colour
    /// cells, the last column written with a wrap pending and then an absolute move.
    func testHalfBlockPictureFrame() {
        let model = ScreenModel(columns: 4, rows: 2)
        model.feed("\(esc)[?2026h\(esc)[H\(esc)[38;2;255;0;0;48;2;0;0;255m▀▀\(esc)[C\(esc)[38;5;46m▀")
        model.feed("\(esc)[2;1H\(esc)[48;5;232m  \(esc)[93;44m▄\(esc)[101m \(esc)[?2026l")
        XCTAssertEqual(model.lines, ["▀▀ ▀", "  ▄"])
        XCTAssertEqual(model.synchronizedUpdates, 1)
        XCTAssertFalse(model.isInSynchronizedUpdate)
        let red = model.cell(column: 1, row: 0)
        XCTAssertEqual(red.character, "▀")
        assertRGB(model.resolvedRGB(red.foreground, isForeground: true), (255, 0, 0))
        assertRGB(model.resolvedRGB(red.background, isForeground: false), (0, 0, 255))
        XCTAssertEqual(model.cell(column: 2, row: 0).background, .default, "skipped by CSI C")
        assertRGB(model.effectiveRGB(column: 3, row: 0).foreground, (0, 255, 0))
        assertRGB(model.effectiveRGB(column: 0, row: 1).background, (8, 8, 8))
        XCTAssertEqual(model.cell(column: 2, row: 1).foreground, .palette(11))
        XCTAssertEqual(model.cell(column: 2, row: 1).background, .palette(4))
        XCTAssertEqual(model.cell(column: 3, row: 1).background, .palette(9))
        XCTAssertEqual(model.count(of: "▀"), 3)
        XCTAssertTrue(model.ignored.isEmpty, "\(model.ignored)")
    }

    func testAttributesAndReverseVideo() {
        let model = screen("\(esc)[1;2;4;7;37;100mA\(esc)[22;24mB\(esc)[27mC\(esc)[mD")
        let a = model.cell(column: 0, row: 0)
        XCTAssertTrue(a.isBold && a.isDim && a.isUnderlined && a.isReverse)
        let b = model.cell(column: 1, row: 0)
        XCTAssertFalse(b.isBold || b.isDim || b.isUnderlined)
        XCTAssertTrue(b.isReverse)
        XCTAssertFalse(model.cell(column: 2, row: 0).isReverse)
        XCTAssertEqual(model.cell(column: 3, row: 0), ScreenModel.Cell(character: "D"))
        // Reverse swaps what is shown: grey text on white here.
        let shown = model.effectiveColors(column: 0, row: 0)
        XCTAssertEqual(shown.foreground, .palette(8))
        XCTAssertEqual(shown.background, .palette(7))
        let notReversed = model.effectiveColors(column: 2, row: 0)
        XCTAssertEqual(notReversed.foreground, .palette(7))
        assertRGB(model.effectiveRGB(column: 0, row: 0).background, (229, 229, 229))
        assertRGB(model.effectiveRGB(column: 0, row: 0).foreground, (127, 127, 127))
    }

    // MARK: Robustness

    func testUnknownSequencesAreSkipped() {
        let model = ScreenModel(columns: 30, rows: 3)
        model.feed("\(esc)]0;a title\u{07}\(esc)]8;;http://x\(esc)\\link\(esc)]8;;\(esc)\\")
        model.feed("\(esc)[?1000h\(esc)[?1006h\(esc)[>c\(esc)[6n\(esc)[18t\(esc)[2 q\(esc)[>4;1m")
        model.feed("\(esc)P+q544e\(esc)\\\(esc)_Ga=T,f=24;AAAA\(esc)\\\(esc)_Gm=1;BBBB\(esc)\\")
        model.feed("\(esc)[5m\(esc)[3m\(esc)#8\(esc)Z\(esc)[?2026h!\(esc)[?2026l\u{01}")
        XCTAssertEqual(model.text(row: 0), "link!")
        XCTAssertEqual(model.graphicsCommands, 2)
        XCTAssertEqual(model.synchronizedUpdates, 1)
        XCTAssertFalse(model.isInSynchronizedUpdate)
        for expected in ["OSC 0;a title", "CSI ?1000h", "CSI >c", "CSI 6n", "CSI 18t", "CSI 2 q", "ESC #8",
                         "ESC Z", "C0 0x1"] {
            XCTAssertTrue(model.ignored.contains(expected), "\(expected) not in \(model.ignored)")
        }
        XCTAssertTrue(model.ignored.contains { $0.hasPrefix("DCS +q544e") }, "\(model.ignored)")
        XCTAssertTrue(model.ignored.contains { $0.hasPrefix("SGR 5") }, "\(model.ignored)")
        // The pen was not disturbed by the unknown SGR parameters or "CSI > 4;1 m".
        XCTAssertEqual(model.cell(column: 4, row: 0), ScreenModel.Cell(character: "!"))

        // Broken input: malformed UTF-8, a sequence cut by ESC, junk after ESC [.
        let broken = ScreenModel(columns: 30, rows: 2)
        broken.feed([0x41, 0xE2, 0x96, 0x42, 0xFF, 0x1B, 0x5B, 0x33, 0x1B, 0x5B, 0x31, 0x6D, 0x43])
        XCTAssertEqual(broken.text(row: 0), "A\u{FFFD}B\u{FFFD}C")
        XCTAssertTrue(broken.cell(column: 4, row: 0).isBold)
        // Nonsense numbers do not crash it.
        broken.feed("\(esc)[99999;99999H\(esc)[99999@\(esc)[99999P\(esc)[99999L\(esc)[99999M\(esc)[99999S")
        broken.feed("\(esc)[99999T\(esc)[99999X\(esc)[99999b\(esc)[5;2r\(esc)[38;5;999m\(esc)[38;2;1m\(esc)[38m")
        broken.feed("\(esc)[;;;;m\(esc)[0;0r\(esc)[-1H\(esc)[1;1H\u{08}\u{08}")
        XCTAssertEqual([broken.cursorColumn, broken.cursorRow], [0, 0])
    }

    func testSplitFeedsGiveTheSameScreen() {
        let stream = Array(("\(esc)[?1049h\(esc)[H\(esc)[2J\(esc)(0lqqk\(esc)(B\(esc)[38:2::10:20:30m▀▄日本"
            + "\(esc)]0;title\u{07}\(esc)_Ga=T;AAAA\(esc)\\\(esc)[2;5Hé\(esc)[48;5;201mx\(esc)[3b"
            + "\(esc)7\(esc)[3;1r\(esc)M\(esc)8\(esc)[1;7;91mok\(esc)[m\r\n\u{E9}\(esc)P1$r0m\(esc)\\end").utf8)
        let whole = ScreenModel(columns: 12, rows: 4)
        whole.feed(stream)
        XCTAssertTrue(whole.contains("┌──┐▀▄日本"), whole.text)

        let byteByByte = ScreenModel(columns: 12, rows: 4)
        for byte in stream { byteByByte.feed([byte]) }
        assertSameScreen(byteByByte, whole)

        var generator = SeededGenerator(seed: 7)
        for _ in 0..<20 {
            let chunked = ScreenModel(columns: 12, rows: 4)
            var start = 0
            while start < stream.count {
                let end = min(stream.count, start + Int.random(in: 1...9, using: &generator))
                chunked.feed(Array(stream[start..<end]))
                start = end
            }
            assertSameScreen(chunked, whole)
        }
    }

    private func assertSameScreen(_ actual: ScreenModel, _ expected: ScreenModel,
                                  file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(actual.text, expected.text, file: file, line: line)
        for row in 0..<expected.rows {
            for column in 0..<expected.columns {
                XCTAssertEqual(actual.cell(column: column, row: row), expected.cell(column: column, row: row),
                               "cell (\(column), \(row))", file: file, line: line)
            }
        }
        XCTAssertEqual([actual.cursorColumn, actual.cursorRow], [expected.cursorColumn, expected.cursorRow],
                       file: file, line: line)
        XCTAssertEqual(actual.ignored, expected.ignored, file: file, line: line)
        XCTAssertEqual(actual.graphicsCommands, expected.graphicsCommands, file: file, line: line)
    }

    func testResizeKeepsTheTopLeft() {
        let model = screen(columns: 6, rows: 3, "abcdef\(esc)[2;1Hghij日\(esc)[3;6H")
        model.resize(columns: 5, rows: 2)
        XCTAssertEqual(model.lines, ["abcde", "ghij"])
        XCTAssertEqual([model.cursorColumn, model.cursorRow], [4, 1])
        model.resize(columns: 8, rows: 4)
        XCTAssertEqual(model.lines, ["abcde", "ghij", "", ""])
        XCTAssertEqual(model.scrollBottom, 3)
        model.feed("\(esc)[4;1Hxyz")
        XCTAssertEqual(model.text(row: 3), "xyz")
    }

    // MARK: ncurses's own sequences, through tput

    /// Draws with the sequences ncurses sends for each capability, for both terminfo entries
    /// the app is used with, and checks the screen.
    func testTerminfoSequencesForXtermAndXterm256color() throws {
        for term in ["xterm-256color", "xterm"] {
            func cap(_ arguments: String...) throws -> String {
                guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tput") else {
                    throw XCTSkip("tput (ncurses-bin) is not installed")
                }
                return try runCommand(["/usr/bin/tput", "-T", term] + arguments)
            }
            let model = ScreenModel(columns: 20, rows: 8)
            var output = try cap("smcup") + cap("smkx") + cap("civis") + cap("clear")
            // A box with line drawing, drawn with REP for the horizontal lines.
            output += try cap("cup", "1", "2") + cap("smacs") + "l" + cap("rep", "113", "6") + "k"
            output += try cap("cup", "2", "2") + "x" + cap("hpa", "9") + "x"
            output += try cap("cup", "3", "2") + "m" + "q" + cap("rep", "113", "5") + "j" + cap("rmacs")
            // Coloured text inside, then colours and attributes off again.
            output += try cap("cup", "2", "3") + cap("setaf", "7") + cap("setab", "4") + cap("bold") + "Menu"
            output += try cap("sgr0")
            // Erase part of a line with ECH and EL, in a background colour.
            output += try cap("cup", "5", "0") + "abcdefghij" + cap("cup", "5", "2") + cap("ech", "3")
            output += try cap("setab", "2") + cap("cup", "5", "8") + cap("el") + cap("op")
            // Relative moves, save / restore, insert and delete.
            output += try cap("cup", "6", "5") + cap("sc") + cap("cuu", "2") + cap("cub", "3") + "<"
            output += try cap("rc") + cap("cuf", "1") + "@" + cap("vpa", "7") + cap("hpa", "0") + "12345"
            output += try cap("hpa", "1") + cap("ich", "2") + cap("hpa", "4") + cap("dch", "1")
            output += try cap("hpa", "6") + cap("rev") + "R" + cap("sgr0")
            output += try cap("hpa", "0") + cap("smir") + "0" + cap("rmir")

            model.feed(Array(output.utf8))
            XCTAssertTrue(model.isAlternateScreen, term)
            XCTAssertFalse(model.isCursorVisible, term)
            XCTAssertTrue(model.isKeypadApplicationMode, term)
            XCTAssertEqual(model.lines, [
                "",
                "  ┌──────┐",
                "  │Menu  │",
                "  └──────┘",
                "  <",
                "ab   fgh",
                "      @",
                "01  245R",
            ], "\(term)\n\(model.text)")
            XCTAssertEqual(model.cell(column: 3, row: 2).foreground, .palette(7), term)
            XCTAssertEqual(model.cell(column: 3, row: 2).background, .palette(4), term)
            XCTAssertTrue(model.cell(column: 3, row: 2).isBold, term)
            XCTAssertEqual(model.cell(column: 7, row: 2).background, .default, term)
            XCTAssertEqual(model.cell(column: 8, row: 5).background, .palette(2), "el uses bce, \(term)")
            XCTAssertEqual(model.cell(column: 2, row: 5).background, .default, term)
            XCTAssertTrue(model.cell(column: 7, row: 7).isReverse, term)
            XCTAssertEqual(model.find("Menu")?.column, 3)
            // Only the cursor-keys mode and the title-stack window operations are not modelled.
            XCTAssertEqual(model.ignored, ["CSI 22;0;0t", "CSI ?1h"], term)

            // The scroll region ncurses sets with csr, and ind / ri / indn / rin / il / dl in it.
            let scrolled = ScreenModel(columns: 10, rows: 6)
            var lines = ""
            for row in 0..<6 { lines += try cap("cup", "\(row)", "0") + "row\(row)" }
            scrolled.feed(Array(lines.utf8))
            scrolled.feed(Array((try cap("csr", "1", "4") + cap("cup", "4", "0") + cap("ind") + "new").utf8))
            XCTAssertEqual(scrolled.lines, ["row0", "row2", "row3", "row4", "new", "row5"], term)
            scrolled.feed(Array((try cap("cup", "1", "0") + cap("ri")).utf8))
            XCTAssertEqual(scrolled.lines, ["row0", "", "row2", "row3", "row4", "row5"], term)
            scrolled.feed(Array((try cap("indn", "2")).utf8))
            XCTAssertEqual(scrolled.lines, ["row0", "row3", "row4", "", "", "row5"], term)
            scrolled.feed(Array((try cap("rin", "1") + cap("cup", "2", "0") + cap("dl", "1")).utf8))
            XCTAssertEqual(scrolled.lines, ["row0", "", "row4", "", "", "row5"], term)
            scrolled.feed(Array((try cap("il", "2") + cap("csr", "0", "5") + cap("rmcup") + cap("cnorm")).utf8))
            XCTAssertEqual(scrolled.lines, ["row0", "", "", "", "row4", "row5"], term)
            XCTAssertTrue(scrolled.isCursorVisible, term)
        }
        // An 8-colour entry has no bright colours: ncurses's setaf 12 there is not a colour.
        let eight = ScreenModel(columns: 4, rows: 1)
        eight.feed(Array((try tput("xterm", "setaf", "12") + "x").utf8))
        XCTAssertEqual(eight.cell(column: 0, row: 0).foreground, .default)
        XCTAssertEqual(eight.ignored.count, 1)
        let many = ScreenModel(columns: 4, rows: 1)
        many.feed(Array((try tput("xterm-256color", "setaf", "12") + "x"
            + tput("xterm-256color", "setaf", "208") + "y").utf8))
        XCTAssertEqual(many.cell(column: 0, row: 0).foreground, .palette(12))
        XCTAssertEqual(many.cell(column: 1, row: 0).foreground, .palette(208))
    }

    // MARK: A real ncurses program

    /// Runs a small Python curses program in a pseudo-terminal, captures every byte it writes,
    /// and checks that the model shows its boxed, coloured window where it was drawn.
    func testRealNcursesProgramInAPseudoTerminal() throws {
        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python),
              (try? runCommand([python, "-c", "import curses, pty; print('ok')"])) == "ok\n" else {
            throw XCTSkip("python3 with curses is not available")
        }
        for term in ["xterm-256color", "xterm"] {
            let capture = FileManager.default.temporaryDirectory
                .appendingPathComponent("screen-model-\(UUID().uuidString).bin")
            defer { try? FileManager.default.removeItem(at: capture) }
            let verdict = try runCommand([python, "-c", Self.cursesProgram, capture.path, term])
            XCTAssertEqual(verdict, "captured\n", term)
            let bytes = try [UInt8](Data(contentsOf: capture))
            XCTAssertFalse(bytes.isEmpty, term)

            let model = ScreenModel(columns: 80, rows: 24)
            model.feed(bytes)
            let context = "\(term)\n\(model.text)\nignored: \(model.ignored)"
            XCTAssertTrue(model.isAlternateScreen, context)
            XCTAssertFalse(model.isCursorVisible, context)
            // All ncurses sent is modelled but xterm's title-stack push.
            XCTAssertEqual(Set(model.ignored), ["CSI 22;0;0t"], context)
            // The window: 7 rows by 24 columns at row 4, column 10.
            XCTAssertEqual(model.cell(column: 10, row: 4).character, "┌", context)
            XCTAssertEqual(model.cell(column: 33, row: 4).character, "┐", context)
            XCTAssertEqual(model.cell(column: 10, row: 10).character, "└", context)
            XCTAssertEqual(model.cell(column: 33, row: 10).character, "┘", context)
            XCTAssertEqual(model.text(row: 4), String(repeating: " ", count: 10) + "┌" + String(repeating: "─", count: 22) + "┐", context)
            XCTAssertEqual(model.count(of: "│"), 10, context)
            XCTAssertEqual(model.find("Resume")?.column, 13, context)
            XCTAssertEqual(model.find("Resume")?.row, 6, context)
            XCTAssertEqual(model.find("Quit")?.row, 7, context)
            XCTAssertEqual(model.find("status line")?.row, 23, context)
            // "Resume": bold white on blue; the window's background is blue all over.
            let resume = model.cell(column: 13, row: 6)
            XCTAssertEqual(resume.foreground, .palette(7), context)
            XCTAssertEqual(resume.background, .palette(4), context)
            XCTAssertTrue(resume.isBold, context)
            XCTAssertEqual(model.cell(column: 30, row: 8).background, .palette(4), context)
            XCTAssertEqual(model.cell(column: 10, row: 4).background, .palette(4), context)
            // Outside the window: ncurses's pair 0 without use_default_colors is white on black.
            XCTAssertEqual(model.cell(column: 9, row: 4).background, .palette(0), context)
            XCTAssertEqual(model.cell(column: 0, row: 0).background, .palette(0), context)
            // "Quit" in reverse video: shown as blue on white.
            XCTAssertEqual(model.effectiveColors(column: 13, row: 7).foreground, .palette(4), context)
            XCTAssertEqual(model.effectiveColors(column: 13, row: 7).background, .palette(7), context)
        }
    }

    /// The curses program: forks a pseudo-terminal, draws in the child, and in the parent
    /// saves every byte the child wrote to the file named by argv[1]. The child leaves without
    /// endwin, so the capture ends with the window still on the alternate screen.
    private static let cursesProgram = #"""
import curses, fcntl, os, pty, select, struct, sys, termios, time

capture_path, term = sys.argv[1], sys.argv[2]
pid, master = pty.fork()
if pid == 0:
    try:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        os.environ.update({"TERM": term, "LINES": "24", "COLUMNS": "80", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
        screen = curses.initscr()
        curses.start_color()
        curses.init_pair(1, curses.COLOR_WHITE, curses.COLOR_BLUE)
        curses.curs_set(0)
        screen.addstr(23, 0, "status line")
        window = curses.newwin(7, 24, 4, 10)
        window.bkgd(" ", curses.color_pair(1))
        window.box()
        window.addstr(2, 3, "Resume", curses.color_pair(1) | curses.A_BOLD)
        window.addstr(3, 3, "Quit", curses.color_pair(1) | curses.A_REVERSE)
        screen.noutrefresh()
        window.noutrefresh()
        curses.doupdate()
        os._exit(0)
    except BaseException:
        os._exit(3)

captured = bytearray()
deadline = time.time() + 20
status = None
while status is None:
    if time.time() > deadline:
        os.kill(pid, 9)
        print("timed out")
        sys.exit(1)
    ready, _, _ = select.select([master], [], [], 0.2)
    if ready:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        captured += chunk
    else:
        reaped, reaped_status = os.waitpid(pid, os.WNOHANG)
        if reaped == pid:
            status = reaped_status
if status is None:
    _, status = os.waitpid(pid, 0)
if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
    print("child failed")
    sys.exit(1)
with open(capture_path, "wb") as file:
    file.write(captured)
print("captured")
"""#
}
