internal import CCurses
internal import CSystem
import Foundation
import Glibc
import PhosphorKit

/// A terminal for in-process tests: input is what the test sends, time is a manual clock, and
/// everything written — Phosphor's raw picture bytes and ncurses' menu drawing alike — is
/// recorded in order in `output`, for a screen model to read back. ncurses itself is real: it
/// draws for `terminalType` into a file this terminal reads, so a menu's bytes are the bytes a
/// user's terminal would get.
///
/// Only one terminal (headless or real) may be open at a time in a process: ncurses has one
/// current screen. Threading: the test's thread only (it plays the UI thread).
public final class HeadlessTerminal: TerminalDevice {
    public private(set) var rows: Int
    public private(set) var columns: Int
    public private(set) var synchronizedOutput = false
    public private(set) var palette = TerminalPalette()
    public var repeatsCharacters: Bool { Terminfo.hasStringCapability("rep") }
    public var editsLines: Bool { Terminfo.hasStringCapability("dch") && Terminfo.hasStringCapability("ich") }
    /// What a test says (the real terminal's comes from `TerminalQuirks`).
    public var fullBlockFillsCell = true
    /// What a test says (the real terminal's comes from `TerminalQuirks`).
    public var shiftedRowsWaitForTheServer = false
    public private(set) var hasHungUp = false
    public private(set) var now: ContinuousClock.Instant
    /// Every byte written so far, in order.
    public private(set) var output: [UInt8] = []
    public private(set) var keyboardFlagsPushed = false
    public private(set) var suspendCount = 0
    public private(set) var isRestored = false
    /// Real time one `wait` may sleep when nothing is pending, so the core thread (which runs on
    /// the real clock) gets to produce frames while the app loop spins on the manual one.
    public var realTimePerWait: Duration
    /// Answer each cursor-position request (`CSI 6 n`, the link pacer's probe) at once, as a
    /// terminal on a fast link does. Off: the test answers them itself (a slow link).
    public var answersCursorPositionRequests = true

    private var pendingInput: [UInt8] = []
    private var pendingSignals: [Int32] = []
    private var cursesFile: Int32 = -1
    private var cursesReadOffset: off_t = 0
    private let inputPipe: (read: Int32, write: Int32)

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public init(columns: Int = 80, rows: Int = 24, terminalType: String = "xterm-256color",
                realTimePerWait: Duration = .milliseconds(1)) throws {
        self.columns = columns
        self.rows = rows
        self.realTimePerWait = realTimePerWait
        now = .now
        // ncursesw writes Unicode (arrows, box lines, half blocks) only under a UTF-8 locale, as
        // the real session demands of the user's environment.
        guard csystem_use_locale_utf8("C.UTF-8") == 1 else { throw Failure(description: "no C.UTF-8 locale") }
        var fds: [Int32] = [0, 0]
        try systemCall("pipe") { Glibc.pipe(&fds) }
        inputPipe = (fds[0], fds[1])
        // ncurses writes into an unlinked temporary file; `collectCursesOutput` reads it with
        // pread from its own offset (a pipe could fill up and block ncurses mid-update).
        var template = Array((NSTemporaryDirectory() + "/phosphor-headless-XXXXXX").utf8CString)
        cursesFile = try systemCall("mkstemp") { mkstemp(&template) }
        unlink(String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        let append = try systemCall("open(O_APPEND)") { fcntl(cursesFile, F_GETFL) }
        try systemCall("fcntl(O_APPEND)") { fcntl(cursesFile, F_SETFL, append | O_APPEND) }
        guard ccurses_start(terminalType, inputPipe.read, cursesFile) == 0 else {
            throw Failure(description: "ncurses cannot drive TERM=\(terminalType)")
        }
        _ = ccurses_resize(Int32(rows), Int32(columns))
        collectCursesOutput()
    }

    deinit {
        restore()
        close(inputPipe.read)
        close(inputPipe.write)
        if cursesFile >= 0 { close(cursesFile) }
    }

    // MARK: What a test does

    /// Queues bytes as if typed (or as a terminal's reply to a query).
    public func send(_ bytes: [UInt8]) { pendingInput += bytes }
    public func send(_ text: String) { send(Array(text.utf8)) }

    /// Queues a signal as the real session's handler would report it (SIGWINCH, SIGTSTP, …).
    public func raise(_ signal: Int32) { pendingSignals.append(signal) }

    /// A new window size, reported with SIGWINCH like a real terminal.
    public func resize(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        raise(SIGWINCH)
    }

    /// The terminal goes away (a dropped SSH connection): reads give end of file from now on.
    public func hangUp() {
        hasHungUp = true
        pendingInput.removeAll()
    }

    /// Moves the manual clock on.
    public func advance(by duration: Duration) { now += duration }

    /// Everything written since `start` (an index into `output`).
    public func output(since start: Int) -> ArraySlice<UInt8> {
        collectCursesOutput()
        return output[min(start, output.count)...]
    }

    /// All output, ncurses' included, up to now.
    public var recorded: [UInt8] {
        collectCursesOutput()
        return output
    }

    // MARK: TerminalDevice

    public func write(_ bytes: [UInt8]) {
        collectCursesOutput()  // what ncurses wrote before these bytes comes first
        output += bytes
        if answersCursorPositionRequests {
            // The probe moves to the bottom row first; the answer names it.
            for _ in 0..<HeadlessTerminal.occurrences(of: HeadlessTerminal.cursorPositionRequest, in: bytes) {
                send("\u{1B}[\(rows);1R")
            }
        }
    }

    static let cursorPositionRequest: [UInt8] = Array("\u{1B}[6n".utf8)

    /// How many times `pattern` occurs in `bytes`.
    public static func occurrences(of pattern: [UInt8], in bytes: [UInt8]) -> Int {
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return 0 }
        var count = 0
        var index = 0
        while index <= bytes.count - pattern.count {
            if bytes[index] == pattern[0] && Array(bytes[index..<(index + pattern.count)]) == pattern {
                count += 1
                index += pattern.count
            } else {
                index += 1
            }
        }
        return count
    }

