// A model of a terminal screen for in-process tests.
//
// Tests feed it the exact bytes the app writes (ncurses output for the menus and the browser,
// and the app's own half-block picture output), then read the result back as text and colours:
// "row 5 contains 'Resume' drawn white on grey", "the cell at (10, 3) is '▀' with foreground
// RGB(255, 0, 0)".
//
// It follows xterm's behaviour (see xterm's "ctlseqs" document) for the part of the control
// sequence language that ncursesw uses for TERM=xterm-256color and TERM=xterm, and that a
// truecolor, 256-colour or 16-colour picture writer uses. It is deliberately lenient: anything
// it does not model is skipped without an error and noted in `ignored`, so a test can look there
// when a screen is not what it expected.
//
// Simplifications, on purpose:
// - Character width: East Asian wide characters and most emoji take two cells (the second cell
//   holds an empty string); combining marks and zero-width joiners are added to the previous
//   cell; everything else takes one cell. No full Unicode width tables.
// - No scrollback: lines scrolled off the top are gone, and ED 3 ("erase saved lines") does not
//   change the screen.
// - Tab stops are fixed every 8 columns (HTS and TBC are ignored).
// - No origin mode and no left/right margins.
// - Erasing (ED, EL, ECH, and the lines and characters that IL, DL, ICH, DCH, SU, SD bring in)
//   fills with the current background colour, like xterm's "bce" (back colour erase), which the
//   xterm terminfo entries advertise and ncurses relies on.
// - Bold does not brighten colours 0–7.

/// A model of a terminal screen that tests feed with raw output bytes.
public final class ScreenModel {

    // MARK: Public types

    /// A colour as the program asked for it.
    public enum Color: Hashable, Sendable {
        /// The terminal's default foreground or background (SGR 39 / 49).
        case `default`
        /// An index into the 256-colour palette: 0–7 standard, 8–15 bright, 16–231 the
        /// 6×6×6 cube, 232–255 the grey ramp.
        case palette(Int)
        /// A direct colour (SGR 38;2;r;g;b and 48;2;r;g;b).
        case rgb(UInt8, UInt8, UInt8)
    }

    /// One character cell of the screen.
    public struct Cell: Hashable, Sendable {
        /// The character shown: one grapheme, " " for an empty cell, and "" for the right half
        /// of a wide character (the left half holds the character).
        public var character: String
        public var foreground: Color
        public var background: Color
        public var isBold: Bool
        public var isDim: Bool
        public var isUnderlined: Bool
        public var isReverse: Bool

        public init(character: String = " ", foreground: Color = .default, background: Color = .default,
                    isBold: Bool = false, isDim: Bool = false, isUnderlined: Bool = false,
                    isReverse: Bool = false) {
            self.character = character
            self.foreground = foreground
            self.background = background
            self.isBold = isBold
            self.isDim = isDim
            self.isUnderlined = isUnderlined
            self.isReverse = isReverse
        }

        /// Whether this is the right half of a wide character.
        public var isWideContinuation: Bool { character.isEmpty }
    }

    // MARK: Public state

    public private(set) var columns: Int
    public private(set) var rows: Int
    /// The cursor, 0-based. While a wrap is pending the column stays on the last column.
    public private(set) var cursorColumn = 0
    public private(set) var cursorRow = 0
    /// DECTCEM (CSI ?25 h / l).
    public private(set) var isCursorVisible = true
    /// Whether the alternate screen (CSI ?1049 h, ?1047 h or ?47 h) is shown.
    public private(set) var isAlternateScreen = false
    /// DECKPAM / DECKPNM (ESC = / ESC >).
    public private(set) var isKeypadApplicationMode = false
    /// DECAWM (CSI ?7 h / l); on by default.
    public private(set) var isAutoWrapOn = true
    /// How many synchronized updates began (CSI ?2026 h), and whether one is open now.
    public private(set) var synchronizedUpdates = 0
    public private(set) var isInSynchronizedUpdate = false
    /// How many BEL characters arrived.
    public private(set) var bellCount = 0
    /// How many kitty graphics protocol commands (APC "G…" strings) arrived.
    public private(set) var graphicsCommands = 0
    /// Palette entries redefined by `OSC 4 ; n ; rgb:…` (the rest show xterm's defaults), and
    /// how many definitions came.
    public private(set) var palette: [Int: (UInt8, UInt8, UInt8)] = [:]
    public private(set) var paletteDefinitions = 0
    /// The size of a cell in pixels, for tracking which cells sixel images cover (nil: not tracked).
    public var cellPixelSize: (width: Int, height: Int)?
    /// Cells (row * columns + column) that show sixel pixels: a sixel with raster attributes
    /// covers the cells from the cursor, and text or an erase in a cell replaces its pixels, as in
    /// xterm and foot. Scrolling does not move them (not modelled).
    public private(set) var sixelCells: Set<Int> = []
    /// The scroll region (DECSTBM), 0-based and inclusive.
    public private(set) var scrollTop = 0
    public private(set) var scrollBottom: Int
    /// Every sequence or control character that was skipped because it is not modelled, in a
    /// readable form such as "CSI ?1h", "ESC #8" or "OSC 0;title". For debugging tests.
    public private(set) var ignored: [String] = []
    /// Whether LF also returns to column 0 (ANSI mode LNM, CSI 20 h). Off, as in a real
    /// terminal; a test feeding hand-written text with "\n" line ends may turn it on.
    public var isLineFeedNewLine = false
    /// IRM (CSI 4 h / l, terminfo smir / rmir): printed characters push the rest of the line
    /// right instead of overwriting it.
    public private(set) var isInsertMode = false

