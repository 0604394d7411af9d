import Render
import XCTest

/// A small VT model for checking the encoder: it applies CUP, CUF, SGR (0, 30–37, 40–47,
/// 90–97, 100–107, 38;2, 48;2, 38;5, 48;5), palette definitions (`OSC 4 ; n ; rgb:…`),
/// synchronized output and UTF-8 text to a grid, and rejects anything else. A cell keeps the
/// palette index it was drawn with and shows whatever that entry holds now, as xterm's do; an
/// entry redefined while a cell shows it is recorded in `paletteViolations`. It also records the encoder's wasted bytes: SGRs that set a colour
/// already in effect and cursor moves to where the cursor already is.
final class VirtualTerminal {
    enum Color: Equatable, CustomStringConvertible {
        case unset
        case rgb(UInt32)
        case index(Int)

        var description: String {
            switch self {
            case .unset: return "unset"
            case let .rgb(v): return RGBColor(rawValue: v).description
            case let .index(n): return "idx\(n)"
            }
        }
    }

    struct Glyph: Equatable {
        var character: UInt32
        var foreground: Color
        var background: Color
    }

    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    let columns: Int
    let rows: Int
    private(set) var cells: [Glyph]
    private(set) var cursorRow = 0
    private(set) var cursorColumn = 0
    private var wrapPending = false
    /// The encoder learns the cursor position from its first move of each frame.
    private var positionKnownToWriter = false
    private(set) var foreground = Color.unset
    private(set) var background = Color.unset
    private(set) var synchronized = false
    /// Problems that are not wrong output but wasted bytes.
    private(set) var waste: [String] = []
    /// Glyphs written by the last `feed`.
    private(set) var glyphsWritten = 0
    private(set) var synchronizedBlocks = 0
    /// The last character printed (what REP repeats), and how many REPs were seen.
    private var lastPrinted: UInt32?
    private(set) var repeats = 0
    /// Palette entries redefined by `OSC 4` (index → 0xRRGGBB); the rest are xterm's defaults.
    private(set) var palette: [Int: UInt32] = [:]
    private(set) var paletteDefinitions = 0
    /// Entries redefined while a cell showed them (the picture changed colour under the encoder).
    private(set) var paletteViolations: [String] = []

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        // Garbage the encoder must overwrite.
        cells = [Glyph](repeating: Glyph(character: 0x23, foreground: .unset, background: .unset), count: columns * rows)
    }

    func glyph(column: Int, row: Int) -> Glyph { cells[row * columns + column] }

    func feed(_ bytes: [UInt8]) throws {
        glyphsWritten = 0
        positionKnownToWriter = false
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 0x1B {
                i = try parseEscape(bytes, from: i)
                continue
            }
            var scalar: UInt32
            var length: Int
            switch byte {
            case 0x20..<0x7F: scalar = UInt32(byte); length = 1
            case 0xC0..<0xE0: scalar = UInt32(byte & 0x1F); length = 2
            case 0xE0..<0xF0: scalar = UInt32(byte & 0x0F); length = 3
            case 0xF0..<0xF8: scalar = UInt32(byte & 0x07); length = 4
            default: throw ParseError(description: "unexpected byte \(byte) at \(i)")
            }
            guard i + length <= bytes.count else { throw ParseError(description: "truncated UTF-8 at \(i)") }
            for k in 1..<length {
                scalar = scalar << 6 | UInt32(bytes[i + k] & 0x3F)
            }
            try print(scalar)
            i += length
        }
        if synchronized { throw ParseError(description: "synchronized output left on") }
    }

    private func print(_ scalar: UInt32) throws {
        if wrapPending {
            wrapPending = false
            cursorColumn = 0
            cursorRow += 1
            guard cursorRow < rows else { throw ParseError(description: "wrote past the bottom-right cell (would scroll)") }
        }
        cells[cursorRow * columns + cursorColumn] = Glyph(character: scalar, foreground: foreground, background: background)
        lastPrinted = scalar
        glyphsWritten += 1
        if cursorColumn == columns - 1 { wrapPending = true } else { cursorColumn += 1 }
    }

    /// The colour a cell's colour shows now (an index through the palette as it is).
    func resolved(_ color: Color) -> Color {
        guard case .index(let index) = color, index >= 16 else { return color }
        return .rgb(palette[index] ?? PaletteMatcher.color(ofIndex: UInt8(index)).rawValue)
    }

    /// `OSC … ST` (or BEL): only `4 ; n ; rgb:RR/GG/BB` (2 or 4 hex digits) is known.
    private func parseOSC(_ bytes: [UInt8], from start: Int) throws -> Int {
        var end = start + 2
        while end < bytes.count && bytes[end] != 0x07 && !(bytes[end] == 0x1B && end + 1 < bytes.count && bytes[end + 1] == 0x5C) {
            end += 1
        }
        guard end < bytes.count else { throw ParseError(description: "unterminated OSC at \(start)") }
        let body = String(decoding: bytes[(start + 2)..<end], as: UTF8.self)
        let parts = body.split(separator: ";", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "4", let index = Int(parts[1]), (16...255).contains(index), parts[2].hasPrefix("rgb:") else {
            throw ParseError(description: "unsupported OSC \(body)")
        }
        let components = parts[2].dropFirst(4).split(separator: "/").map { part -> Int? in
            guard part.count == 2 || part.count == 4, let value = Int(part, radix: 16) else { return nil }
            return part.count == 2 ? value : value >> 8
        }
        guard components.count == 3, let r = components[0], let g = components[1], let b = components[2] else {
            throw ParseError(description: "bad OSC 4 colour \(body)")
        }
        if let cell = cells.firstIndex(where: { showsIndex($0, index) }) {
            paletteViolations.append("entry \(index) redefined while cell (\(cell % columns), \(cell / columns)) shows it")
        }
        palette[index] = UInt32(r << 16 | g << 8 | b)
        paletteDefinitions += 1
        return bytes[end] == 0x07 ? end + 1 : end + 2
    }

    /// Whether a person sees palette entry `index` in this cell.
    private func showsIndex(_ glyph: Glyph, _ index: Int) -> Bool {
        let visible = VisibleCell(character: glyph.character, foreground: glyph.foreground, background: glyph.background)
        return visible.background == .index(index) || visible.foreground == .index(index)
    }

    private func parseEscape(_ bytes: [UInt8], from start: Int) throws -> Int {
        if start + 1 < bytes.count, bytes[start + 1] == 0x5D { return try parseOSC(bytes, from: start) }
        guard start + 1 < bytes.count, bytes[start + 1] == 0x5B else { throw ParseError(description: "ESC not followed by [ at \(start)") }
        var i = start + 2
        var isPrivate = false
        if i < bytes.count && bytes[i] == 0x3F { isPrivate = true; i += 1 }
        var parameters: [Int?] = []
        var current: Int? = nil
        while i < bytes.count {
            let byte = bytes[i]
            if byte >= 0x30 && byte <= 0x39 {
                current = (current ?? 0) * 10 + Int(byte - 0x30)
            } else if byte == 0x3B {
                parameters.append(current)
                current = nil
            } else {
                parameters.append(current)
                try apply(final: byte, parameters: parameters, isPrivate: isPrivate)
                return i + 1
            }
            i += 1
        }
        throw ParseError(description: "unterminated CSI at \(start)")
    }

    private func apply(final: UInt8, parameters: [Int?], isPrivate: Bool) throws {
        switch (final, isPrivate) {
        case (0x48, false):  // H
            let row = (parameters.first ?? nil) ?? 1
            let column = (parameters.count > 1 ? parameters[1] : nil) ?? 1
            guard row >= 1, row <= rows, column >= 1, column <= columns else {
                throw ParseError(description: "CUP \(row);\(column) outside \(columns)x\(rows)")
            }
            if positionKnownToWriter && !wrapPending && row - 1 == cursorRow && column - 1 == cursorColumn {
                waste.append("CUP to current position")
            }
            positionKnownToWriter = true
            cursorRow = row - 1
            cursorColumn = column - 1
            wrapPending = false
        case (0x43, false):  // C
            let count = max(1, (parameters.first ?? nil) ?? 1)
            guard !wrapPending, cursorColumn + count < columns else { throw ParseError(description: "CUF \(count) past the right edge") }
            cursorColumn += count
        case (0x50, false), (0x40, false):  // P: DCH, @: ICH (blanks in the current colours)
            let count = max(1, (parameters.first ?? nil) ?? 1)
            let rowStart = cursorRow * columns
            var line = Array(cells[rowStart..<(rowStart + columns)])
            let blank = Glyph(character: Cell.space, foreground: foreground, background: background)
            let n = min(count, columns - cursorColumn)
            if final == 0x50 {
                line.removeSubrange(cursorColumn..<(cursorColumn + n))
                line += Array(repeating: blank, count: n)
            } else {
                line.insert(contentsOf: Array(repeating: blank, count: n), at: cursorColumn)
                line.removeLast(n)
            }
            cells.replaceSubrange(rowStart..<(rowStart + columns), with: line)
            wrapPending = false
        case (0x62, false):  // b: REP, the last character again
            guard let character = lastPrinted else { throw ParseError(description: "REP with nothing printed before") }
            let count = max(1, (parameters.first ?? nil) ?? 1)
            repeats += 1
            for _ in 0..<count { try print(character) }
        case (0x6D, false):  // m
            try applySGR(parameters.map { $0 ?? 0 })
        case (0x68, true), (0x6C, true):  // ?…h / ?…l
            guard parameters == [2026] else { throw ParseError(description: "unexpected private mode \(parameters)") }
            let on = final == 0x68
            guard on != synchronized else { throw ParseError(description: "synchronized output toggled twice") }
            synchronized = on
            if on { synchronizedBlocks += 1 }
        default:
            throw ParseError(description: "unsupported CSI final \(UnicodeScalar(final)) private=\(isPrivate)")
        }
    }

    private func applySGR(_ parameters: [Int]) throws {
        var i = 0
        func set(_ color: Color, foreground isForeground: Bool) {
            if isForeground {
                if foreground == color { waste.append("SGR repeats foreground \(color)") }
                foreground = color
            } else {
                if background == color { waste.append("SGR repeats background \(color)") }
                background = color
            }
        }
        while i < parameters.count {
            let p = parameters[i]
            switch p {
            case 0:
                foreground = .unset
                background = .unset
                i += 1
            case 30...37: set(.index(p - 30), foreground: true); i += 1
            case 90...97: set(.index(p - 90 + 8), foreground: true); i += 1
            case 40...47: set(.index(p - 40), foreground: false); i += 1
            case 100...107: set(.index(p - 100 + 8), foreground: false); i += 1
            case 38, 48:
                guard i + 1 < parameters.count else { throw ParseError(description: "truncated SGR \(parameters)") }
                if parameters[i + 1] == 2 {
                    guard i + 4 < parameters.count else { throw ParseError(description: "truncated SGR \(parameters)") }
                    let (r, g, b) = (parameters[i + 2], parameters[i + 3], parameters[i + 4])
                    guard (0...255).contains(r), (0...255).contains(g), (0...255).contains(b) else {
                        throw ParseError(description: "SGR colour out of range \(parameters)")
                    }
                    set(.rgb(UInt32(r << 16 | g << 8 | b)), foreground: p == 38)
                    i += 5
                } else if parameters[i + 1] == 5 {
                    guard i + 2 < parameters.count, (0...255).contains(parameters[i + 2]) else {
                        throw ParseError(description: "bad 256-colour SGR \(parameters)")
                    }
                    set(.index(parameters[i + 2]), foreground: p == 38)
                    i += 3
                } else {
                    throw ParseError(description: "unsupported SGR \(parameters)")
                }
            default:
                throw ParseError(description: "unsupported SGR parameter \(p) in \(parameters)")
            }
        }
    }
}

