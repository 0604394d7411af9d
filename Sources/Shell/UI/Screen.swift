import Foundation
import Input
import PhosphorKit

/// What a screen did with an event (gitui's model): consumed it, or let the screen below have it.
enum EventResult {
    case consumed
    case ignored
}

/// Requests screens make of the app instead of calling each other.
enum AppAction {
    /// Start a game from the library (or a file given on the command line).
    case play(GameLaunch)
    /// Leave the play screen and show the library.
    case returnToLibrary
    /// Push a screen (a dialog or overlay) on top.
    case push(Screen)
    /// Close the top screen.
    case pop
    /// Quit Phosphor.
    case quit
    /// Show a one-line message in the current screen's status area.
    case notify(String)
    /// Something changed outside an event (a tick): draw again.
    case redraw
}

/// Everything needed to start a game.
struct GameLaunch {
    var rom: URL
    var system: GameSystem?
    var title: String
    /// The library's id for play-time accounting (nil for a file from the command line).
    var gameID: Int64?
    /// Load the automatic state after starting ("Continue").
    var resume: Bool = false
    var explicitCore: URL?
}

/// A full-screen or overlay screen. UI thread only.
protocol Screen: AnyObject {
    /// Handles one input event. Actions go into `actions`.
    func handle(_ event: InputEvent, now: ContinuousClock.Instant, actions: inout [AppAction]) -> EventResult
    /// Draws the screen (ncurses windows, raw picture layers) for the terminal's current size.
    func draw(in context: DrawContext)
    /// Called every loop iteration; returns how soon it wants to run again (nil: only on events).
    func tick(now: ContinuousClock.Instant, context: DrawContext, actions: inout [AppAction]) -> Duration?
    /// True when the screen covers only part of the terminal (the screen below stays visible).
    var isOverlay: Bool { get }
    /// The screen became the top one again (the one above closed): redraw fully.
    func becameTop()
    /// The screen draws on its own ticks (the play screen): an input event alone doesn't make
    /// the app redraw it, which would cost a whole picture per key press.
    var drawsOnTicks: Bool { get }
}

extension Screen {
    func tick(now: ContinuousClock.Instant, context: DrawContext, actions: inout [AppAction]) -> Duration? { nil }
    var isOverlay: Bool { false }
    func becameTop() {}
    var drawsOnTicks: Bool { false }
}

/// What a screen draws with: the terminal size, the ncurses screen, and raw output for pictures.
final class DrawContext {
    let terminal: TerminalSession
    var rows: Int { terminal.rows }
    var columns: Int { terminal.columns }
    /// Set by a screen when it drew something with ncurses (the app then calls doupdate once).
    var cursesDirty = false

    init(terminal: TerminalSession) { self.terminal = terminal }

    /// Writes raw bytes (a rendered picture) over whatever ncurses drew, then puts the cursor and
    /// attributes back where ncurses believes they are, so its next update lands correctly.
    func writeRaw(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        var row: Int32 = 0
        var column: Int32 = 0
        ccursesCursor(&row, &column)
        var output = bytes
        output += Array("\u{1B}[0m\u{1B}[\(row + 1);\(column + 1)H".utf8)
        terminal.write(output)
        ccursesAttributesReset()
    }
}
