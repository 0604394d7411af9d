import PhosphorKit

/// What a key does: press a player's button, or trigger an action.
public enum KeyBindingTarget: Hashable, Sendable, CustomStringConvertible {
    /// `port` is zero-based (player 1 is port 0).
    case button(port: Int, JoypadButton)
    /// A push of an analog stick (RETRO_DEVICE_ANALOG).
    case stick(port: Int, StickDirection)
    case action(InputAction)

    public var description: String {
        switch self {
        case .button(let port, let button): "player\(port + 1).\(button.name)"
        case .stick(let port, let direction): "player\(port + 1).\(direction.rawValue)"
        case .action(let action): "actions.\(action.rawValue)"
        }
    }
}

/// Two targets share one key.
public struct KeyConflict: Hashable, Sendable, CustomStringConvertible {
    public var key: Key
    public var targets: [KeyBindingTarget]

    public var description: String {
        "key '\(key.name)' is bound to \(targets.map(\.description).joined(separator: " and "))"
    }
}

/// The keys for one system: per player, which keys press each RetroPad button, and which keys
/// trigger each action. A button may have several keys (Select is Right-Shift and Backspace,
/// since Right-Shift alone is only reported by the kitty protocol).
public struct KeyMap: Sendable, Equatable {
    /// Players a key map can drive from one keyboard.
    public static let maximumPlayers = 2

    public var system: GameSystem
    /// `players[port][button]`: the keys that press `button` on `port`.
    public var players: [[JoypadButton: [Key]]]
    /// `sticks[port][direction]`: the keys that push a stick of `port` (N64 defaults; any system's
    /// file may bind them for a core that reads the analog sticks).
    public var sticks: [[StickDirection: [Key]]]
    public var actions: [InputAction: [Key]]

    public init(system: GameSystem, players: [[JoypadButton: [Key]]], sticks: [[StickDirection: [Key]]] = [],
                actions: [InputAction: [Key]]) {
        self.system = system
        self.players = players
        self.sticks = sticks
        self.actions = actions
    }

    /// Every target `key` is bound to, in a stable order (players, then actions).
    public func targets(for key: Key) -> [KeyBindingTarget] {
        var targets: [KeyBindingTarget] = []
        for (port, buttons) in players.enumerated() {
            for button in JoypadButton.allCases where buttons[button]?.contains(key) == true {
                targets.append(.button(port: port, button))
            }
        }
        for (port, directions) in sticks.enumerated() {
            for direction in StickDirection.allCases where directions[direction]?.contains(key) == true {
                targets.append(.stick(port: port, direction))
            }
        }
        for action in InputAction.allCases where actions[action]?.contains(key) == true {
            targets.append(.action(action))
        }
        return targets
    }

    /// The keys bound to a target.
    public func keys(for target: KeyBindingTarget) -> [Key] {
        switch target {
        case .button(let port, let button): port < players.count ? players[port][button] ?? [] : []
        case .stick(let port, let direction): port < sticks.count ? sticks[port][direction] ?? [] : []
        case .action(let action): actions[action] ?? []
        }
    }

    /// Replaces the keys of a target (an empty list unbinds it). Used by the key-map editor.
    public mutating func setKeys(_ keys: [Key], for target: KeyBindingTarget) {
        switch target {
        case .button(let port, let button):
            while players.count <= port { players.append([:]) }
            players[port][button] = keys
        case .stick(let port, let direction):
            while sticks.count <= port { sticks.append([:]) }
            sticks[port][direction] = keys
        case .action(let action):
            actions[action] = keys
        }
    }

    /// Every bindable target in editor order: each player's buttons (in the console's order),
    /// then the actions.
    public var allTargets: [KeyBindingTarget] {
        var targets: [KeyBindingTarget] = []
        for port in players.indices {
            targets += system.buttons.map { .button(port: port, $0) }
            if system.hasAnalogStick { targets += StickDirection.allCases.map { .stick(port: port, $0) } }
        }
        return targets + InputAction.allCases.map { .action($0) }
    }

    /// Keys bound to more than one target, sorted by key name.
    public var conflicts: [KeyConflict] {
        var allKeys: Set<Key> = []
        for buttons in players { for keys in buttons.values { allKeys.formUnion(keys) } }
        for directions in sticks { for keys in directions.values { allKeys.formUnion(keys) } }
        for keys in actions.values { allKeys.formUnion(keys) }
        return allKeys.sorted { $0.name < $1.name }.compactMap { key in
            let targets = targets(for: key)
            return targets.count > 1 ? KeyConflict(key: key, targets: targets) : nil
        }
    }

    // MARK: - Defaults

