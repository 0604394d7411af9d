/// Frontend commands bound to keys like buttons are. Raw values are the names in key-map files.
///
/// Defaults (see `KeyMap.defaultActions`): Esc or F1 pause menu, Tab fast-forward toggle, Space
/// fast-forward while held, F5 quick save, F8 quick load, H hold-button toggle, F12 screenshot,
/// F6/F7 state slot up/down, F9 reset, B rewind while held, V slow motion while held, P pause
/// (without the menu), U one frame on while paused; quit has no default key (it is in the pause menu) so a
/// stray key press never ends a game.
public enum InputAction: String, CaseIterable, Sendable, Codable {
    case pauseMenu = "pause-menu"
    case fastForwardToggle = "fast-forward-toggle"
    /// Fast-forward only while the key is held (query `PlayerInput.isFastForwardHeld(now:)`).
    case fastForwardHold = "fast-forward-hold"
    case quickSave = "quick-save"
    case quickLoad = "quick-load"
    /// Arms the hold-button toggle: the next button key pressed toggles that button's hold.
    case holdButtonToggle = "hold-button-toggle"
    case screenshot
    case stateSlotUp = "state-slot-up"
    case stateSlotDown = "state-slot-down"
    case reset
    /// Runs the game backwards while held (query `PlayerInput.isHeld(_:now:)`).
    case rewind
    /// Slow motion while held (query `PlayerInput.isHeld(_:now:)`).
    case slowMotionHold = "slow-motion-hold"
    /// Pauses or resumes the game without opening the menu (so frame advance can step it).
    case pauseToggle = "pause"
    /// While paused: runs exactly one frame and shows it.
    case frameAdvance = "frame-advance"
    case mute
    case quit

    /// For menus and the key-map editor.
    public var title: String {
        switch self {
        case .pauseMenu: "Pause menu"
        case .fastForwardToggle: "Fast-forward (toggle)"
        case .fastForwardHold: "Fast-forward (hold)"
        case .quickSave: "Quick save"
        case .quickLoad: "Quick load"
        case .holdButtonToggle: "Hold button"
        case .screenshot: "Screenshot"
        case .stateSlotUp: "State slot +"
        case .stateSlotDown: "State slot -"
        case .reset: "Reset"
        case .rewind: "Rewind (hold)"
        case .slowMotionHold: "Slow motion (hold)"
        case .pauseToggle: "Pause"
        case .frameAdvance: "Frame advance"
        case .mute: "Sound on/off"
        case .quit: "Quit"
        }
    }
}