    /// What `resolvedRGB` uses for `.default`. xterm's defaults are black on white; these
    /// are the more common light grey on black.
    public var defaultForeground: (UInt8, UInt8, UInt8) = (229, 229, 229)
    public var defaultBackground: (UInt8, UInt8, UInt8) = (0, 0, 0)

    // MARK: Private state

    /// The shown buffer, rows of cells.
    private var grid: [[Cell]]
    /// The main buffer while the alternate screen is shown.
    private var savedMainGrid: [[Cell]]?

    /// The attributes new characters get ("the pen"); its `character` is unused.
    private var pen = Cell()
    /// Set when a character was written in the last column: the next one wraps first.
    private var isWrapPending = false

    private enum Charset { case ascii, lineDrawing }
    /// G0 and G1; SI selects G0, SO selects G1.
    private var charsets: [Charset] = [.ascii, .ascii]
    private var activeCharset = 0

    /// The last character printed, for REP (CSI b).
    private var lastPrinted: String?

    /// What ESC 7 (DECSC) saves and ESC 8 (DECRC) restores.
    private struct SavedCursor {
        var column: Int
        var row: Int
        var pen: Cell
        var isWrapPending: Bool
        var charsets: [Charset]
        var activeCharset: Int
    }
    private var savedCursor: SavedCursor?
    /// ?1049 saves the cursor separately from ESC 7, as xterm does.
    private var savedCursorForAlternateScreen: SavedCursor?

    // The parser. Bytes go through a small state machine so that a sequence split between two
    // `feed` calls continues where it stopped.
    private enum ParserState {
        case ground
        case escape            // after ESC, collecting intermediates (0x20–0x2F)
        case controlSequence   // after ESC [
        case string            // inside OSC, DCS, APC, PM or SOS, until ST (or BEL for OSC)
    }
    private enum StringKind: String { case osc = "OSC", dcs = "DCS", apc = "APC", pm = "PM", sos = "SOS" }
    private var state = ParserState.ground
    private var escapeIntermediates: [UInt8] = []
    private var sequenceBytes: [UInt8] = []     // CSI parameters and intermediates
    private var stringKind = StringKind.osc
    private var stringHead: [UInt8] = []        // the first bytes of a string, for `ignored`
    private var stringLength = 0
    private var stringCursor = (row: 0, column: 0)
    private var stringSawEscape = false
    /// A UTF-8 character whose remaining bytes have not arrived yet.
    private var utf8Pending: [UInt8] = []
    private var utf8Expected = 0

    // MARK: Creating and resizing

    public init(columns: Int, rows: Int) {
        precondition(columns > 0 && rows > 0, "a screen needs at least one cell")
        self.columns = columns
        self.rows = rows
        scrollBottom = rows - 1
        grid = Array(repeating: Array(repeating: Cell(), count: columns), count: rows)
    }

    /// Changes the size, keeping what fits at the top left (no reflow). Resets the scroll region.
    public func resize(columns newColumns: Int, rows newRows: Int) {
        precondition(newColumns > 0 && newRows > 0, "a screen needs at least one cell")
        func resized(_ buffer: [[Cell]]) -> [[Cell]] {
            (0..<newRows).map { row in
                var line = row < buffer.count ? buffer[row] : []
                if line.count > newColumns { line.removeLast(line.count - newColumns) }
                line += Array(repeating: Cell(), count: newColumns - line.count)
                // A wide character cut in half at the new right edge becomes a space.
                if isWide(line[newColumns - 1].character) {
                    line[newColumns - 1].character = " "
                }
                return line
            }
        }
        grid = resized(grid)
        savedMainGrid = savedMainGrid.map(resized)
        columns = newColumns
        rows = newRows
        scrollTop = 0
        scrollBottom = newRows - 1
        cursorColumn = min(cursorColumn, newColumns - 1)
        cursorRow = min(cursorRow, newRows - 1)
        isWrapPending = false
    }

    // MARK: Feeding bytes

    /// Interprets `bytes` as terminal output. Any chunking works: a sequence or a UTF-8
    /// character cut between calls is completed by the next call.
    public func feed(_ bytes: [UInt8]) {
        for byte in bytes { consume(byte) }
    }

    /// Feeds the UTF-8 bytes of `string`.
    public func feed(_ string: String) {
        feed(Array(string.utf8))
    }

    private func consume(_ byte: UInt8) {
        switch state {
        case .ground: consumeInGround(byte)
        case .escape: consumeInEscape(byte)
        case .controlSequence: consumeInControlSequence(byte)
        case .string: consumeInString(byte)
        }
    }

    private func consumeInGround(_ byte: UInt8) {
        // Finish or abandon a UTF-8 character in progress.
        if utf8Expected > 0 {
            if byte & 0xC0 == 0x80 {
                utf8Pending.append(byte)
                if utf8Pending.count == utf8Expected { finishUTF8Character() }
                return
            }
            // Not a continuation byte: the character was broken. Show U+FFFD and carry on
            // with this byte as new input.
            utf8Pending = []
            utf8Expected = 0
            printCharacter("\u{FFFD}")
        }
        switch byte {
        case 0x1B:
            state = .escape
            escapeIntermediates = []
        case 0x00..<0x20, 0x7F:
            executeControl(byte)
        case 0x20..<0x7F:
            printCharacter(String(UnicodeScalar(byte)))
        case 0xC2...0xDF: startUTF8Character(byte, length: 2)
        case 0xE0...0xEF: startUTF8Character(byte, length: 3)
        case 0xF0...0xF4: startUTF8Character(byte, length: 4)
        default:
            // A stray continuation byte or a byte that never starts UTF-8.
            printCharacter("\u{FFFD}")
        }
    }

    private func startUTF8Character(_ byte: UInt8, length: Int) {
        utf8Pending = [byte]
        utf8Expected = length
    }

