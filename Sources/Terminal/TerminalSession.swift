internal import CCurses
internal import CSystem
import Foundation
import Glibc
import PhosphorKit

/// The terminal, owned for an interactive run: raw mode, the alternate screen (via ncurses),
/// mouse and paste reporting, and the promise to give all of it back on every way out — quit,
/// Ctrl-C, SIGTERM, SIGHUP (a closed SSH session), Ctrl-Z (suspend and resume), or a crash
/// (the C signal handler writes `restoreSequence` and the saved termios back).
///
/// While a session is open, descriptors 1 and 2 point at the log file: cores `printf` (gambatte
/// does), and nothing may land on the game screen. Phosphor writes to the terminal through its
/// own duplicate, `output`.
///
/// Threading: UI thread only.
public final class TerminalSession: TerminalDevice {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    let input: Int32 = STDIN_FILENO
    /// The terminal, for Phosphor's own output.
    let output: Int32
    private let savedStandardOutput: Int32
    private let savedStandardError: Int32
    private let signalPipe: (read: Int32, write: Int32)
    public private(set) var rows: Int
    public private(set) var columns: Int
    private(set) var isOpen = false
    /// The kitty keyboard protocol flags are pushed (and must be popped).
    private(set) var keyboardFlagsPushed = false
    /// The terminal answered the DECRQM query for mode 2026: frames may be wrapped in
    /// synchronized output (and every exit path ends it, in case a frame was cut short).
    public private(set) var synchronizedOutput = false
    /// The palette entries the terminal reported: given back on every way out, since the picture
    /// may have redefined them.
    public private(set) var palette = TerminalPalette()
    public var repeatsCharacters: Bool { Terminfo.hasStringCapability("rep") }
    public var editsLines: Bool { Terminfo.hasStringCapability("dch") && Terminfo.hasStringCapability("ich") }
    public let fullBlockFillsCell: Bool
    public let shiftedRowsWaitForTheServer: Bool
    /// The terminal hung up (its SSH connection or window went away): reading it gives end of
    /// file or EIO. SIGHUP usually says so too, but not when the session's leader outlives the
    /// hangup (a remote shell that traps HUP): without this the game would play on, unseen, for good.
    public private(set) var hasHungUp = false
    private var modes: [UInt8] = []
    /// When `wait` last measured the log file (what cores printf into it grows it unseen).
    private var lastLogCheck = ContinuousClock.now
    /// `wait` saw input that nobody has read yet, so `readAvailable` may read without polling
    /// again. The only other reader, `awaitPendingReplies` (suspend and restore go through it),
    /// clears it: a stale true would make `readAvailable` block until the next key.
    private var inputIsReady = false
    /// The reporting modes switched on (no mouse under GNU screen: `TerminalQuirks.wantsMouse`).
    private let modesOn: [UInt8]
    /// The type ncurses is opened for (nil: TERM; see `TerminalQuirks.cursesTerminalType`).
    private let cursesType: String?
    /// Mouse reports are on (not under GNU screen).
    private let reportsMouse: Bool
    /// SGR-Pixels mouse reports (mode 1016) are on: switched off on every way out, on again
    /// after a suspend.
    public private(set) var pixelMouse = false

    /// Checks the terminal before touching it: a real tty, not `dumb`, a UTF-8 locale.
    public init(logFile: URL, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard csystem_is_terminal(STDIN_FILENO) == 1, csystem_is_terminal(STDOUT_FILENO) == 1 else {
            throw Failure(description: "needs a terminal (for runs without one: phosphor run --headless)")
        }
        let term = environment["TERM"] ?? ""
        guard !term.isEmpty, term != "dumb" else {
            throw Failure(description: "TERM is '\(term.isEmpty ? "unset" : term)': Phosphor needs a terminal that can move the cursor and show colour")
        }
        guard csystem_use_environment_locale_utf8() == 1 else {
            throw Failure(description: "the locale is not UTF-8 (try LANG=C.UTF-8): the picture is drawn with Unicode half blocks")
        }
        let size = try terminalSize(of: STDOUT_FILENO)
        rows = size.rows
        columns = size.columns
        output = try systemCall("dup(stdout)") { csystem_duplicate(STDOUT_FILENO) }
        savedStandardOutput = try systemCall("dup(stdout)") { csystem_duplicate(STDOUT_FILENO) }
        savedStandardError = try systemCall("dup(stderr)") { csystem_duplicate(STDERR_FILENO) }
        var fds: [Int32] = [0, 0]
        try systemCall("pipe2") { csystem_pipe(&fds) }
        signalPipe = (fds[0], fds[1])
        let quirks = TerminalQuirks(terminalName: term, environment: environment)
        reportsMouse = quirks.wantsMouse
        fullBlockFillsCell = quirks.fullBlockFillsCell
        shiftedRowsWaitForTheServer = quirks.shiftedRowsWaitForTheServer
        modesOn = quirks.wantsMouse ? Self.mouseModesOn + Self.otherModesOn : Self.otherModesOn
        cursesType = TerminalQuirks.cursesTerminalType(environment: environment)
        try open(logFile: logFile)
    }