/// What a person sees in one cell: a space (or a half block in one colour) shows only its
/// background, so the foreground is dropped there.
struct VisibleCell: Equatable, CustomStringConvertible {
    var character: UInt32
    var foreground: VirtualTerminal.Color?
    var background: VirtualTerminal.Color

    init(character: UInt32, foreground: VirtualTerminal.Color, background: VirtualTerminal.Color) {
        // `▄` is `▀` with the colours swapped, `█` a cell all foreground: the same picture.
        var character = character, foreground = foreground, background = background
        if character == 0x2584 {
            character = Cell.upperHalfBlock
            swap(&foreground, &background)
        } else if character == 0x2588 {
            character = Cell.space
            background = foreground
        }
        if character == Cell.space || (character == Cell.upperHalfBlock && foreground == background) {
            self.character = Cell.space
            self.foreground = nil
        } else {
            self.character = character
            self.foreground = foreground
        }
        self.background = background
    }

    var description: String {
        "\(UnicodeScalar(character).map { String($0) } ?? "?") fg \(foreground?.description ?? "-") bg \(background)"
    }
}

/// The colour a mode should put on screen for `color`.
func expectedColor(_ color: RGBColor, mode: ColorMode) -> VirtualTerminal.Color {
    switch mode {
    case .trueColor: return .rgb(color.rawValue)
    case .palette256: return .index(Int(PaletteMatcher.nearest256(color)))
    case .palette16: return .index(Int(PaletteMatcher.nearest16(color)))
    }
}