    private func finishUTF8Character() {
        let decoded = String(decoding: utf8Pending, as: UTF8.self)
        utf8Pending = []
        utf8Expected = 0
        printCharacter(decoded)
    }

    /// C0 controls, in the ground state and (as in a real terminal) inside a CSI sequence.
    private func executeControl(_ byte: UInt8) {
        switch byte {
        case 0x07: bellCount += 1                           // BEL
        case 0x08:                                          // BS
            isWrapPending = false
            cursorColumn = max(cursorColumn - 1, 0)
        case 0x09: moveToNextTabStop(count: 1)              // HT
        case 0x0A, 0x0B, 0x0C:                              // LF, VT, FF
            index()
            if isLineFeedNewLine { cursorColumn = 0 }
        case 0x0D:                                          // CR
            isWrapPending = false
            cursorColumn = 0
        case 0x0E: activeCharset = 1                        // SO: use G1
        case 0x0F: activeCharset = 0                        // SI: use G0
        case 0x00, 0x7F: break                              // NUL and DEL: padding, no effect
        default: ignore("C0 0x" + String(byte, radix: 16, uppercase: true))
        }
    }

    private func consumeInEscape(_ byte: UInt8) {
        switch byte {
        case 0x20...0x2F:
            escapeIntermediates.append(byte)
        case 0x1B:
            escapeIntermediates = []                         // ESC ESC: start again
        case 0x00..<0x20:
            executeControl(byte)
        default:
            state = .ground
            dispatchEscape(final: byte)
        }
    }

    private func dispatchEscape(final: UInt8) {
        let intermediates = escapeIntermediates
        escapeIntermediates = []
        if let designator = intermediates.first {
            // ESC ( F designates G0, ESC ) F designates G1; "0" is DEC line drawing, "B" ASCII.
            if intermediates.count == 1, designator == UInt8(ascii: "(") || designator == UInt8(ascii: ")") {
                let slot = designator == UInt8(ascii: "(") ? 0 : 1
                switch final {
                case UInt8(ascii: "0"): charsets[slot] = .lineDrawing
                case UInt8(ascii: "B"): charsets[slot] = .ascii
                default:
                    charsets[slot] = .ascii
                    ignore("ESC " + String(decoding: intermediates + [final], as: UTF8.self))
                }
                return
            }
            ignore("ESC " + String(decoding: intermediates + [final], as: UTF8.self))
            return
        }
        switch final {
        case UInt8(ascii: "["):
            state = .controlSequence
            sequenceBytes = []
        case UInt8(ascii: "]"): startString(.osc)
        case UInt8(ascii: "P"): startString(.dcs)
        case UInt8(ascii: "_"): startString(.apc)
        case UInt8(ascii: "^"): startString(.pm)
        case UInt8(ascii: "X"): startString(.sos)
        case UInt8(ascii: "7"): saveCursor()
        case UInt8(ascii: "8"): restoreCursor()
        case UInt8(ascii: "="): isKeypadApplicationMode = true
        case UInt8(ascii: ">"): isKeypadApplicationMode = false
        case UInt8(ascii: "D"): index()
        case UInt8(ascii: "E"):
            index()
            cursorColumn = 0
        case UInt8(ascii: "M"): reverseIndex()
        case UInt8(ascii: "c"): reset()
        case UInt8(ascii: "\\"): break                      // a stray ST: nothing to end
        default: ignore("ESC " + String(UnicodeScalar(final)))
        }
    }

    private func consumeInControlSequence(_ byte: UInt8) {
        switch byte {
        case 0x40...0x7E:
            state = .ground
            dispatchControlSequence(final: byte)
        case 0x20...0x3F:
            // Parameters and intermediates. A runaway sequence is cut short (and its bytes
            // dropped) rather than growing without bound.
            if sequenceBytes.count < 256 { sequenceBytes.append(byte) }
        case 0x1B:
            // ESC inside a sequence abandons it.
            ignore("CSI " + String(decoding: sequenceBytes, as: UTF8.self) + " (cut off)")
            state = .escape
            escapeIntermediates = []
        case 0x00..<0x20:
            executeControl(byte)
        default:
            // A byte that does not belong in a sequence (DEL or non-ASCII): abandon it.
            ignore("CSI " + String(decoding: sequenceBytes, as: UTF8.self) + " (malformed)")
            state = .ground
        }
    }

    private func startString(_ kind: StringKind) {
        state = .string
        stringKind = kind
        stringHead = []
        stringLength = 0
        stringCursor = (cursorRow, cursorColumn)
        stringSawEscape = false
    }

    private func consumeInString(_ byte: UInt8) {
        if stringSawEscape {
            stringSawEscape = false
            finishString()
            if byte == UInt8(ascii: "\\") { return }         // ESC \ is ST, the normal end
            // Any other ESC x cuts the string short and starts a new escape sequence.
            state = .escape
            escapeIntermediates = []
            consumeInEscape(byte)
            return
        }
        switch byte {
        case 0x1B:
            stringSawEscape = true
        case 0x07 where stringKind == .osc:                  // xterm also ends OSC with BEL
            finishString()
        default:
            // Only the start is kept: kitty image data can run to megabytes.
            if stringHead.count < 40 { stringHead.append(byte) }
            stringLength += 1
        }
    }