    deinit { restore() }

    private func open(logFile: URL) throws {
        try systemCall("tcgetattr") { csystem_save_terminal(input) }
        if csystem_saved_terminal_was_raw() == 1 {
            Log.warning("the terminal was left raw (no echo, no line editing) by a killed program: sane modes are restored on exit")
        }
        if Log.shared.file?.path != logFile.path { try? Log.shared.open(logFile) }
        // The log owns descriptors 1 and 2 from here: it rotates the file when cores printf too
        // much (enforceSizeLimit, from wait) and dup2s the new file onto them. A log without a file
        // (read-only or full disk) sends them to /dev/null: never onto the game screen.
        if !Log.shared.redirectStandardStreams() {
            let null = try openFile("/dev/null", flags: O_WRONLY | O_CLOEXEC)
            try systemCall("dup2(/dev/null, stdout)") { csystem_replace(null, STDOUT_FILENO) }
            try systemCall("dup2(/dev/null, stderr)") { csystem_replace(null, STDERR_FILENO) }
            close(null)
        }
        guard ccurses_start(cursesType, input, output) == 0 else {
            putBackStandardStreams()
            throw Failure(description: "ncurses cannot drive TERM=\(ProcessInfo.processInfo.environment["TERM"] ?? "")")
        }
        try systemCall("tcsetattr(raw)") { csystem_enter_raw_mode(input) }
        write(modesOn)
        isOpen = true
        updateRestoreSequence()
        try systemCall("sigaction") { csystem_install_signal_handlers(signalPipe.write) }
        // A resize before the handler was in place sent a SIGWINCH nobody heard: foot under a
        // compositor starts us at 80x24 and resizes the window a moment later (measured: the
        // game stayed at 80x24 in a 212x43 foot). Read the size again now that none is lost.
        refreshSize()
    }

    /// What gives the terminal back, in the order it must happen.
    var restoreSequence: [UInt8] {
        modesOff + Array("\u{1B}[?25h\u{1B}[?1049l".utf8)
    }

    /// SGR mouse (clicks and drags).
    private static let mouseModesOn = Array("\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h".utf8)
    /// Bracketed paste, focus events.
    private static let otherModesOn = Array("\u{1B}[?2004h\u{1B}[?1004h".utf8)

    /// Pops the keyboard flags, ends synchronized output (only where the terminal knows it),
    /// turns focus, paste and mouse reports off, resets colours and clears the screen: where the
    /// alternate screen is off (GNU screen's default) the last frame would stay behind otherwise,
    /// and elsewhere this only clears the alternate screen that is about to go. Then the palette
    /// entries the picture may have redefined get their reported colours back (after the clear,
    /// so no cell shows them changing).
    private var modesOff: [UInt8] {
        var bytes: [UInt8] = []
        if keyboardFlagsPushed { bytes += KeyboardProtocol.popFlags }
        if synchronizedOutput { bytes += Array("\u{1B}[?2026l".utf8) }
        if pixelMouse { bytes += PixelMouse.off }
        bytes += Array("\u{1B}[?1004l\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[0m\u{1B}[H\u{1B}[2J".utf8)
        bytes += palette.restoreBytes
        return bytes
    }