    /// Action keys shared by every system (documented on `InputAction`).
    public static let defaultActions: [InputAction: [Key]] = [
        // F1 too: GNU screen holds a lone Esc back until the next key arrives.
        .pauseMenu: [.escape, .function(1)],
        .fastForwardToggle: [.tab],
        .fastForwardHold: [.character(" ")],
        .quickSave: [.function(5)],
        .quickLoad: [.function(8)],
        .holdButtonToggle: [.character("h")],
        .screenshot: [.function(12)],
        .stateSlotUp: [.function(6)],
        .stateSlotDown: [.function(7)],
        .reset: [.function(9)],
        // Letters no system's players use (R is player 2's Y on home consoles).
        .rewind: [.character("b")],
        .slowMotionHold: [.character("v")],
        .pauseToggle: [.character("p")],
        .frameAdvance: [.character("u")],
        .mute: [.function(4)],
        .quit: [],
    ]

    /// The defaults for a system. Player 1: arrows, and RetroArch's layout for the face buttons
    /// (X = A, Z = B, S = X, A = Y, Q = L, W = R), Enter = Start, Right-Shift/Backspace = Select.
    /// The Genesis puts its A/B/C row on Z/X/C and X/Y/Z on A/S/D. Home consoles get a player 2 on
    /// I/J/K/L with G = A, F = B, T = X, R = Y, E = L, Y = R, N = Start, M = Select.
    public static func defaults(for system: GameSystem) -> KeyMap {
        func keys(_ names: String...) -> [Key] { names.compactMap(Key.init(name:)) }
        if system == .n64 { return n64Defaults }
        var player1: [JoypadButton: [Key]] = [
            .up: [.up], .down: [.down], .left: [.left], .right: [.right],
            .start: [.enter], .select: [.rightShift, .backspace],
        ]
        var player2: [JoypadButton: [Key]] = [
            .up: keys("i"), .down: keys("k"), .left: keys("j"), .right: keys("l"),
            .start: keys("n"), .select: keys("m"),
        ]
        if system == .genesis {
            // Genesis A, B, C sit on RetroPad Y, B, A; X, Y, Z on L, X, R.
            player1.merge([.y: keys("z"), .b: keys("x"), .a: keys("c"), .l: keys("a"), .x: keys("s"), .r: keys("d")]) { $1 }
            player2.merge([.y: keys("f"), .b: keys("g"), .a: keys("h"), .l: keys("r"), .x: keys("t"), .r: keys("y")]) { $1 }
        } else {
            player1.merge([.a: keys("x"), .b: keys("z"), .x: keys("s"), .y: keys("a"), .l: keys("q"), .r: keys("w")]) { $1 }
            player2.merge([.a: keys("g"), .b: keys("f"), .x: keys("t"), .y: keys("r"), .l: keys("e"), .r: keys("y")]) { $1 }
        }
        let available = Set(system.buttons)
        player1 = player1.filter { available.contains($0.key) }
        player2 = player2.filter { available.contains($0.key) }
        var actions = defaultActions
        if system == .genesis {
            // H is Genesis player 2's C button; the hold toggle moves to the next free letter.
            actions[.holdButtonToggle] = keys("o")
        }
        let players = system.hasSecondPlayerOnKeyboard ? [player1, player2] : [player1]
        return KeyMap(system: system, players: players, actions: actions)
    }
}

extension KeyMap {
    /// The Nintendo 64 on one keyboard: the stick on the arrows (Shift+arrow: half way), the C
    /// buttons on I/J/K/L, A = X, B = Z, Z = A, L = Q, R = W, Start = Enter, the d-pad on 8/4/2/6.
    static var n64Defaults: KeyMap {
        func keys(_ names: String...) -> [Key] { names.compactMap(Key.init(name:)) }
        let buttons: [JoypadButton: [Key]] = [
            .b: keys("x"), .y: keys("z"), .l2: keys("a"), .l: keys("q"), .r: keys("w"), .start: [.enter],
            .up: keys("8"), .down: keys("2"), .left: keys("4"), .right: keys("6"),
        ]
        let sticks: [StickDirection: [Key]] = [
            .leftUp: [.up], .leftDown: [.down], .leftLeft: [.left], .leftRight: [.right],
            .rightUp: keys("i"), .rightDown: keys("k"), .rightLeft: keys("j"), .rightRight: keys("l"),
        ]
        return KeyMap(system: .n64, players: [buttons], sticks: [sticks], actions: defaultActions)
    }
}

extension GameSystem {
    /// Handhelds are one player per machine; home consoles get a second set of keys (the N64's
    /// stick and C buttons leave no room for a second player).
    var hasSecondPlayerOnKeyboard: Bool {
        switch self {
        case .nes, .snes, .genesis, .pce: true
        case .n64: false
        case .gb, .gbc, .gba, .nds: false
        }
    }
}
