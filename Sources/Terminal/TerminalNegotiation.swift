import Input
import PhosphorKit

/// The questions Phosphor asks a terminal at start, and what its answers mean: whether it knows
/// synchronized output (DECRQM 2026), what its background colour is (OSC 11, for the menu
/// palette), whether it takes the kitty keyboard protocol (key releases), what pixel
/// graphics it has (`GraphicsDetection`), whether it reports the mouse in pixels (DECRQM 1016,
/// `PixelMouse`), its name and version (XTVERSION `CSI > q`) and the palette entries the picture
/// may redefine (`TerminalPalette`). The app writes
/// `start()`, feeds every decoded event to `handle` — also after `timedOut()`, since a slow
/// terminal's answers still count when they come late. UI thread only.
public struct TerminalNegotiation {
    public private(set) var keyboard = KeyboardProtocolNegotiation()
    /// Pixel graphics (kitty graphics, sixel, cell size), asked before the keyboard's DA1.
    public private(set) var graphics: GraphicsDetection
    /// The background OSC 11 reported (`unknown` until it answers; some never do).
    public private(set) var background = TerminalBackground.unknown
    /// The terminal answered DECRQM 1016 with a setting it can use: SGR-Pixels mouse reports.
    public private(set) var pixelMouse = false
    /// The terminal's XTVERSION answer (`kitty(0.26.5)`, `XTerm(379)`); nil when it gave none.
    public private(set) var terminalVersion: String?
    /// The palette entries the terminal reported (empty until it answers, or when not asked).
    public private(set) var palette = TerminalPalette()
    private let asksBackground: Bool
    private let asksPalette: Bool

    /// `asksBackground`: send the OSC 11 query (not to the Linux console, which prints an OSC
    /// it does not know).
    /// `graphics`: the pixel-graphics detection (`GraphicsDetection`); nil asks nothing about
    /// pixels (the Linux console prints an APC string it does not know).
    /// `asksPalette`: send the `OSC 4` queries (not inside tmux or GNU screen, nor to the console).
    public init(asksBackground: Bool = true, graphics: GraphicsDetection? = nil, asksPalette: Bool = false) {
        self.asksBackground = asksBackground
        self.asksPalette = asksPalette && asksBackground
        self.asksGraphics = graphics != nil
        self.graphics = graphics ?? GraphicsDetection(multiplexer: nil, probeFile: nil)
    }
    private let asksGraphics: Bool

    /// `OSC 11 ; ? ST`: "what is your background colour".
    public static let backgroundQuery: [UInt8] = Array("\u{1B}]11;?\u{1B}\\".utf8)
    /// XTVERSION: "what is your name and version" (the pixel mouse's origin differs by terminal).
    public static let versionQuery: [UInt8] = Array("\u{1B}[>q".utf8)

    /// The queries to write. The mode, background and version queries go first: their replies,
    /// if any, come before DA1's, which ends the keyboard detection. XTVERSION goes where OSC 11
    /// does (not to the Linux console).
    public mutating func start() -> [UInt8] {
        SynchronizedOutput.query + PixelMouse.query
            + (asksBackground ? Self.backgroundQuery + Self.versionQuery : [])
            + (asksPalette ? TerminalPalette.query : [])
            + (asksGraphics ? graphics.start() : []) + keyboard.start()
    }

    /// How to read mouse reports once pixel reports are switched on: nil unless the terminal
    /// has them and the cell size in pixels is known (a pixel is placed through its cell).
    public var mousePixelReports: MousePixelReports? {
        guard pixelMouse, let cell = graphics.capabilities.cellSize else { return nil }
        return MousePixelReports(cell: cell, origin: MousePixelReports.origin(terminalVersion: terminalVersion))
    }

    /// Takes a reply to one of the queries (and answers it on `terminal` where the protocol
    /// needs a next step). Returns false for an event that is no reply (ordinary input).
    public mutating func handle(_ event: InputEvent, terminal: any TerminalDevice) -> Bool {
        if graphics.handle(event) { return true }
        let followUp = graphics.takeFollowUp()
        if !followUp.isEmpty { terminal.write(followUp) }
        switch event {
        case .terminalVersion(let version):
            terminalVersion = version
            Log.info("terminal: \(version)")
            return true
        case .modeReport(let mode, let setting):
            if mode == PixelMouse.mode {
                pixelMouse = PixelMouse.isSupported(setting: setting)
                Log.info("pixel mouse reports: \(pixelMouse ? "yes" : "no") (DECRPM \(setting))")
            }
            if mode == SynchronizedOutput.mode {
                terminal.setSynchronizedOutput(SynchronizedOutput.isSupported(setting: setting))
                Log.info("synchronized output: \(terminal.synchronizedOutput ? "yes" : "no") (DECRPM \(setting))")
            }
            return true
        case .paletteColor(let index, let red, let green, let blue):
            let wasChecked = palette.redefinitionsTake != nil
            if asksPalette, palette.record(index: index, red: red, green: green, blue: blue) {
                terminal.setPalette(palette)
                // The probe once the probe entry's own colour came, that colour once the probe's answer did.
                let followUp = palette.takeFollowUp()
                if !followUp.isEmpty { terminal.write(followUp) }
                // Once when enough answered to be used, once when all did.
                if palette.reported.count == TerminalPalette.minimumEntries || palette.reported.count == TerminalPalette.candidates.count {
                    Log.info("palette entries reported: \(palette.reported.count) of \(TerminalPalette.candidates.count)")
                }
                if !wasChecked, let take = palette.redefinitionsTake {
                    Log.info(take ? "palette entries redefine: yes"
                        : "palette entries redefine: no (the terminal answered but kept its colour): the picture sends 24-bit colours")
                }
            }
            return true
        case .backgroundColor(let red, let green, let blue):
            background = TerminalBackground(red: red, green: green, blue: blue)
            Log.info("terminal background: \(background) (\(red), \(green), \(blue))")
            return true
        case .keyboardFlags, .deviceAttributes:
            let wasPushed = flagsPushed
            let reply = keyboard.handle(event)
            if !reply.isEmpty { terminal.write(reply) }
            if flagsPushed != wasPushed { terminal.setKeyboardFlagsPushed(flagsPushed) }
            return true
        default:
            return false
        }
    }

    /// No answer in time: the terminal has no kitty protocol (or a broken one).
    public mutating func timedOut() {
        keyboard.timedOut()
        graphics.timedOut()
    }

    /// Fills in the cell size from the tty's window pixels where `CSI 16 t` got no answer.
    public mutating func useWindowPixels(width: Int, height: Int, columns: Int, rows: Int) {
        graphics.useWindowPixels(width: width, height: height, columns: columns, rows: rows)
    }

    /// Also waits for the palette probe's answer where one is due (it is written when the probe
    /// entry's own colour comes, before DA1's answer, so one round trip more at most).
    public var isFinished: Bool {
        keyboard.isFinished && (!asksGraphics || graphics.isFinished) && !palette.awaitsProbe
    }
    /// Whether the terminal reports key releases (kitty keyboard protocol active).
    public var releaseEvents: Bool { keyboard.releaseEvents }

    /// The game flags were pushed and must be popped on every way out: also when the terminal
    /// did not confirm them (it half-understood the push), exactly when the negotiation's own
    /// restore bytes say so.
    private var flagsPushed: Bool { !keyboard.restoreBytes.isEmpty }
}
