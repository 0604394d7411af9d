/// Whether a key went down, repeated (autorepeat) or came up. Legacy terminals only ever send
/// `.press` (autorepeat arrives as more presses); the kitty protocol with flag 2 sends all three.
public enum KeyEventKind: Sendable, Hashable {
    case press, `repeat`, release
}

public struct KeyEvent: Sendable, Hashable {
    public var key: Key
    public var modifiers: KeyModifiers
    public var kind: KeyEventKind
    /// What the key types with Shift, when the terminal says (kitty flag 4 "report alternate
    /// keys": `CSI 49:33;2u` is Shift+1 typing `!`). Only used for `text`.
    public var shiftedCharacter: Unicode.Scalar?

    public init(_ key: Key, modifiers: KeyModifiers = [], kind: KeyEventKind = .press,
                shiftedCharacter: Unicode.Scalar? = nil) {
        self.key = key
        self.modifiers = modifiers
        self.kind = kind
        self.shiftedCharacter = shiftedCharacter
    }

    /// The text the key types, for text fields (search box, rename): nil for non-printing keys,
    /// Control/Alt chords and releases.
    public var text: String? {
        guard kind != .release, modifiers.isDisjoint(with: [.control, .alt, .super]) else { return nil }
        guard case .character(let scalar) = key else { return nil }
        if modifiers.contains(.shift), let shiftedCharacter { return String(Character(shiftedCharacter)) }
        if modifiers.contains(.shift), ("a"..."z").contains(scalar) {
            return String(Character(Unicode.Scalar(scalar.value - 0x20)!))
        }
        return String(Character(scalar))
    }
}

public enum MouseButton: Sendable, Hashable {
    case left, middle, right, none
    case wheelUp, wheelDown, wheelLeft, wheelRight
    /// Buttons 8...11 (back/forward on many mice).
    case extra(Int)
}

public struct MouseEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A button went down (wheel notches are presses of the wheel "buttons").
        case press
        case release
        /// Motion with a button held (`drag`) or without (`move`, only with mode 1003).
        case drag, move
    }

    public var kind: Kind
    public var button: MouseButton
    /// Zero-based cell position (SGR reports are one-based; this is converted).
    public var column: Int
    public var row: Int
    public var modifiers: KeyModifiers
    /// Where in the cell grid's pixels (zero-based, from the window's first cell) the report
    /// says the mouse is: only with SGR-Pixels reports (mode 1016, `KeyDecoder.mousePixels`).
    public var pixel: Pixel?

    /// A terminal pixel position.
    public struct Pixel: Sendable, Hashable {
        public var x: Int
        public var y: Int

        public init(x: Int, y: Int) {
            self.x = x
            self.y = y
        }
    }

    public init(kind: Kind, button: MouseButton, column: Int, row: Int, modifiers: KeyModifiers = [],
                pixel: Pixel? = nil) {
        self.kind = kind
        self.button = button
        self.column = column
        self.row = row
        self.modifiers = modifiers
        self.pixel = pixel
    }
}

/// One thing the terminal told us: a key, the mouse, a paste, focus, or a reply to a query.
public enum InputEvent: Sendable, Hashable {
    case key(KeyEvent)
    case mouse(MouseEvent)
    /// Bracketed paste (`CSI 200~ ... CSI 201~`), as one string. Play mode ignores it.
    case paste(String)
    /// The terminal window gained (`true`) or lost focus (mode 1004).
    case focus(Bool)
    /// Reply `CSI ? flags u` to the kitty keyboard-protocol query `CSI ? u`.
    case keyboardFlags(Int)
    /// Primary device attributes reply `CSI ? p1;p2;... c` to `CSI c`.
    case deviceAttributes([Int])
    /// DECRPM, the reply `CSI ? mode ; setting $ y` to the mode query `CSI ? mode $ p`:
    /// setting 0 = unknown mode, 1 = set, 2 = reset, 3 = permanently set, 4 = permanently reset.
    case modeReport(mode: Int, setting: Int)
    /// The reply `CSI row ; column R` to the cursor-position request `CSI 6 n` (row 2 or more:
    /// `CSI 1;m R` is F3). The play screen's `LinkPacer` sends the request after each frame.
    case cursorPosition(row: Int, column: Int)
    /// The reply `OSC 11 ; rgb:RRRR/GGGG/BBBB ST` to the background-colour query `OSC 11 ; ? ST`,
    /// components scaled to 0...1 (terminals send 1 to 4 hex digits per component).
    case backgroundColor(red: Double, green: Double, blue: Double)
    /// The reply `OSC 4 ; n ; rgb:RRRR/GGGG/BBBB ST` to the palette query `OSC 4 ; n ; ? ST`:
    /// the colour entry `n` shows now, components scaled to 16 bits.
    case paletteColor(index: Int, red: UInt16, green: UInt16, blue: UInt16)
    /// The kitty graphics protocol's answer `ESC _ G i=ID ; message ESC \` (`OK`, or an error
    /// such as `ENOENT:…`) to a query or command with image id `imageID`.
    case graphicsReply(imageID: Int, message: String)
    /// XTSMGRAPHICS, the reply `CSI ? item ; status ; values S` to `CSI ? item ; 1 S` (item 1:
    /// colour registers, 2: sixel geometry; status 0 = success).
    case graphicsAttribute(item: Int, status: Int, values: [Int])
    /// The reply `CSI 6 ; height ; width t` to `CSI 16 t`: one cell's size in pixels.
    case cellPixelSize(width: Int, height: Int)
    /// XTVERSION, the reply `DCS > | name(version) ST` to `CSI > q` (`kitty(0.26.5)`,
    /// `XTerm(379)`): the text between `>|` and the terminator.
    case terminalVersion(String)
}
