/// Turns the bytes a terminal sends into `InputEvent`s: legacy xterm/VT keys, the kitty keyboard
/// protocol, SGR mouse reports, bracketed paste, focus reports, UTF-8 text, and the replies to
/// our own queries (kitty flags, DA1).
///
/// Reads may split a sequence anywhere; the unfinished tail waits for the next `decode` call. A
/// lone ESC is ambiguous (the Escape key, or the start of a sequence whose rest is still in
/// flight), so it only becomes the Escape key once `escapeTimeout` has passed without more bytes:
/// the caller polls `pendingDeadline` and calls `flush(now:)`. Unknown sequences are skipped
/// whole, invalid UTF-8 is skipped byte by byte, and no input makes it crash or stall.
///
/// A value type owned by one thread (the UI thread); not shared.
public struct KeyDecoder: Sendable {
    /// How long a lone ESC (or another unfinished sequence) waits for the rest of its bytes.
    public var escapeTimeout: Duration
    /// How long an unterminated bracketed paste waits before it is delivered as it is.
    public var pasteTimeout: Duration

    /// Longest control sequence we wait for; anything longer is garbage and is skipped.
    static let maximumSequenceLength = 128
    /// Longest OSC/DCS/APC string we wait for.
    static let maximumStringLength = 4096
    /// A paste larger than this is delivered in pieces of this size.
    static let maximumPasteChunk = 1 << 20

    /// Set while the terminal sends SGR-Pixels mouse reports (mode 1016 on): reports are read
    /// as pixels and turned into cells of this size. Nil: reports are cells (mode 1006).
    public var mousePixels: MousePixelReports?

    private var pending: [UInt8] = []
    private var lastInput: ContinuousClock.Instant?
    /// Non-nil between `CSI 200~` and `CSI 201~`: the pasted bytes so far.
    private var paste: [UInt8]?

    public init(escapeTimeout: Duration = .milliseconds(50), pasteTimeout: Duration = .seconds(2)) {
        self.escapeTimeout = escapeTimeout
        self.pasteTimeout = pasteTimeout
    }

    /// Decodes the bytes of one read. An unfinished tail is kept for the next call; anything left
    /// over from an earlier call whose deadline has passed is resolved first.
    public mutating func decode(_ bytes: some Sequence<UInt8>, now: ContinuousClock.Instant) -> [InputEvent] {
        decode(Array(bytes), now: now)
    }

    /// `decode` for the bytes of a read as they come: concrete, since a generic sequence from
    /// another module is appended through the runtime's witness tables, byte by byte (perf: more
    /// than the parsing itself, for the cursor-position answer that follows every frame).
    public mutating func decode(_ bytes: [UInt8], now: ContinuousClock.Instant) -> [InputEvent] {
        var events = flush(now: now)
        let countBefore = pending.count
        pending.append(contentsOf: bytes)
        // Only new bytes restart the ESC timer: an empty read must not postpone a lone ESC forever.
        if pending.count != countBefore { lastInput = now }
        parse(into: &events, atDeadline: false)
        return events
    }

    /// When the caller should call `flush(now:)` if no more bytes arrive (nil: nothing waiting).
    public var pendingDeadline: ContinuousClock.Instant? {
        guard let lastInput else { return nil }
        if paste != nil { return lastInput + pasteTimeout }
        if !pending.isEmpty { return lastInput + escapeTimeout }
        return nil
    }

    /// Resolves what is still waiting once its deadline has passed: a lone ESC becomes the Escape
    /// key, `ESC x` becomes Alt+x, an unfinished sequence is dropped, a paste is delivered.
    public mutating func flush(now: ContinuousClock.Instant) -> [InputEvent] {
        guard let deadline = pendingDeadline, now >= deadline else { return [] }
        var events: [InputEvent] = []
        parse(into: &events, atDeadline: true)
        return events
    }

    /// True when bytes are waiting for more input (for tests and diagnostics).
    public var hasPendingBytes: Bool { !pending.isEmpty || paste != nil }

    // MARK: - Parsing

    /// What one step of parsing found at a position.
    enum Step {
        /// `length` bytes were consumed, producing `event` (nil when they were skipped).
        case consumed(InputEvent?, length: Int)
        /// The sequence needs more bytes.
        case incomplete
        /// `CSI 200~`: the following bytes are pasted text.
        case pasteStart(length: Int)
    }

