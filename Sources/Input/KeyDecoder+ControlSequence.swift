/// CSI sequences: legacy function keys, the kitty keyboard protocol, SGR mouse, focus, paste
/// start, and replies to our queries.
extension KeyDecoder {
    /// `ESC [ params intermediates final`. Parameter bytes are 0x30...0x3F, intermediates
    /// 0x20...0x2F, the final byte 0x40...0x7E (ECMA-48).
    static func controlSequence(_ bytes: [UInt8], at index: Int, atDeadline: Bool) -> Step {
        var position = index + 2
        // xterm's pixel mouse reports (mode 1016) say `-1` for its border above or left of the
        // first cell: in a `CSI <` report, `-` is part of a number, not an intermediate byte.
        let signed = position < bytes.count && bytes[position] == UInt8(ascii: "<")
        while position < bytes.count,
              (0x30...0x3F).contains(bytes[position]) || (signed && bytes[position] == UInt8(ascii: "-")) { position += 1 }
        let parameterEnd = position
        while position < bytes.count, (0x20...0x2F).contains(bytes[position]) { position += 1 }
        guard position < bytes.count else {
            if atDeadline {
                // `ESC [` alone is Alt+[; a longer unfinished sequence is dropped.
                if bytes.count - index == 2 {
                    return .consumed(.key(KeyEvent(.character("["), modifiers: .alt)), length: 2)
                }
                return .consumed(nil, length: bytes.count - index)
            }
            return bytes.count - index > maximumSequenceLength ? .consumed(nil, length: bytes.count - index) : .incomplete
        }
        let final = bytes[position]
        guard (0x40...0x7E).contains(final) else {
            // A byte that can't be in a sequence: drop what we have and decode that byte on its own.
            return .consumed(nil, length: position - index)
        }
        let length = position + 1 - index
        let hasIntermediates = parameterEnd != position
        if final == UInt8(ascii: "R"), !hasIntermediates,
           let report = cursorPositionReport(bytes, from: index + 2, to: parameterEnd) {
            return .consumed(report, length: length)
        }
        let parameters = Array(bytes[(index + 2)..<parameterEnd])
        // X10 mouse report `CSI M b x y`: three raw bytes follow; skip them.
        if final == UInt8(ascii: "M"), parameters.isEmpty, !hasIntermediates {
            if index + length + 3 <= bytes.count { return .consumed(nil, length: length + 3) }
            return atDeadline ? .consumed(nil, length: bytes.count - index) : .incomplete
        }
        if hasIntermediates {
            let intermediates = Array(bytes[parameterEnd..<position])
            return .consumed(modeReport(parameters: parameters, intermediates: intermediates, final: final), length: length)
        }
        if parameters == Array("200".utf8), final == UInt8(ascii: "~") { return .pasteStart(length: length) }
        return .consumed(interpret(parameters: parameters, final: Unicode.Scalar(final)), length: length)
    }

    /// `CSI row ; column R` with plain numbers and a row above 1, read in place: the link pacer
    /// asks for one after every frame, and the general path (`fields`) allocates arrays for each.
    /// Anything else (`CSI 1;m R` is F3 with modifiers) is left to `interpret`; nil then.
    static func cursorPositionReport(_ bytes: [UInt8], from start: Int, to end: Int) -> InputEvent? {
        var numbers = (0, 0)
        var field = 0
        var digits = 0
        for position in start..<end {
            let byte = bytes[position]
            if byte == UInt8(ascii: ";") {
                guard field == 0, digits > 0 else { return nil }
                field = 1
                digits = 0
                continue
            }
            guard (0x30...0x39).contains(byte), digits < 9 else { return nil }
            digits += 1
            if field == 0 { numbers.0 = numbers.0 * 10 + Int(byte - 0x30) } else { numbers.1 = numbers.1 * 10 + Int(byte - 0x30) }
        }
        guard field == 1, digits > 0, numbers.0 > 1 else { return nil }
        return .cursorPosition(row: numbers.0, column: numbers.1)
    }

