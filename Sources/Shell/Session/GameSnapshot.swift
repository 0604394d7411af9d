import Emulation
import Input
import PhosphorKit
import Render

/// A value copy of what the pause menu and its screens show about the running game. Menus read
/// only this and change the game only through `GameCommand`s.
struct GameSnapshot {
    var system: GameSystem
    /// "Quit to Library" instead of "Quit".
    var launchedFromLibrary: Bool
    var slot: Int
    var fastForwardText: String
    /// The held buttons as the status bar names them (nil: none held).
    var holdText: String?
    var heldButtons: ButtonMask
    var colorMode: ColorMode
    var videoMode: VideoModeChoice
    /// Volume in per cent; nil when there is no sound device.
    var volume: Int?
    var muted: Bool
    /// Why there is no sound (nil when there is).
    var audioStatus: String?
    var dsLayout: DSScreenLayout
    var statusBarVisible: Bool
    var canUndoLoad: Bool
    var stateSlots: [StateStore.SlotSummary]
    var keyMap: KeyMap
    var cheats: CheatSnapshot
    /// The core's options and their values (the Core Options screen).
    var coreOptions: [CoreOptionState] = []
    var timeline: TimelineSnapshot
}

/// What the Rewind & Run-Ahead screen shows.
struct TimelineSnapshot {
    var settings: TimelineSettings
    /// This game's own run-ahead choice (nil: it follows its system's).
    var gameRunAhead: RunAheadChoice?
    var systemRunAhead: RunAheadChoice
    /// Seconds the rewind buffer holds now.
    var rewindSeconds: Double
    /// Why rewind or run-ahead turned itself off.
    var problem: String?
}

/// What the Cheat Codes screen shows.
struct CheatSnapshot {
    var list: CheatList
    /// The cheat file could not be read (it is kept as it is, and nothing can be added).
    var loadError: String?
    /// Why this core takes no cheats (nil: it does).
    var unsupportedReason: String?
    /// A remark about how this core applies cheats.
    var note: String?

    /// The pause menu's value for "Cheat Codes": "unsupported", "none", "all off", "2 on".
    var summary: String {
        if unsupportedReason != nil { return "unsupported" }
        let on = list.enabledCount
        if on > 0 { return "\(on) on" }
        return list.cheats.isEmpty ? "none" : "all off"
    }

    /// "1 cheat on", "3 cheats on".
    static func countText(_ count: Int) -> String { count == 1 ? "1 cheat on" : "\(count) cheats on" }
}