    private func finishString() {
        state = .ground
        if stringKind == .apc, stringHead.first == UInt8(ascii: "G") {
            graphicsCommands += 1
            return
        }
        let head = String(decoding: stringHead, as: UTF8.self)
        if stringKind == .osc, let (index, color) = Self.paletteDefinition(head) {
            // A terminal looks entries up when it draws: a cell shows what its entry holds now.
            palette[index] = color
            paletteDefinitions += 1
            return
        }
        if stringKind == .dcs, let cell = cellPixelSize, let raster = head.split(separator: "q", maxSplits: 1).last,
           raster.hasPrefix("\"") {
            let numbers = raster.dropFirst().split(separator: ";").map { Int($0.prefix { $0.isNumber }) ?? 0 }
            if numbers.count >= 4 {
                let cellColumns = (numbers[2] + cell.width - 1) / cell.width
                let cellRows = (numbers[3] + cell.height - 1) / cell.height
                for row in stringCursor.row..<min(rows, stringCursor.row + cellRows) {
                    for column in stringCursor.column..<min(columns, stringCursor.column + cellColumns) {
                        sixelCells.insert(row * columns + column)
                    }
                }
                return
            }
        }
        ignore(stringKind.rawValue + " " + head + (stringLength > stringHead.count ? "…" : ""))
    }