    /// `CSI ? mode ; setting $ y` (DECRPM); any other sequence with intermediates is skipped.
    static func modeReport(parameters: [UInt8], intermediates: [UInt8], final: UInt8) -> InputEvent? {
        guard final == UInt8(ascii: "y"), intermediates == [UInt8(ascii: "$")],
              parameters.first == UInt8(ascii: "?") else { return nil }
        let values = fields(parameters.dropFirst())
        guard values.count == 2, let mode = values[0].first ?? nil, let setting = values[1].first ?? nil else { return nil }
        return .modeReport(mode: mode, setting: setting)
    }

    /// `1;5:3` as `[[1], [5, 3]]`; empty fields and sub-fields are nil. A leading `-` makes a
    /// number negative (only `CSI <` mouse reports can hold one).
    static func fields(_ parameters: ArraySlice<UInt8>) -> [[Int?]] {
        parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { field in
            field.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).map { text in
                let negative = text.first == UInt8(ascii: "-")
                let digits = negative ? text.dropFirst() : text
                guard !digits.isEmpty, digits.count <= 9,
                      digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
                let value = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
                return negative ? -value : value
            }
        }
    }

    static func interpret(parameters: [UInt8], final: Unicode.Scalar) -> InputEvent? {
        if let marker = parameters.first, (0x3C...0x3F).contains(marker) {
            let values = fields(parameters.dropFirst())
            switch (Unicode.Scalar(marker), final) {
            case ("<", "M"), ("<", "m"): return mouse(values, released: final == "m")
            case ("?", "u"): return values.first?.first?.map { .keyboardFlags($0) } ?? .keyboardFlags(0)
            case ("?", "c"): return .deviceAttributes(values.map { $0.first.flatMap { $0 } ?? 0 })
            case ("?", "S"): return graphicsAttribute(values)
            default: return nil
            }
        }
        let values = fields(parameters[...])
        let first = values.first?.first ?? nil
        let modifiers = KeyModifiers(parameter: (values.count > 1 ? values[1].first ?? nil : nil) ?? 1)
        let kind = eventKind(values.count > 1 && values[1].count > 1 ? values[1][1] : nil)
        func keyEvent(_ key: Key?) -> InputEvent? {
            key.map { .key(KeyEvent($0, modifiers: modifiers, kind: kind)) }
        }
        switch final {
        case "u":
            guard let code = first, let key = kittyKey(code) else { return nil }
            // `code:shifted:base`: the shifted alternate, when the terminal reports it (flag 4).
            let shifted = values[0].count > 1 ? values[0][1].flatMap { Unicode.Scalar(UInt32(clamping: $0)) } : nil
            return .key(KeyEvent(key, modifiers: modifiers, kind: kind, shiftedCharacter: shifted))
        case "~":
            guard let number = first else { return nil }
            if number == 27, values.count > 2, let code = values[2].first ?? nil {
                // xterm modifyOtherKeys: CSI 27 ; modifiers ; code ~
                return keyEvent(kittyKey(code))
            }
            return keyEvent(tildeKey(number))
        case "t" where first == 6: return cellPixelSize(values)
        case "I" where values.count <= 1 && first == nil: return .focus(true)
        case "O" where values.count <= 1 && first == nil: return .focus(false)
        case "A": return keyEvent(.up)
        case "B": return keyEvent(.down)
        case "C": return keyEvent(.right)
        case "D": return keyEvent(.left)
        case "H": return keyEvent(.home)
        case "F": return keyEvent(.end)
        case "P": return keyEvent(.function(1))
        case "Q": return keyEvent(.function(2))
        // `CSI row;col R` is also a cursor position report: only `CSI R` / `CSI 1;m R` mean F3.
        case "R" where first == nil || first == 1: return keyEvent(.function(3))
        case "R": return first.map { .cursorPosition(row: $0, column: (values.count > 1 ? values[1].first ?? nil : nil) ?? 1) }
        case "S": return keyEvent(.function(4))
        case "Z": return .key(KeyEvent(.tab, modifiers: modifiers.union(.shift), kind: kind))
        default: return nil
        }
    }

    /// Kitty event type sub-parameter: 1 press, 2 repeat, 3 release.
    static func eventKind(_ value: Int??) -> KeyEventKind {
        switch value ?? nil {
        case 2: .repeat
        case 3: .release
        default: .press
        }
    }

    /// The number in `CSI number ~` (VT220 editing keys and function keys; kitty sends F3 as 13~).
    static func tildeKey(_ number: Int) -> Key? {
        switch number {
        case 1, 7: .home
        case 2: .insert
        case 3: .delete
        case 4, 8: .end
        case 5: .pageUp
        case 6: .pageDown
        case 11...15: .function(number - 10)
        case 17...21: .function(number - 11)
        case 23...26: .function(number - 12)
        case 28, 29: .function(number - 13)
        case 31...34: .function(number - 14)
        case 57427: nil
        case 57399...: kittyKey(number)
        default: nil
        }
    }

    /// A kitty key code: the Unicode code point of the unshifted key, or one of the protocol's
    /// private-use codes for keys without text (57344 and up).
    static func kittyKey(_ code: Int) -> Key? {
        switch code {
        case 9: return .tab
        case 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 57358: return .capsLock
        case 57359: return .scrollLock
        case 57360: return .numLock
        case 57361: return .printScreen
        case 57362: return .pause
        case 57363: return .menu
        case 57376...57398: return .function(code - 57376 + 13)
        case 57399...57408: return .keypad(Unicode.Scalar(UInt8(code - 57399) + UInt8(ascii: "0")))
        case 57409: return .keypad(".")
        case 57410: return .keypad("/")
        case 57411: return .keypad("*")
        case 57412: return .keypad("-")
        case 57413: return .keypad("+")
        case 57414: return .keypadEnter
        case 57415: return .keypad("=")
        case 57416: return .keypad(",")
        case 57417: return .left
        case 57418: return .right
        case 57419: return .up
        case 57420: return .down
        case 57421: return .pageUp
        case 57422: return .pageDown
        case 57423: return .home
        case 57424: return .end
        case 57425: return .insert
        case 57426: return .delete
        case 57441: return .leftShift
        case 57442: return .leftControl
        case 57443: return .leftAlt
        case 57444: return .leftSuper
        case 57447: return .rightShift
        case 57448: return .rightControl
        case 57449: return .rightAlt
        case 57450: return .rightSuper
        case 0..<32, 0x7F..<0xA0, 57344...63743: return nil  // controls; other private-use keys (media etc.)
        default:
            guard let scalar = Unicode.Scalar(UInt32(clamping: code)) else { return nil }
            return .forCharacter(scalar)
        }
    }

    /// SGR mouse report `CSI < b ; x ; y M|m`, in cells (1006) or pixels (1016): the event's
    /// column and row are the report's numbers less one, not yet clamped; `KeyDecoder.reading`
    /// makes them cells (it knows which mode is on).
    static func mouse(_ values: [[Int?]], released: Bool) -> InputEvent? {
        guard values.count == 3, let code = values[0].first ?? nil, let x = values[1].first ?? nil,
              let y = values[2].first ?? nil else { return nil }
        let base = code & 3
        let button: MouseButton
        if code & 128 != 0 {
            button = .extra(8 + base)
        } else if code & 64 != 0 {
            button = [.wheelUp, .wheelDown, .wheelLeft, .wheelRight][base]
        } else {
            button = [.left, .middle, .right, .none][base]
        }
        var modifiers: KeyModifiers = []
        if code & 4 != 0 { modifiers.insert(.shift) }
        if code & 8 != 0 { modifiers.insert(.alt) }
        if code & 16 != 0 { modifiers.insert(.control) }
        let kind: MouseEvent.Kind
        if released {
            kind = .release
        } else if code & 32 != 0 {
            kind = button == .none ? .move : .drag
        } else {
            kind = .press
        }
        return .mouse(MouseEvent(kind: kind, button: button, column: x - 1, row: y - 1, modifiers: modifiers))
    }
}