    private func updateRestoreSequence() {
        let bytes = restoreSequence
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                csystem_set_restore_bytes(output, $0.baseAddress, Int32($0.count))
            }
        }
    }

    /// Records that the kitty flags were pushed (or popped), so every exit path pops them.
    public func setKeyboardFlagsPushed(_ pushed: Bool) {
        keyboardFlagsPushed = pushed
        updateRestoreSequence()
    }

    /// Records the palette entries the terminal reported, so every exit path restores them.
    public func setPalette(_ palette: TerminalPalette) {
        self.palette = palette
        updateRestoreSequence()
    }

    /// Records the terminal's answer to the synchronized-output query.
    public func setSynchronizedOutput(_ supported: Bool) {
        synchronizedOutput = supported
        updateRestoreSequence()
    }

    @discardableResult
    public func setPixelMouse(_ on: Bool) -> Bool {
        let wanted = on && reportsMouse
        guard wanted != pixelMouse else { return pixelMouse }
        pixelMouse = wanted
        write(wanted ? PixelMouse.on : PixelMouse.off)
        updateRestoreSequence()
        return pixelMouse
    }

    /// Gives the terminal back. Safe to call more than once.
    public func restore() {
        guard isOpen else { return }
        isOpen = false
        write(modesOff)
        awaitPendingReplies()
        ccurses_stop()
        write(Array("\u{1B}[?25h".utf8))
        _ = csystem_restore_terminal()
        _ = csystem_flush_input(input)
        csystem_remove_signal_handlers()
        putBackStandardStreams()
    }

    /// Waits, at most 300 ms, until the terminal has answered everything asked before (it answers
    /// `CSI 5 n` after every earlier question), and drops the answers. Only after palette entries
    /// were given back: tmux redraws its pane once per entry, and the link pacer's last
    /// cursor-position answer then arrived after the terminal was given back, typed into the
    /// user's shell (measured: `;1R` at the prompt after Ctrl-Z).
    private func awaitPendingReplies() {
        inputIsReady = false
        guard !palette.restoreBytes.isEmpty else { return }
        write(Array("\u{1B}[5n".utf8))
        let answer = Array("\u{1B}[0n".utf8)
        let deadline = ContinuousClock.now + .milliseconds(300)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            var ready: UInt32 = 0
            var fds: [Int32] = [input]
            let left = (deadline - .now).nanoseconds
            guard csystem_poll_readable(&fds, 1, max(0, left), &ready) > 0, ready & 1 != 0 else { return }
            let count = read(input, &buffer, buffer.count)
            guard count > 0 else { return }
            received += buffer.prefix(count)
            if HeadlessTerminal.occurrences(of: answer, in: received) > 0 { return }
        }
    }

    private func putBackStandardStreams() {
        // What cores printf'd is still in C stdio's buffer: it belongs in the log, not on the
        // user's terminal after the game.
        fflush(nil)
        Log.shared.releaseStandardStreams()
        _ = csystem_replace(savedStandardOutput, STDOUT_FILENO)
        _ = csystem_replace(savedStandardError, STDERR_FILENO)
    }

    /// Ctrl-Z: give the terminal back, stop, and take it again when continued.
    public func suspend() {
        let flags = keyboardFlagsPushed
        write(modesOff)
        awaitPendingReplies()
        ccurses_stop()
        write(Array("\u{1B}[?25h".utf8))
        _ = csystem_restore_terminal()
        csystem_suspend_self()
        // Continued.
        _ = csystem_install_signal_handlers(signalPipe.write)
        _ = csystem_enter_raw_mode(input)
        ccurses_resume()
        write(modesOn)
        if pixelMouse { write(PixelMouse.on) }
        if flags { write(KeyboardProtocol.pushGameFlags) }
        refreshSize()
    }

    /// Re-reads the window size (after SIGWINCH). Returns true when it changed.
    @discardableResult
    public func refreshSize() -> Bool {
        guard let size = try? terminalSize(of: output), size.rows > 0, size.columns > 0 else { return false }
        let changed = size.rows != rows || size.columns != columns
        rows = size.rows
        columns = size.columns
        if changed { _ = ccurses_resize(Int32(rows), Int32(columns)) }
        return changed
    }

    /// Writes all of `bytes` to the terminal (a slow terminal makes this wait; the core thread
    /// never does, because frames reach the UI thread through the latest-wins mailbox).
    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(output, raw.baseAddress! + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && (errno == EINTR || errno == EAGAIN) {
                    if errno == EAGAIN { usleep(1000) }
                } else {
                    return  // the terminal is gone (SIGHUP or the next read says so)
                }
            }
        }
    }

    /// Waits until input arrives, a signal is caught, or `timeout` passes.
    public func wait(timeout: Duration) -> TerminalWake {
        let nanoseconds = max(0, min(timeout.nanoseconds, 1_000_000_000))
        var ready: UInt32 = 0
        let fds: [Int32] = [input, signalPipe.read]
        _ = csystem_poll_readable(fds, 2, nanoseconds, &ready)
        if now - lastLogCheck >= .seconds(1) {
            lastLogCheck = now
            Log.shared.enforceSizeLimit()
        }
        var wake = TerminalWake()
        wake.input = ready & 1 != 0
        inputIsReady = wake.input
        if ready & 2 != 0 {
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(signalPipe.read, &buffer, buffer.count)
            if count > 0 { wake.signals = buffer.prefix(count).map { Int32($0) } }
        }
        return wake
    }

    /// What the terminal sent since the last call (non-blocking).
    public func readAvailable() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        if inputIsReady {
            // `wait` just saw input and nothing has read it since: no second poll (the play loop
            // reads after every wait that saw input, about 1.5 times a frame).
            inputIsReady = false
        } else {
            var ready: UInt32 = 0
            var fds: [Int32] = [input]
            guard csystem_poll_readable(&fds, 1, 0, &ready) > 0, ready & 1 != 0 else { return [] }
        }
        let count = read(input, &buffer, buffer.count)
        if count > 0 { return Array(buffer.prefix(count)) }
        // Raw mode waits for at least one byte (VMIN 1), so nothing from a ready terminal is its end.
        if count == 0 || errno == EIO { hasHungUp = true }
        return []
    }

    public var now: ContinuousClock.Instant { .now }
}

extension TerminalSession {
    /// The window's size in pixels as the tty knows it (nil when the terminal leaves it zero).
    public var windowPixels: (width: Int, height: Int)? {
        guard let size = try? terminalPixelSize(of: output), size.width > 0, size.height > 0 else { return nil }
        return size
    }
}
