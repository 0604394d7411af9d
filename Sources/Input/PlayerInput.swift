import PhosphorKit

/// The play screen's input: decoded terminal events in, per-port button masks and frontend actions
/// out. Merges the keyboard (through the key map and the hold model), hold buttons, gamepads
/// and the mouse on the DS touch screen.
///
/// Owned by the UI thread; the shell calls `handle` for each decoded event and, once per display
/// tick, writes `buttons(port:now:)` and `pointer` into `InputState`.
public final class PlayerInput {
    public let system: GameSystem
    public private(set) var keyMap: KeyMap {
        didSet { keyMapRevision &+= 1 }
    }
    /// Changes whenever `keyMap` does: what the play screen built from the map (its key legend)
    /// is kept until then, not rebuilt for every frame.
    public private(set) var keyMapRevision = 0
    public private(set) var holdModel: HoldModel
    public var holdButtons = HoldButtons()
    /// Masks from `GamepadManager.buttons`, one per port (the shell copies them in each tick).
    public var gamepadButtons: [ButtonMask] = []
    /// Sticks from `GamepadManager.sticks`, one pair (left, right) per port.
    public var gamepadSticks: [[StickPosition]] = []
    /// Actions whose pad buttons are down (`GamepadManager.actions`), set by `takeGamepadActions`.
    public private(set) var gamepadActions: Set<InputAction> = []
    /// Stick keys last pressed with Shift: they push half way.
    private var halfwayKeys: Set<Key> = []
    /// Where the DS touch screen is drawn, in cells; nil when there is none (or not shown).
    public var touchScreen: CellRect?
    /// The touch screen's picture in terminal pixels, for pixel reports (mode 1016); nil maps
    /// every report through `touchScreen`'s cells.
    public var touchPixels: TouchPixels?
    /// The touch-screen pointer for `InputState.setPointer`.
    public private(set) var pointer: (x: Int16, y: Int16, pressed: Bool) = (0, 0, false)

    /// Real presses and releases from outside the terminal (XInput2, evdev), when the terminal
    /// has none of its own: they time the holds; the terminal's presses still trigger actions.
    public private(set) var releaseSource: (any KeyReleaseSource)?
    /// Tells the terminal's autorepeat from new presses while a release source times the holds.
    private var terminalPresses: HoldModel
    /// Whether the release source has reported any key yet, and how many play-key presses the
    /// terminal typed meanwhile: a source that hears nothing (a wrong window, an X server that
    /// withholds raw events from this client) gives way to the tap model after a few.
    private var sourceHeardFrom = false
    private var unheardPresses = 0
    static let unheardPressLimit = 3

    /// `releaseEvents`: the kitty protocol is active (`KeyboardProtocolNegotiation.releaseEvents`).
    /// `releaseSource` is used only without it.
    public init(system: GameSystem, keyMap: KeyMap, releaseEvents: Bool, timing: HoldTiming = .standard,
                releaseSource: (any KeyReleaseSource)? = nil) {
        self.system = system
        self.keyMap = keyMap
        self.releaseSource = releaseEvents ? nil : releaseSource
        if releaseEvents { releaseSource?.stop() }
        self.holdModel = HoldModel(releaseEvents: releaseEvents || releaseSource != nil, timing: timing)
        terminalPresses = HoldModel(releaseEvents: false, timing: timing)
    }

    /// Whether the terminal itself reports releases (kitty protocol).
    public private(set) lazy var releaseEvents: Bool = holdModel.releaseEvents && releaseSource == nil

    /// Where the key holds come from, for the status bar: "kitty", "XInput2", "evdev" or "tap".
    public var holdSourceName: String {
        if let releaseSource { return releaseSource.name }
        return releaseEvents ? "kitty" : "tap"
    }

    /// The terminal's kitty keyboard protocol came on after the game started (its answer to the
    /// start-up query arrived late): from now on a key is held from press to release, as the
    /// terminal says (a side channel stops).
    public func switchToReleaseEvents() {
        guard !releaseEvents else { return }
        releaseSource?.stop()
        releaseSource = nil
        releaseEvents = true
        holdModel.releaseAll()
        holdModel = HoldModel(releaseEvents: true, timing: holdModel.timing)
    }

