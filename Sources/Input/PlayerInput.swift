import PhosphorKit

/// The play screen's input: decoded terminal events in, per-port button masks and frontend actions
/// out. Merges the keyboard (through the key map and the hold model), hold buttons, gamepads
/// and the mouse on the DS touch screen.
///
/// Owned by the UI thread; the shell calls `handle` for each decoded event and, once per display
/// tick, writes `buttons(port:now:)` and `pointer` into `InputState`.
public final class PlayerInput {
    public let system: GameSystem
    public private(set) var keyMap: KeyMap
    public private(set) var holdModel: HoldModel
    public var holdButtons = HoldButtons()
    /// Masks from `GamepadManager.buttons`, one per port (the shell copies them in each tick).
    public var gamepadButtons: [ButtonMask] = []
    /// Where the DS touch screen is drawn, in cells; nil when there is none (or not shown).
    public var touchScreen: CellRect?
    /// The touch-screen pointer for `InputState.setPointer`.
    public private(set) var pointer: (x: Int16, y: Int16, pressed: Bool) = (0, 0, false)

    /// `releaseEvents`: the kitty protocol is active (`KeyboardProtocolNegotiation.releaseEvents`).
    public init(system: GameSystem, keyMap: KeyMap, releaseEvents: Bool, timing: HoldTiming = .standard) {
        self.system = system
        self.keyMap = keyMap
        self.holdModel = HoldModel(releaseEvents: releaseEvents, timing: timing)
    }

    /// Whether key releases are real (kitty) or guessed from autorepeat.
    public var releaseEvents: Bool { holdModel.releaseEvents }

    /// The terminal's kitty keyboard protocol came on after the game started (its answer to the
    /// start-up query arrived late): from now on a key is held from press to release.
    public func switchToReleaseEvents() {
        guard !releaseEvents else { return }
        holdModel.releaseAll()
        holdModel = HoldModel(releaseEvents: true, timing: holdModel.timing)
    }

    /// The notice to show once when playing without release events, nil with them.
    public var notice: String? { releaseEvents ? nil : HoldModel.noReleaseNotice }

    /// Switches key maps (after the key-map editor saved); keys held so far are released.
    public func setKeyMap(_ map: KeyMap) {
        keyMap = map
        holdModel.releaseAll()
    }

    /// Handles one decoded event; returns the actions it triggers (in order). Actions fire once per
    /// press, never on autorepeat. Paste and query replies are ignored.
    public func handle(_ event: InputEvent, now: ContinuousClock.Instant) -> [InputAction] {
        switch event {
        case .key(let keyEvent):
            return handleKey(keyEvent, now: now)
        case .mouse(let mouse):
            handleMouse(mouse)
            return []
        case .focus(false):
            // No releases arrive while another window has focus: let go of everything.
            holdModel.releaseAll()
            pointer.pressed = false
            return []
        case .focus(true), .paste, .keyboardFlags, .deviceAttributes, .modeReport, .backgroundColor, .cursorPosition:
            return []
        }
    }

    private func handleKey(_ event: KeyEvent, now: ContinuousClock.Instant) -> [InputAction] {
        let isFreshPress: Bool = switch event.kind {
        case .press: releaseEvents || !holdModel.isHeldOnItsOwn(event.key, now: now)
        case .repeat, .release: false
        }
        let targets = keyMap.targets(for: event.key)
        if isFreshPress, holdButtons.isArmed {
            for case .button(0, let button) in targets {
                holdButtons.toggle(button)
                holdModel.handle(event, now: now)
                return []
            }
            if targets.contains(.action(.pauseMenu)) || targets.contains(.action(.holdButtonToggle)) {
                holdButtons.disarm()
                holdModel.handle(event, now: now)
                return []
            }
        }
        holdModel.handle(event, now: now)
        guard isFreshPress else { return [] }
        var actions: [InputAction] = []
        for case .action(let action) in targets {
            switch action {
            case .holdButtonToggle: holdButtons.toggleArmed()
            case .fastForwardHold: break  // a state, see isFastForwardHeld(now:)
            default: actions.append(action)
            }
        }
        return actions
    }

    private func handleMouse(_ mouse: MouseEvent) {
        guard let touchScreen else { return }
        switch (mouse.kind, mouse.button) {
        case (.press, .left):
            if let position = PointerMapping.pointer(column: mouse.column, row: mouse.row, touchScreen: touchScreen) {
                pointer = (position.x, position.y, true)
            }
        case (.drag, .left) where pointer.pressed:
            if let position = PointerMapping.pointer(column: mouse.column, row: mouse.row,
                                                     touchScreen: touchScreen, clamped: true) {
                pointer = (position.x, position.y, true)
            }
        case (.release, _):
            pointer.pressed = false
        default:
            break
        }
    }

    /// The buttons `port` holds at `now`: keyboard, plus the gamepad on that port, plus (port 0)
    /// the hold buttons.
    public func buttons(port: Int, now: ContinuousClock.Instant) -> ButtonMask {
        var mask: ButtonMask = []
        if port < keyMap.players.count {
            for (button, keys) in keyMap.players[port] where keys.contains(where: { holdModel.isHeld($0, now: now) }) {
                mask.insert(button)
            }
        }
        if port < gamepadButtons.count { mask.formUnion(gamepadButtons[port]) }
        if port == 0 { mask.formUnion(holdButtons.held) }
        return mask
    }

    /// True while a fast-forward-hold key is held.
    public func isFastForwardHeld(now: ContinuousClock.Instant) -> Bool {
        keyMap.keys(for: .action(.fastForwardHold)).contains { holdModel.isHeld($0, now: now) }
    }

    /// Leaving play mode (pause menu): nothing stays pressed except the hold buttons.
    public func releaseKeys() {
        holdModel.releaseAll()
        pointer.pressed = false
    }

    /// The status-line text for hold buttons (see `HoldButtons.statusText(for:)`).
    public var holdStatusText: String? { holdButtons.statusText(for: system) }
}
