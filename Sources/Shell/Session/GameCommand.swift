import Emulation
import Input
import PhosphorKit

/// What the pause menu and its screens ask of the running game. Screens send these as
/// `AppAction.game(_)`; the app hands them to the `GameSession`, which answers with a
/// `GameCommandOutcome` and a new `GameSnapshot` for every screen that shows one.
enum GameCommand: Equatable {
    case saveState(StateSlot)
    case loadState(StateSlot)
    case undoLoad
    case setStateLocked(StateSlot, Bool)
    case deleteState(StateSlot)
    case undoSave(StateSlot)
    /// Makes this numbered slot the current one (quick keys and the status bar use it).
    case selectSlot(Int)
    case reset
    case screenshot
    /// Steps through the fast-forward speeds this system allows (−1 back, +1 on).
    case stepFastForwardSpeed(Int)
    /// Rewind on or off, its granularity and buffer, run-ahead for this game or its whole
    /// system, and slow motion's speed (the Rewind & Run-Ahead screen).
    case toggleRewind
    case stepRewindGranularity(Int)
    case stepRewindBuffer(Int)
    case stepRunAhead(RunAheadScope, Int)
    case stepSlowMotion(Int)
    case stepColorMode(Int)
    /// Steps through auto, kitty, sixel and half blocks.
    case stepVideoMode(Int)
    /// Volume up or down by ten per cent a step.
    case stepVolume(Int)
    case toggleMute
    case stepDSLayout(Int)
    case toggleStatusBar
    /// Replaces the game's cheat list: handed to the core at once and saved to its file.
    case setCheats(CheatList)
    /// Adds a cheat (switched on) at the end of the list, applies and saves it.
    case addCheat(Cheat)
    /// Adds cheats read from a RetroArch `.cht` file at the end of the list, applies and saves
    /// them; `summary` is what the Cheat Codes screen says once they are in.
    case importCheats([Cheat], summary: String)
    /// Sets a core option (the core thread applies it, the core sees it at its next
    /// GET_VARIABLE_UPDATE) and saves it for every game or for this game only.
    case setCoreOption(key: String, value: String, forThisGame: Bool)
    case toggleHeldButton(JoypadButton)
    case releaseHeldButtons
    /// The player's new key map: used at once and saved for the system.
    case setKeyMap(KeyMap)
    /// Binds the next pad button pressed to this button or action (nil stops waiting).
    case captureGamepadButton(GamepadBindingTarget?)
}

/// Whom a run-ahead setting is for: this game only, or every game of its system.
enum RunAheadScope: Equatable {
    case game, system
}

/// How a command went: `problem` is a one-line reason when it failed; `message` is what the
/// screen that sent it may show when it worked (e.g. the pad button that was bound).
struct GameCommandOutcome: Equatable {
    var command: GameCommand
    var problem: String?
    var message: String?

    var succeeded: Bool { problem == nil }
}

/// A screen that shows part of the running game's state (the pause menu and its screens).
/// The app hands it a new snapshot after every game command, and the outcome when it was the
/// top screen (the one that most likely sent it).
protocol GameObservingScreen: Screen {
    func gameChanged(_ snapshot: GameSnapshot, outcome: GameCommandOutcome?)
}