    /// The notice to show once when playing without release events, nil with them.
    public var notice: String? { releaseEvents || releaseSource != nil ? nil : HoldModel.noReleaseNotice }

    /// Starts the tap model from the keyboard's known autorepeat (XKB's), before any is measured.
    public func adoptRepeatTiming(_ timing: RepeatTiming) {
        holdModel.adopt(timing)
        terminalPresses.adopt(timing)
    }

    /// Once per display tick: the release source's transitions move the holds (`playing` false:
    /// they are dropped, the pause menu has the keys). Returns a notice when the source ended
    /// and the tap model took over.
    public func pollReleaseSource(playing: Bool) -> String? {
        guard let source = releaseSource else { return nil }
        if !sourceHeardFrom, unheardPresses >= Self.unheardPressLimit {
            Log.warning("\(source.name) reported no key while the terminal typed \(unheardPresses): tap model")
            source.stop()
            releaseSource = nil
            holdModel = HoldModel(releaseEvents: false, timing: holdModel.timing)
            return "\(source.name) sees no keys from this window: a tap is a short press now"
        }
        for timed in source.takeTransitions() where playing {
            switch timed.transition {
            case .down(let key):
                sourceHeardFrom = true
                holdModel.handle(KeyEvent(key), now: timed.time)
            case .up(let key): holdModel.handle(KeyEvent(key, kind: .release), now: timed.time)
            case .allUp: holdModel.releaseAll()
            }
        }
        guard !source.isRunning else { return nil }
        releaseSource = nil
        holdModel = HoldModel(releaseEvents: false, timing: holdModel.timing)
        return "\(source.name) key release stopped: a tap is a short press now"
    }

