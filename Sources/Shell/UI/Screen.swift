import Foundation
import Input
import PhosphorKit
import Terminal

/// What a screen did with an event (gitui's model): consumed it, or let the screen below have it.
enum EventResult {
    case consumed
    case ignored
}

/// Requests screens make of the app instead of calling each other: the only way one screen
/// affects another, or the running game.
enum AppAction {
    /// Start a game from the library (or a file given on the command line).
    case play(GameLaunch)
    /// Leave the play screen and show the library.
    case returnToLibrary
    /// Push a screen (a dialog or overlay) on top.
    case push(Screen)
    /// Close the top screen.
    case pop
    /// Close every overlay above the topmost full screen (back to the game from a sub-menu).
    case closeOverlays
    /// Quit Phosphor.
    case quit
    /// Something failed for good (the core crashed): Phosphor prints this after the terminal is
    /// restored and exits with status 1.
    case fail(String)
    /// Show a one-line message in the current screen's status area.
    case notify(String)
    /// Something changed outside an event (a tick): draw again.
    case redraw
    /// A command for the running game (from the pause menu and its screens).
    case game(GameCommand)
    /// A command for the library (from the browser's menus).
    case library(LibraryCommand)
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
    /// The archive `rom` was extracted from, when it was.
    var archive: ArchivedGame?
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
    /// Another screen now lies on top of this one (`true`), or none does any more (`false`).
    /// The app derives this from its stack after every change; screens keep no flag of their own.
    func coverChanged(covered: Bool)
    /// The screen draws on its own ticks (the play screen): an input event alone doesn't make
    /// the app redraw it, which would cost a whole picture per key press.
    var drawsOnTicks: Bool { get }
    /// After ncurses has flushed what every screen drew: raw pictures over ncurses' cells (the
    /// browser's preview in pixels). Called for every screen on the stack, covered or not, so a
    /// covered one can take its picture down.
    func drawOverText(in context: DrawContext)
}

extension Screen {
    func tick(now: ContinuousClock.Instant, context: DrawContext, actions: inout [AppAction]) -> Duration? { nil }
    var isOverlay: Bool { false }
    func becameTop() {}
    func coverChanged(covered: Bool) {}
    var drawsOnTicks: Bool { false }
    func drawOverText(in context: DrawContext) {}
}

/// A screen that must finish something when it goes away (stop the core, write saves).
protocol ClosingScreen: Screen {
    func close()
}

/// A screen that shows one-line messages.
protocol NotifiableScreen: Screen {
    func notify(_ message: String)
}

/// A screen that must pause work across Ctrl-Z.
protocol SuspendingScreen: Screen {
    func willSuspend()
    func didResume()
}