    private mutating func parse(into events: inout [InputEvent], atDeadline: Bool) {
        var index = 0
        while index < pending.count || (atDeadline && paste != nil) {
            if paste != nil {
                index = consumePaste(from: index, into: &events, atDeadline: atDeadline)
                if paste != nil { break }
                continue
            }
            switch KeyDecoder.step(pending, at: index, atDeadline: atDeadline) {
            case .incomplete:
                pending.removeFirst(index)
                return
            case .consumed(let event, let length):
                if let event { events.append(reading(event)) }
                index += length
            case .pasteStart(let length):
                paste = []
                index += length
            }
        }
        pending.removeFirst(min(index, pending.count))
    }

    /// A mouse report's numbers as cells (never left of or above the first one) and, while
    /// `mousePixels` is set, as pixels too; any other event as it is.
    private func reading(_ event: InputEvent) -> InputEvent {
        guard case .mouse(var mouse) = event else { return event }
        if let mousePixels {
            let pixel = mousePixels.pixel(reportedX: mouse.column + 1, y: mouse.row + 1)
            mouse.pixel = pixel
            mouse.column = pixel.x / max(mousePixels.cell.width, 1)
            mouse.row = pixel.y / max(mousePixels.cell.height, 1)
        } else {
            mouse.column = max(mouse.column, 0)
            mouse.row = max(mouse.row, 0)
        }
        return .mouse(mouse)
    }