    /// Ends the release source (the game closes).
    public func stopReleaseSource() {
        releaseSource?.stop()
    }

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
        case .focus(true), .paste, .keyboardFlags, .deviceAttributes, .modeReport, .backgroundColor, .paletteColor,
             .graphicsReply, .graphicsAttribute, .cellPixelSize, .cursorPosition, .terminalVersion:
            return []
        }
    }

    private func handleKey(_ event: KeyEvent, now: ContinuousClock.Instant) -> [InputAction] {
        let isFreshPress: Bool
        switch event.kind {
        case .press where releaseEvents:
            isFreshPress = true
        case .press where releaseSource != nil:
            isFreshPress = !terminalPresses.isAutorepeat(event.key, now: now)
            terminalPresses.handle(event, now: now)
        case .press:
            isFreshPress = !holdModel.isAutorepeat(event.key, now: now)
        case .repeat, .release:
            isFreshPress = false
        }
        let targets = keyMap.targets(for: event.key)
        if isFreshPress, holdButtons.isArmed {
            for case .button(0, let button) in targets {
                holdButtons.toggle(button)
                holdTerminalKey(event, now: now)
                return []
            }
            if targets.contains(.action(.pauseMenu)) || targets.contains(.action(.holdButtonToggle)) {
                holdButtons.disarm()
                holdTerminalKey(event, now: now)
                return []
            }
        }
        holdTerminalKey(event, now: now)
        if event.kind != .release, targets.contains(where: { if case .stick = $0 { true } else { false } }) {
            if event.modifiers.contains(.shift) { halfwayKeys.insert(event.key) } else { halfwayKeys.remove(event.key) }
        }
        guard isFreshPress else { return [] }
        if releaseSource != nil, !sourceHeardFrom, targets.contains(where: { if case .button = $0 { true } else { false } }) {
            unheardPresses += 1
        }
        var actions: [InputAction] = []
        for case .action(let action) in targets {
            switch action {
            case .holdButtonToggle: holdButtons.toggleArmed()
            case .fastForwardHold, .rewind, .slowMotionHold: break  // states, see isHeld(_:now:)
            default: actions.append(action)
            }
        }
        return actions
    }

    /// The terminal's key events time the holds unless a release source does (no double count).
    private func holdTerminalKey(_ event: KeyEvent, now: ContinuousClock.Instant) {
        if releaseSource == nil { holdModel.handle(event, now: now) }
    }

    private func handleMouse(_ mouse: MouseEvent) {
        switch (mouse.kind, mouse.button) {
        case (.press, .left):
            if let position = touchPosition(of: mouse, clamped: false) {
                pointer = (position.x, position.y, true)
                // One line per touch (tests and bug reports read where it landed).
                Log.info("touch: pointer \(position.x),\(position.y) from \(mouse.pixel.map { "pixel \($0.x),\($0.y)" } ?? "cell \(mouse.column),\(mouse.row)")")
            }
        case (.drag, .left) where pointer.pressed:
            if let position = touchPosition(of: mouse, clamped: true) {
                pointer = (position.x, position.y, true)
            }
        case (.release, _) where pointer.pressed:
            pointer.pressed = false
            Log.info("touch: released at \(pointer.x),\(pointer.y)")
        default:
            break
        }
    }

    /// Where a report lands on the touch screen: through its picture's pixels when the report
    /// has pixels (mode 1016), else the centre of its cell.
    private func touchPosition(of mouse: MouseEvent, clamped: Bool) -> (x: Int16, y: Int16)? {
        if let pixel = mouse.pixel, let touchPixels {
            return PointerMapping.pointer(pixelX: pixel.x, pixelY: pixel.y, touchScreen: touchPixels, clamped: clamped)
        }
        guard let touchScreen else { return nil }
        return PointerMapping.pointer(column: mouse.column, row: mouse.row, touchScreen: touchScreen, clamped: clamped)
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

    /// Where `stick` of `port` points at `now`: the keys bound to its directions (full deflection,
    /// half with Shift) when any is held, else the gamepad on that port.
    public func stick(_ stick: AnalogStick, port: Int, now: ContinuousClock.Instant) -> StickPosition {
        var held: [(direction: StickDirection, half: Bool)] = []
        if port < keyMap.sticks.count {
            for (direction, keys) in keyMap.sticks[port] where direction.stick == stick {
                let pressed = keys.filter { holdModel.isHeld($0, now: now) }
                if !pressed.isEmpty { held.append((direction, pressed.allSatisfy { halfwayKeys.contains($0) })) }
            }
        }
        if !held.isEmpty { return StickDirection.position(of: stick, held: held) }
        guard port < gamepadSticks.count, stick.rawValue < gamepadSticks[port].count else { return .centre }
        return gamepadSticks[port][stick.rawValue]
    }

    /// True while a fast-forward-hold key is held.
    public func isFastForwardHeld(now: ContinuousClock.Instant) -> Bool { isHeld(.fastForwardHold, now: now) }

    /// True while a key or pad button bound to `action` is held (the hold actions: fast-forward,
    /// rewind, slow motion).
    public func isHeld(_ action: InputAction, now: ContinuousClock.Instant) -> Bool {
        gamepadActions.contains(action) || keyMap.keys(for: .action(action)).contains { holdModel.isHeld($0, now: now) }
    }

    /// Once per display tick: the actions the pads hold now. Returns those just pressed that
    /// fire once (as `handle` does for keys); the hold actions are states, see `isHeld(_:now:)`.
    public func takeGamepadActions(_ held: Set<InputAction>) -> [InputAction] {
        let pressed = held.subtracting(gamepadActions)
        gamepadActions = held
        var actions: [InputAction] = []
        for action in InputAction.allCases where pressed.contains(action) {
            switch action {
            case .holdButtonToggle: holdButtons.toggleArmed()
            case .fastForwardHold, .rewind, .slowMotionHold: break
            default: actions.append(action)
            }
        }
        return actions
    }

    /// Leaving play mode (pause menu): nothing stays pressed except the hold buttons.
    public func releaseKeys() {
        holdModel.releaseAll()
        pointer.pressed = false
    }

    /// The status-line text for hold buttons (see `HoldButtons.statusText(for:)`).
    public var holdStatusText: String? { holdButtons.statusText(for: system) }
}