/// In 24-bit mode the encoder sends a colour that is exactly a palette entry 16–255, or one it
/// defined, by index: the colour the terminal shows for it.
func shown(_ color: VirtualTerminal.Color, mode: ColorMode, on terminal: VirtualTerminal) -> VirtualTerminal.Color {
    mode == .trueColor ? terminal.resolved(color) : color
}

/// Fails unless every cell of `terminal` looks like the canvas cell reduced to `mode`.
func assertScreen(_ terminal: VirtualTerminal, shows canvas: CellCanvas, mode: ColorMode, _ context: String,
                  file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(terminal.columns, canvas.columns, file: file, line: line)
    XCTAssertEqual(terminal.rows, canvas.rows, file: file, line: line)
    var mismatches = 0
    for row in 0..<canvas.rows {
        for column in 0..<canvas.columns {
            let cell = canvas[column, row]
            let expected = VisibleCell(character: cell.character, foreground: expectedColor(cell.foreground, mode: mode),
                                       background: expectedColor(cell.background, mode: mode))
            let glyph = terminal.glyph(column: column, row: row)
            let actual = VisibleCell(character: glyph.character, foreground: shown(glyph.foreground, mode: mode, on: terminal),
                                     background: shown(glyph.background, mode: mode, on: terminal))
            if expected != actual {
                mismatches += 1
                if mismatches <= 3 {
                    XCTFail("\(context): cell (\(column), \(row)) shows \(actual), expected \(expected)", file: file, line: line)
                }
            }
        }
    }
    XCTAssertEqual(mismatches, 0, "\(context): mismatched cells", file: file, line: line)
}
