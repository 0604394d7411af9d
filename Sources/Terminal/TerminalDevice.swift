/// What the app loop and the screens need from a terminal: its size, its capabilities, a way to
/// write, and a way to wait for input or a signal. `TerminalSession` is the real one (a tty in
/// raw mode); `HeadlessTerminal` is the test double (scripted input, a manual clock, recorded
/// output), as swift-nio keeps an embedded event loop beside the real one.
///
/// Threading: UI thread only.
public protocol TerminalDevice: AnyObject {
    var rows: Int { get }
    var columns: Int { get }
    /// The terminal answered the DECRQM query for mode 2026 (frames may be wrapped in it).
    var synchronizedOutput: Bool { get }
    /// The terminal repeats the last character on `CSI n b` (REP): its terminfo entry has `rep`.
    /// Read from terminfo, never assumed (VTE, kitty, tmux and screen entries lack it).
    var repeatsCharacters: Bool { get }
    /// The terminal deletes and inserts characters in a line (DCH `CSI n P`, ICH `CSI n @`):
    /// terminfo has `dch` and `ich` (VTE, alacritty and foot entries lack them).
    var editsLines: Bool { get }
    /// The terminal's `█` covers the whole cell (false in xterm: `TerminalQuirks.fullBlockFillsCell`).
    var fullBlockFillsCell: Bool { get }
    /// Each shifted row makes the terminal wait for its display server (xterm:
    /// `TerminalQuirks.shiftedRowsWaitForTheServer`).
    var shiftedRowsWaitForTheServer: Bool { get }
    /// The terminal went away (end of file or EIO on input).
    var hasHungUp: Bool { get }
    /// The time the app loop and its screens go by (the monotonic clock, or a test's own).
    var now: ContinuousClock.Instant { get }

    /// Writes all of `bytes` (a slow terminal makes this wait).
    func write(_ bytes: [UInt8])
    /// Waits until input arrives, a signal is caught, or `timeout` passes.
    func wait(timeout: Duration) -> TerminalWake
    /// What the terminal sent since the last call (never blocks).
    func readAvailable() -> [UInt8]
    /// Re-reads the window size (after SIGWINCH); true when it changed.
    @discardableResult func refreshSize() -> Bool
    /// Ctrl-Z: give the terminal back, stop, and take it again when continued.
    func suspend()
    /// Gives the terminal back (every exit path). Safe to call more than once.
    func restore()
    /// Records that the kitty keyboard flags were pushed or popped (exit paths pop them).
    func setKeyboardFlagsPushed(_ pushed: Bool)
    /// Records the terminal's answer to the synchronized-output query.
    func setSynchronizedOutput(_ supported: Bool)
    /// The palette entries the terminal reported, which every way out gives back (`TerminalPalette`).
    var palette: TerminalPalette { get }
    func setPalette(_ palette: TerminalPalette)
    /// Switches SGR-Pixels mouse reports (mode 1016) on or off, where the mouse is reported at
    /// all; true when they are on now. Every exit path and a suspend switch them off, a resume on.
    @discardableResult func setPixelMouse(_ on: Bool) -> Bool
}

/// Why `TerminalDevice.wait` returned.
public struct TerminalWake: Equatable, Sendable {
    public var input = false
    public var signals: [Int32] = []

    public init(input: Bool = false, signals: [Int32] = []) {
        self.input = input
        self.signals = signals
    }
}

extension TerminalDevice {
    /// Smaller than this, no screen can show anything useful (the play screen says so instead).
    public var isTooSmall: Bool { columns < TerminalLimits.minimumColumns || rows < TerminalLimits.minimumRows }
}

/// The smallest terminal Phosphor draws in.
public enum TerminalLimits {
    public static let minimumColumns = 40
    public static let minimumRows = 12
}