    public func wait(timeout: Duration) -> TerminalWake {
        collectCursesOutput()
        if !pendingInput.isEmpty || !pendingSignals.isEmpty || hasHungUp {
            let wake = TerminalWake(input: !pendingInput.isEmpty || hasHungUp, signals: pendingSignals)
            pendingSignals.removeAll()
            return wake
        }
        let step = max(.zero, timeout)
        now += step
        let sleep = min(step, realTimePerWait)
        if sleep > .zero { Thread.sleep(forTimeInterval: sleep.inSeconds) }
        return TerminalWake()
    }

    public func readAvailable() -> [UInt8] {
        defer { pendingInput.removeAll() }
        return pendingInput
    }

    @discardableResult
    public func refreshSize() -> Bool {
        _ = ccurses_resize(Int32(rows), Int32(columns))
        return true
    }

    public func suspend() {
        suspendCount += 1
        ccurses_stop()
        collectCursesOutput()
        // As the real session's way out does: the palette entries go back.
        write(palette.restoreBytes)
        ccurses_resume()
    }

    public func restore() {
        guard !isRestored else { return }
        isRestored = true
        collectCursesOutput()
        ccurses_end()
        collectCursesOutput()
        write(palette.restoreBytes)
    }

    public func setKeyboardFlagsPushed(_ pushed: Bool) { keyboardFlagsPushed = pushed }

    public func setSynchronizedOutput(_ supported: Bool) { synchronizedOutput = supported }
    public func setPalette(_ palette: TerminalPalette) { self.palette = palette }

    /// Mode 1016 as the app set it (its bytes are in `output`, as a real terminal gets them).
    public private(set) var pixelMouse = false

    @discardableResult
    public func setPixelMouse(_ on: Bool) -> Bool {
        if on != pixelMouse { write(on ? PixelMouse.on : PixelMouse.off) }
        pixelMouse = on
        return on
    }

    /// Appends what ncurses wrote to its file since the last look.
    private func collectCursesOutput() {
        guard cursesFile >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = pread(cursesFile, &buffer, buffer.count, cursesReadOffset)
            guard count > 0 else { return }
            output += buffer.prefix(count)
            cursesReadOffset += off_t(count)
        }
    }
}