    private static let pasteEnd: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]  // ESC [ 2 0 1 ~

    /// Moves pasted bytes from `pending` into `paste` until the end marker; returns the new index.
    private mutating func consumePaste(from index: Int, into events: inout [InputEvent], atDeadline: Bool) -> Int {
        let marker = KeyDecoder.pasteEnd
        var searchIndex = index
        while searchIndex + marker.count <= pending.count {
            if pending[searchIndex] == 0x1B, Array(pending[searchIndex..<searchIndex + marker.count]) == marker {
                paste!.append(contentsOf: pending[index..<searchIndex])
                events.append(.paste(String(decoding: paste!, as: UTF8.self)))
                paste = nil
                return searchIndex + marker.count
            }
            searchIndex += 1
        }
        // No end marker yet: keep a tail that could be its beginning, take the rest.
        var keep = 0
        if !atDeadline {
            for length in stride(from: min(marker.count - 1, pending.count - index), through: 1, by: -1)
            where Array(pending[(pending.count - length)...]) == Array(marker.prefix(length)) {
                keep = length
                break
            }
        }
        let end = pending.count - keep
        paste!.append(contentsOf: pending[index..<end])
        if atDeadline || paste!.count >= KeyDecoder.maximumPasteChunk {
            events.append(.paste(String(decoding: paste!, as: UTF8.self)))
            paste = atDeadline ? nil : []
        }
        return end
    }

    /// Parses one key, sequence or character at `index`. `atDeadline` means no more bytes will
    /// come for this sequence, so ambiguous prefixes must be resolved now.
    static func step(_ bytes: [UInt8], at index: Int, atDeadline: Bool) -> Step {
        let byte = bytes[index]
        switch byte {
        case 0x1B:
            return escape(bytes, at: index, atDeadline: atDeadline)
        case 0x00..<0x20, 0x7F:
            return .consumed(.key(controlKey(byte)), length: 1)
        case 0x20..<0x80:
            return .consumed(.key(printableKey(byte)), length: 1)
        default:
            return utf8(bytes, at: index, atDeadline: atDeadline)
        }
    }

    /// A printable ASCII byte: an upper-case letter is its key plus Shift.
    static func printableKey(_ byte: UInt8) -> KeyEvent {
        let scalar = Unicode.Scalar(byte)
        return KeyEvent(.forCharacter(scalar), modifiers: ("A"..."Z").contains(scalar) ? .shift : [])
    }

    /// C0 control bytes as legacy terminals send them: Enter is CR, Backspace is DEL or BS,
    /// Ctrl+letter is the letter's code minus 0x60.
    static func controlKey(_ byte: UInt8) -> KeyEvent {
        switch byte {
        case 0x0D, 0x0A: return KeyEvent(.enter)
        case 0x09: return KeyEvent(.tab)
        case 0x7F, 0x08: return KeyEvent(.backspace)
        case 0x00: return KeyEvent(.character(" "), modifiers: .control)
        case 0x01...0x1A: return KeyEvent(.character(Unicode.Scalar(byte + 0x60)), modifiers: .control)
        default: return KeyEvent(.character(Unicode.Scalar(byte + 0x40)), modifiers: .control)  // 1C...1F: \ ] ^ _
        }
    }

    private static func escape(_ bytes: [UInt8], at index: Int, atDeadline: Bool) -> Step {
        guard index + 1 < bytes.count else {
            return atDeadline ? .consumed(.key(KeyEvent(.escape)), length: 1) : .incomplete
        }
        let next = bytes[index + 1]
        switch next {
        case UInt8(ascii: "["):
            return controlSequence(bytes, at: index, atDeadline: atDeadline)
        case UInt8(ascii: "O"):
            return singleShift(bytes, at: index, atDeadline: atDeadline)
        case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"), UInt8(ascii: "X"):
            return controlString(bytes, at: index, atDeadline: atDeadline)
        case 0x1B:
            // ESC ESC is the Escape key, then whatever the second ESC starts. Not rxvt's Alt+key:
            // GNU screen with mouse reporting on holds a lone Esc back until the next key and
            // then sends both together (`ESC ESC [ B` is Esc, then Down).
            return .consumed(.key(KeyEvent(.escape)), length: 1)
        default:
            // Alt as an ESC prefix: ESC x is Alt+x.
            switch step(bytes, at: index + 1, atDeadline: atDeadline) {
            case .incomplete: return .incomplete
            case .pasteStart(let length): return .pasteStart(length: length + 1)
            case .consumed(let event, let length): return .consumed(addingAlt(to: event), length: length + 1)
            }
        }
    }

    private static func addingAlt(to event: InputEvent?) -> InputEvent? {
        guard case .key(var key)? = event else { return event }
        key.modifiers.insert(.alt)
        return .key(key)
    }

    /// `ESC O x`: SS3 keys (application cursor mode arrows, F1...F4, keypad).
    private static func singleShift(_ bytes: [UInt8], at index: Int, atDeadline: Bool) -> Step {
        guard index + 2 < bytes.count else {
            if atDeadline { return .consumed(.key(KeyEvent(.character("o"), modifiers: [.alt, .shift])), length: 2) }
            return .incomplete
        }
        let final = bytes[index + 2]
        guard (0x40...0x7E).contains(final) else {
            // Not a sequence after all: Alt+Shift+O, then whatever follows.
            return .consumed(.key(KeyEvent(.character("o"), modifiers: [.alt, .shift])), length: 2)
        }
        let key: Key? = switch Unicode.Scalar(final) {
        case "A": .up
        case "B": .down
        case "C": .right
        case "D": .left
        case "H": .home
        case "F": .end
        case "P": .function(1)
        case "Q": .function(2)
        case "R": .function(3)
        case "S": .function(4)
        case "M": .keypadEnter
        case "p"..."y": .keypad(Unicode.Scalar(final - UInt8(ascii: "p") + UInt8(ascii: "0")))
        case "j": .keypad("*")
        case "k": .keypad("+")
        case "l": .keypad(",")
        case "m": .keypad("-")
        case "n": .keypad(".")
        case "o": .keypad("/")
        case "X": .keypad("=")
        default: nil
        }
        return .consumed(key.map { .key(KeyEvent($0)) }, length: 3)
    }

    /// OSC, DCS, APC, PM, SOS strings up to BEL or ST (ESC \): the OSC 11 background-colour
    /// reply becomes an event, everything else is skipped.
    private static func controlString(_ bytes: [UInt8], at index: Int, atDeadline: Bool) -> Step {
        var position = index + 2
        while position < bytes.count {
            if bytes[position] == 0x07 {
                return .consumed(stringEvent(bytes, at: index, bodyEnd: position), length: position + 1 - index)
            }
            if bytes[position] == 0x1B, position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "\\") {
                return .consumed(stringEvent(bytes, at: index, bodyEnd: position), length: position + 2 - index)
            }
            position += 1
        }
        if atDeadline || bytes.count - index > maximumStringLength {
            // Never terminated: it was Alt+key after all (ESC P is Alt+Shift+P), or garbage.
            return .consumed(addingAlt(to: .key(printableKey(bytes[index + 1]))), length: 2)
        }
        return .incomplete
    }

    /// A UTF-8 encoded character; invalid or truncated encodings are skipped one byte at a time.
    private static func utf8(_ bytes: [UInt8], at index: Int, atDeadline: Bool) -> Step {
        let lead = bytes[index]
        let length: Int
        let minimum: UInt32
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: (length, minimum, value) = (2, 0x80, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, minimum, value) = (3, 0x800, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, minimum, value) = (4, 0x10000, UInt32(lead & 0x07))
        default: return .consumed(nil, length: 1)
        }
        for offset in 1..<length {
            guard index + offset < bytes.count else {
                return atDeadline ? .consumed(nil, length: 1) : .incomplete
            }
            let continuation = bytes[index + offset]
            guard continuation & 0xC0 == 0x80 else { return .consumed(nil, length: 1) }
            value = value << 6 | UInt32(continuation & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return .consumed(nil, length: 1) }
        return .consumed(.key(KeyEvent(.character(scalar))), length: length)
    }
}