    /// `4;n;rgb:R/G/B` (2 or 4 hex digits per component) as the entry and its colour.
    private static func paletteDefinition(_ body: String) -> (Int, (UInt8, UInt8, UInt8))? {
        let parts = body.split(separator: ";", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "4", let index = Int(parts[1]), (0...255).contains(index), parts[2].hasPrefix("rgb:") else {
            return nil
        }
        let channels = parts[2].dropFirst(4).split(separator: "/").compactMap { part -> UInt8? in
            guard part.count == 2 || part.count == 4, let value = Int(part, radix: 16) else { return nil }
            return UInt8(part.count == 2 ? value : value >> 8)
        }
        return channels.count == 3 ? (index, (channels[0], channels[1], channels[2])) : nil
    }

    private func ignore(_ description: String) {
        ignored.append(description)
    }

    // MARK: Control sequences (CSI)

    /// The parsed parts of "CSI <private marker><parameters><intermediates><final>".
    private struct ControlSequence {
        /// "?", ">", "<" or "=" when the sequence starts with one, else nil.
        var privateMarker: Character?
        /// Parameters split at ";", each split at ":" into sub-parameters; nil for empty.
        var parameters: [[Int?]]
        var intermediates: String
        var final: Character
        var text: String

        /// Parameter `index`, with `defaultValue` when it is missing or 0 (the usual rule for
        /// counts and positions: "CSI 0 A" moves one line, like "CSI A").
        func count(_ index: Int, default defaultValue: Int = 1) -> Int {
            let value = raw(index) ?? 0
            return value == 0 ? defaultValue : value
        }

        /// Parameter `index` as written, nil when missing.
        func raw(_ index: Int) -> Int? {
            index < parameters.count ? parameters[index].first ?? nil : nil
        }
    }

    private func parseControlSequence(final: UInt8) -> ControlSequence {
        var body = String(decoding: sequenceBytes, as: UTF8.self)
        let text = "CSI " + body + String(UnicodeScalar(final))
        var marker: Character?
        if let first = body.first, "?><=".contains(first) {
            marker = first
            body.removeFirst()
        }
        // Intermediates (0x20–0x2F) follow the parameters.
        let intermediates = String(body.drop(while: { !(" !\"#$%&'()*+,-./".contains($0)) }))
        let parameterText = body.prefix(body.count - intermediates.count)
        let parameters: [[Int?]] = parameterText.isEmpty ? [] : parameterText
            .split(separator: ";", omittingEmptySubsequences: false)
            .map { group in
                // Capped so that absurd counts cannot overflow the arithmetic.
                group.split(separator: ":", omittingEmptySubsequences: false).map { Int($0).map { min($0, 99_999) } }
            }
        return ControlSequence(privateMarker: marker, parameters: parameters, intermediates: intermediates,
                               final: Character(UnicodeScalar(final)), text: text)
    }

    private func dispatchControlSequence(final: UInt8) {
        let sequence = parseControlSequence(final: final)
        if sequence.privateMarker == "?" && sequence.intermediates.isEmpty
            && (sequence.final == "h" || sequence.final == "l") {
            setPrivateModes(sequence, on: sequence.final == "h")
            return
        }
        // Everything else with a private marker or intermediates (DA2 "CSI > c", cursor style
        // "CSI 2 SP q", soft reset "CSI ! p", xterm key modifiers "CSI > 4;1 m", …) is not
        // modelled.
        guard sequence.privateMarker == nil, sequence.intermediates.isEmpty else {
            ignore(sequence.text)
            return
        }
        let count = sequence.count(0)
        switch sequence.final {
        case "H", "f":                                      // CUP, HVP
            moveCursor(column: sequence.count(1) - 1, row: sequence.count(0) - 1)
        case "A": moveCursor(column: cursorColumn, row: cursorRow - count, stayingInScrollRegion: true)
        case "B": moveCursor(column: cursorColumn, row: cursorRow + count, stayingInScrollRegion: true)
        case "C": moveCursor(column: cursorColumn + count, row: cursorRow)
        case "D": moveCursor(column: cursorColumn - count, row: cursorRow)
        case "E": moveCursor(column: 0, row: cursorRow + count, stayingInScrollRegion: true)   // CNL
        case "F": moveCursor(column: 0, row: cursorRow - count, stayingInScrollRegion: true)   // CPL
        case "G", "`": moveCursor(column: count - 1, row: cursorRow)                          // CHA, HPA
        case "d": moveCursor(column: cursorColumn, row: count - 1)                            // VPA
        case "I": moveToNextTabStop(count: count)                                             // CHT
        case "Z": moveToPreviousTabStop(count: count)                                         // CBT
        case "J": eraseInDisplay(sequence.raw(0) ?? 0, original: sequence.text)
        case "K": eraseInLine(sequence.raw(0) ?? 0, original: sequence.text)
        case "X":                                                                             // ECH
            isWrapPending = false
            for column in cursorColumn..<min(cursorColumn + count, columns) { erase(column: column, row: cursorRow) }
        case "@": insertCharacters(count)                                                     // ICH
        case "P": deleteCharacters(count)                                                     // DCH
        case "L": insertLines(count)                                                          // IL
        case "M": deleteLines(count)                                                          // DL
        case "S": scrollUp(count)                                                             // SU
        case "T":                                                                             // SD
            // "CSI T" with five parameters is an old mouse tracking request, not a scroll.
            if sequence.parameters.count > 1 { ignore(sequence.text) } else { scrollDown(count) }
        case "b":                                                                             // REP
            if let character = lastPrinted {
                for _ in 0..<min(count, columns * rows) { printCharacter(character) }
            }
        case "r":                                                                             // DECSTBM
            let top = sequence.count(0) - 1
            let bottom = sequence.count(1, default: rows) - 1
            if top < bottom && bottom < rows {
                scrollTop = top
                scrollBottom = bottom
                // Setting the region homes the cursor.
                moveCursor(column: 0, row: 0)
            } else {
                ignore(sequence.text)
            }
        case "m": selectGraphicRendition(sequence)
        case "s": saveCursor()                                                                // SCOSC
        case "u": restoreCursor()                                                             // SCORC
        case "h", "l":
            // ANSI modes: IRM (4) and LNM (20) are modelled.
            for group in sequence.parameters {
                switch group.first ?? nil {
                case 4: isInsertMode = sequence.final == "h"
                case 20: isLineFeedNewLine = sequence.final == "h"
                default: ignore("CSI \((group.first ?? nil) ?? 0)" + String(sequence.final))
                }
            }
        default:
            // DSR "CSI 6 n", DA "CSI c", window operations "CSI … t", tab clear "CSI g", …
            ignore(sequence.text)
        }
    }

    private func setPrivateModes(_ sequence: ControlSequence, on: Bool) {
        for group in sequence.parameters {
            guard let mode = group.first ?? nil else { continue }
            switch mode {
            case 7: isAutoWrapOn = on
            case 25: isCursorVisible = on
            case 47, 1047: switchScreen(toAlternate: on, savingCursor: false)
            case 1049: switchScreen(toAlternate: on, savingCursor: true)
            case 2026:
                if on { synchronizedUpdates += 1 }
                isInSynchronizedUpdate = on
            default: ignore("CSI ?\(mode)" + (on ? "h" : "l"))
            }
        }
    }

    // MARK: SGR

    private func selectGraphicRendition(_ sequence: ControlSequence) {
        let groups = sequence.parameters.isEmpty ? [[0]] : sequence.parameters
        var index = 0
        while index < groups.count {
            let group = groups[index]
            let code = (group.first ?? nil) ?? 0
            index += 1
            switch code {
            case 0: pen = Cell()
            case 1: pen.isBold = true
            case 2: pen.isDim = true
            case 4: pen.isUnderlined = true
            case 7: pen.isReverse = true
            case 22:
                pen.isBold = false
                pen.isDim = false
            case 24: pen.isUnderlined = false
            case 27: pen.isReverse = false
            case 30...37: pen.foreground = .palette(code - 30)
            case 39: pen.foreground = .default
            case 40...47: pen.background = .palette(code - 40)
            case 49: pen.background = .default
            case 90...97: pen.foreground = .palette(code - 90 + 8)
            case 100...107: pen.background = .palette(code - 100 + 8)
            case 38, 48:
                let color: Color?
                if group.count > 1 {
                    // Colon form, all in one parameter: 38:5:n, 38:2::r:g:b (with an empty
                    // colour space id) or 38:2:r:g:b (without one, as some programs write it).
                    color = extendedColor(Array(group.dropFirst()), colonForm: true)
                } else {
                    // Semicolon form: 38;5;n or 38;2;r;g;b over the following parameters.
                    let rest = groups[index...].map { ($0.first ?? nil) }
                    color = extendedColor(rest, colonForm: false)
                    let kind = rest.first ?? nil
                    index += kind == 5 ? 2 : kind == 2 ? 4 : 1
                }
                if let color {
                    if code == 38 { pen.foreground = color } else { pen.background = color }
                } else {
                    ignore(sequence.text)
                }
            default:
                // Italic, blink, invisible, strike-through, underline styles, … and the
                // out-of-range colours an 8-colour terminfo entry produces ("CSI 312 m").
                ignore("SGR \(code) in " + sequence.text)
            }
        }
    }

    /// Reads "5;n" or "2;r;g;b" (in `values`, after the 38 or 48).
    private func extendedColor(_ values: [Int?], colonForm: Bool) -> Color? {
        guard let kind = values.first ?? nil else { return nil }
        func byte(_ value: Int?) -> UInt8? {
            guard let value, (0...255).contains(value) else { return nil }
            return UInt8(value)
        }
        switch kind {
        case 5:
            guard values.count > 1, let index = byte(values[1]) else { return nil }
            return .palette(Int(index))
        case 2:
            // Colon form with a colour space slot: 2, id, r, g, b.
            let start = colonForm && values.count >= 5 ? 2 : 1
            guard values.count >= start + 3,
                  let red = byte(values[start]), let green = byte(values[start + 1]),
                  let blue = byte(values[start + 2]) else { return nil }
            return .rgb(red, green, blue)
        default:
            return nil
        }
    }

    // MARK: Printing

    private func printCharacter(_ text: String) {
        var character = text
        // DEC line drawing replaces some ASCII letters with box pieces.
        if charsets[activeCharset] == .lineDrawing, text.unicodeScalars.count == 1,
           let scalar = text.unicodeScalars.first, scalar.isASCII,
           let mapped = Self.lineDrawing[Character(scalar)] {
            character = String(mapped)
        }

        // Combining marks join the character before them instead of taking a cell.
        if isZeroWidth(character) {
            attachToPreviousCell(character)
            return
        }

        let width = isWide(character) ? 2 : 1
        if isWrapPending && isAutoWrapOn {
            cursorColumn = 0
            index()
        }
        isWrapPending = false
        if width == 2 && cursorColumn == columns - 1 && columns > 1 {
            // A wide character does not fit in the last column: wrap it whole (or, without
            // auto-wrap, put it one column earlier).
            if isAutoWrapOn {
                erase(column: cursorColumn, row: cursorRow)
                cursorColumn = 0
                index()
            } else {
                cursorColumn -= 1
            }
        }

        if isInsertMode { insertCharacters(width) }
        put(character, column: cursorColumn, row: cursorRow)
        if width == 2 && columns > 1 {
            put("", column: cursorColumn + 1, row: cursorRow)
        }
        lastPrinted = character

        let next = cursorColumn + width
        if next >= columns {
            // Stay on the last column; the next character wraps first.
            cursorColumn = columns - 1
            isWrapPending = true
        } else {
            cursorColumn = next
        }
    }

    /// Writes one cell with the pen, first breaking up any wide character it overlaps.
    private func put(_ character: String, column: Int, row: Int) {
        splitWideCharacter(at: column, row: row)
        var cell = pen
        cell.character = character
        grid[row][column] = cell
        sixelCells.remove(row * columns + column)
    }

    /// When a cell that is half of a wide character changes, the other half becomes a space.
    private func splitWideCharacter(at column: Int, row: Int) {
        let cell = grid[row][column]
        if cell.isWideContinuation, column > 0 {
            grid[row][column - 1].character = " "
        } else if column + 1 < columns, grid[row][column + 1].isWideContinuation {
            grid[row][column + 1].character = " "
        }
    }

    private func attachToPreviousCell(_ mark: String) {
        var column = isWrapPending ? cursorColumn : cursorColumn - 1
        guard column >= 0 else { return }
        if grid[cursorRow][column].isWideContinuation && column > 0 { column -= 1 }
        grid[cursorRow][column].character += mark
    }

    // MARK: Cursor movement and scrolling

    private func moveCursor(column: Int, row: Int, stayingInScrollRegion: Bool = false) {
        isWrapPending = false
        var lowest = 0
        var highest = rows - 1
        // CUU and CUD stop at the margins when the cursor starts inside the region.
        if stayingInScrollRegion && cursorRow >= scrollTop && cursorRow <= scrollBottom {
            lowest = scrollTop
            highest = scrollBottom
        }
        cursorColumn = min(max(column, 0), columns - 1)
        cursorRow = min(max(row, lowest), highest)
    }

    private func moveToNextTabStop(count: Int) {
        isWrapPending = false
        for _ in 0..<count {
            cursorColumn = min((cursorColumn / 8 + 1) * 8, columns - 1)
        }
    }

    private func moveToPreviousTabStop(count: Int) {
        isWrapPending = false
        for _ in 0..<count {
            cursorColumn = max(((cursorColumn - 1) / 8) * 8, 0)
        }
    }

    /// IND / LF: down one line, scrolling the region when at its bottom margin.
    private func index() {
        isWrapPending = false
        if cursorRow == scrollBottom {
            scrollUp(1)
        } else if cursorRow < rows - 1 {
            cursorRow += 1
        }
    }

    /// RI: up one line, scrolling the region down when at its top margin.
    private func reverseIndex() {
        isWrapPending = false
        if cursorRow == scrollTop {
            scrollDown(1)
        } else if cursorRow > 0 {
            cursorRow -= 1
        }
    }

    private func blankLine() -> [Cell] {
        Array(repeating: Cell(background: pen.background), count: columns)
    }

    /// Moves the lines of the scroll region up by `count`, blank lines coming in at the bottom.
    private func scrollUp(_ count: Int) {
        let amount = min(count, scrollBottom - scrollTop + 1)
        grid.removeSubrange(scrollTop..<(scrollTop + amount))
        grid.insert(contentsOf: Array(repeating: blankLine(), count: amount), at: scrollBottom - amount + 1)
    }

    /// Moves the lines of the scroll region down by `count`, blank lines coming in at the top.
    private func scrollDown(_ count: Int) {
        let amount = min(count, scrollBottom - scrollTop + 1)
        grid.removeSubrange((scrollBottom - amount + 1)...scrollBottom)
        grid.insert(contentsOf: Array(repeating: blankLine(), count: amount), at: scrollTop)
    }

    private func insertLines(_ count: Int) {
        guard cursorRow >= scrollTop && cursorRow <= scrollBottom else { return }
        let amount = min(count, scrollBottom - cursorRow + 1)
        grid.removeSubrange((scrollBottom - amount + 1)...scrollBottom)
        grid.insert(contentsOf: Array(repeating: blankLine(), count: amount), at: cursorRow)
        cursorColumn = 0
        isWrapPending = false
    }

    private func deleteLines(_ count: Int) {
        guard cursorRow >= scrollTop && cursorRow <= scrollBottom else { return }
        let amount = min(count, scrollBottom - cursorRow + 1)
        grid.removeSubrange(cursorRow..<(cursorRow + amount))
        grid.insert(contentsOf: Array(repeating: blankLine(), count: amount), at: scrollBottom - amount + 1)
        cursorColumn = 0
        isWrapPending = false
    }

    private func insertCharacters(_ count: Int) {
        isWrapPending = false
        let amount = min(count, columns - cursorColumn)
        splitWideCharacter(at: cursorColumn, row: cursorRow)
        var line = grid[cursorRow]
        line.removeLast(amount)
        line.insert(contentsOf: Array(repeating: Cell(background: pen.background), count: amount), at: cursorColumn)
        grid[cursorRow] = line
    }

    private func deleteCharacters(_ count: Int) {
        isWrapPending = false
        let amount = min(count, columns - cursorColumn)
        splitWideCharacter(at: cursorColumn, row: cursorRow)
        var line = grid[cursorRow]
        line.removeSubrange(cursorColumn..<(cursorColumn + amount))
        line += Array(repeating: Cell(background: pen.background), count: amount)
        grid[cursorRow] = line
    }

    // MARK: Erasing

    private func erase(column: Int, row: Int) {
        splitWideCharacter(at: column, row: row)
        grid[row][column] = Cell(background: pen.background)
        sixelCells.remove(row * columns + column)
    }

    private func eraseInLine(_ mode: Int, original: String) {
        isWrapPending = false
        let range: ClosedRange<Int>
        switch mode {
        case 0: range = cursorColumn...(columns - 1)
        case 1: range = 0...cursorColumn
        case 2: range = 0...(columns - 1)
        default:
            ignore(original)
            return
        }
        for column in range { erase(column: column, row: cursorRow) }
    }

    private func eraseInDisplay(_ mode: Int, original: String) {
        isWrapPending = false
        switch mode {
        case 0:
            eraseInLine(0, original: original)
            for row in (cursorRow + 1)..<rows { grid[row] = blankLine() }
            sixelCells = sixelCells.filter { $0 / columns <= cursorRow }
        case 1:
            eraseInLine(1, original: original)
            for row in 0..<cursorRow { grid[row] = blankLine() }
            sixelCells = sixelCells.filter { $0 / columns >= cursorRow }
        case 2:
            for row in 0..<rows { grid[row] = blankLine() }
            sixelCells.removeAll()
        case 3:
            break   // erase saved lines: there is no scrollback to erase
        default:
            ignore(original)
        }
    }

    // MARK: Saved cursor, alternate screen, reset

    private func currentCursor() -> SavedCursor {
        SavedCursor(column: cursorColumn, row: cursorRow, pen: pen, isWrapPending: isWrapPending,
                    charsets: charsets, activeCharset: activeCharset)
    }

    private func apply(_ saved: SavedCursor) {
        cursorColumn = min(saved.column, columns - 1)
        cursorRow = min(saved.row, rows - 1)
        pen = saved.pen
        isWrapPending = saved.isWrapPending
        charsets = saved.charsets
        activeCharset = saved.activeCharset
    }

    private func saveCursor() {
        savedCursor = currentCursor()
    }

    /// Without a saved cursor, DECRC goes home with default attributes, as in xterm.
    private func restoreCursor() {
        apply(savedCursor ?? SavedCursor(column: 0, row: 0, pen: Cell(), isWrapPending: false,
                                         charsets: [.ascii, .ascii], activeCharset: 0))
    }

    private func switchScreen(toAlternate: Bool, savingCursor: Bool) {
        guard toAlternate != isAlternateScreen else { return }
        if toAlternate {
            if savingCursor { savedCursorForAlternateScreen = currentCursor() }
            savedMainGrid = grid
            isAlternateScreen = true
            // The alternate screen starts out clear (in the current background, as xterm does).
            grid = Array(repeating: blankLine(), count: rows)
        } else {
            grid = savedMainGrid ?? grid
            savedMainGrid = nil
            isAlternateScreen = false
            if savingCursor, let saved = savedCursorForAlternateScreen { apply(saved) }
        }
        isWrapPending = false
    }

    /// RIS (ESC c): back to the state of a new screen of the same size.
    private func reset() {
        let kept = (ignored, graphicsCommands, bellCount, synchronizedUpdates)
        grid = Array(repeating: Array(repeating: Cell(), count: columns), count: rows)
        savedMainGrid = nil
        pen = Cell()
        cursorColumn = 0
        cursorRow = 0
        isWrapPending = false
        isCursorVisible = true
        isAlternateScreen = false
        isKeypadApplicationMode = false
        isAutoWrapOn = true
        isInsertMode = false
        isInSynchronizedUpdate = false
        isLineFeedNewLine = false
        scrollTop = 0
        scrollBottom = rows - 1
        charsets = [.ascii, .ascii]
        activeCharset = 0
        lastPrinted = nil
        savedCursor = nil
        savedCursorForAlternateScreen = nil
        (ignored, graphicsCommands, bellCount, synchronizedUpdates) = kept
    }

    // MARK: Reading the screen

    /// The cell at a 0-based position.
    public func cell(column: Int, row: Int) -> Cell {
        precondition(column >= 0 && column < columns && row >= 0 && row < rows,
                     "cell (\(column), \(row)) is outside the \(columns)×\(rows) screen")
        return grid[row][column]
    }

    /// The text of a row with trailing spaces removed. Wide characters appear once.
    public func text(row: Int) -> String {
        var line = grid[row].map(\.character).joined()
        while line.last == " " { line.removeLast() }
        return line
    }

    /// Every row's text, top to bottom.
    public var lines: [String] {
        (0..<rows).map { text(row: $0) }
    }

    /// The whole screen as text, rows joined by "\n" (trailing spaces of each row removed).
    public var text: String {
        lines.joined(separator: "\n")
    }

    /// Whether some row contains `text` (it does not match across rows).
    public func contains(_ text: String) -> Bool {
        find(text) != nil
    }

    /// Where `text` first appears, scanning rows from the top: the column of its first
    /// character and its row, both 0-based. Wide characters count their two columns.
    public func find(_ text: String) -> (column: Int, row: Int)? {
        for row in 0..<rows {
            if let column = find(text, inRow: row) { return (column, row) }
        }
        return nil
    }

    /// The column where `text` first appears in `row`, or nil.
    public func find(_ text: String, inRow row: Int) -> Int? {
        let wanted = Array(text)
        guard !wanted.isEmpty else { return 0 }
        // One entry per shown character, with the column it starts at.
        var characters: [Character] = []
        var startColumns: [Int] = []
        for (column, cell) in grid[row].enumerated() where !cell.isWideContinuation {
            // A cell holds one grapheme, but a stray combining mark at column 0 could make
            // more than one; take them all so nothing is lost.
            for character in cell.character {
                characters.append(character)
                startColumns.append(column)
            }
        }
        guard characters.count >= wanted.count else { return nil }
        for start in 0...(characters.count - wanted.count)
        where characters[start..<(start + wanted.count)].elementsEqual(wanted) {
            return startColumns[start]
        }
        return nil
    }

    /// How many cells show exactly `character`.
    public func count(of character: String) -> Int {
        grid.reduce(0) { total, line in total + line.filter { $0.character == character }.count }
    }

    /// The colours a cell is shown in: its foreground and background, swapped for reverse video.
    public func effectiveColors(column: Int, row: Int) -> (foreground: Color, background: Color) {
        let cell = cell(column: column, row: row)
        return cell.isReverse ? (cell.background, cell.foreground) : (cell.foreground, cell.background)
    }

    /// `effectiveColors` as RGB. Note that a reversed default colour becomes the other default
    /// (reversed default text is default-background on default-foreground).
    public func effectiveRGB(column: Int, row: Int)
        -> (foreground: (UInt8, UInt8, UInt8), background: (UInt8, UInt8, UInt8)) {
        let cell = cell(column: column, row: row)
        let foreground = resolvedRGB(cell.foreground, isForeground: true)
        let background = resolvedRGB(cell.background, isForeground: false)
        return cell.isReverse ? (background, foreground) : (foreground, background)
    }

    /// The RGB value of a colour, palette entries as redefined by `OSC 4` or else xterm's
    /// defaults. `isForeground` picks which default `.default` means.
    public func resolvedRGB(_ color: Color, isForeground: Bool) -> (UInt8, UInt8, UInt8) {
        switch color {
        case .default:
            return isForeground ? defaultForeground : defaultBackground
        case .rgb(let red, let green, let blue):
            return (red, green, blue)
        case .palette(let index):
            return palette[index] ?? Self.paletteRGB(index)
        }
    }

    /// xterm's default palette entry `index` (0–255; out of range is clamped).
    public static func paletteRGB(_ index: Int) -> (UInt8, UInt8, UInt8) {
        let index = min(max(index, 0), 255)
        switch index {
        case 0..<16:
            return standardColors[index]
        case 16..<232:
            // The 6×6×6 cube: each component steps through 0, 95, 135, 175, 215, 255.
            let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
            let cube = index - 16
            return (levels[cube / 36], levels[(cube / 6) % 6], levels[cube % 6])
        default:
            // The grey ramp from 8 to 238 in steps of 10.
            let grey = UInt8(8 + (index - 232) * 10)
            return (grey, grey, grey)
        }
    }

    // MARK: Tables

    /// xterm's 16 standard colours (its defaults for colour0 to colour15).
    private static let standardColors: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0),
        (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
        (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    /// The DEC Special Graphics set: what the ASCII characters 0x60–0x7E show as when the
    /// line-drawing charset is selected (ESC ( 0). ncurses draws its boxes with "lqk", "x",
    /// "mqj" and the tees "tuvwn".
    private static let lineDrawing: [Character: Character] = [
        "`": "◆", "a": "▒", "f": "°", "g": "±", "h": "␤", "i": "␋",
        "j": "┘", "k": "┐", "l": "┌", "m": "└", "n": "┼",
        "o": "⎺", "p": "⎻", "q": "─", "r": "⎼", "s": "⎽",
        "t": "├", "u": "┤", "v": "┴", "w": "┬", "x": "│",
        "y": "≤", "z": "≥", "{": "π", "|": "≠", "}": "£", "~": "·",
    ]

    // MARK: Character width

    /// Whether a character takes two cells: East Asian wide and fullwidth ranges and the
    /// main emoji blocks. A rough table on purpose (see the note at the top of the file).
    private func isWide(_ character: String) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x1100...0x115F,      // Hangul Jamo initial consonants
             0x2E80...0x303E,      // CJK radicals, punctuation
             0x3041...0x33FF,      // Hiragana, Katakana, CJK compatibility
             0x3400...0x4DBF,      // CJK extension A
             0x4E00...0x9FFF,      // CJK unified ideographs
             0xA000...0xA4CF,      // Yi
             0xAC00...0xD7A3,      // Hangul syllables
             0xF900...0xFAFF,      // CJK compatibility ideographs
             0xFE30...0xFE4F,      // CJK compatibility forms
             0xFF00...0xFF60,      // fullwidth forms
             0xFFE0...0xFFE6,
             0x1F300...0x1F64F,    // pictographs, emoticons
             0x1F900...0x1F9FF,    // supplemental symbols and pictographs
             0x20000...0x3FFFD:    // CJK extensions B and later
            return true
        default:
            return false
        }
    }

    /// Whether a character is only a mark on the one before it.
    private func isZeroWidth(_ character: String) -> Bool {
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x0300...0x036F,      // combining diacritical marks
             0x200B...0x200F,      // zero-width space, joiners, direction marks
             0x20D0...0x20FF,      // combining marks for symbols
             0xFE00...0xFE0F:      // variation selectors
            return true
        default:
            return false
        }
    }
}
