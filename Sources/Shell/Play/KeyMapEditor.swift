import Foundation
import Input
import PhosphorKit
import Terminal

/// Per-system key mapping: pick a button or action, press Enter, press the new key. Conflicts
/// (one key bound twice) are marked; R restores the defaults; changes are saved on leaving.
final class KeyMapEditor: ListMenu, GameObservingScreen {
    private let system: GameSystem
    private var map: KeyMap
    private var targets: [KeyBindingTarget] = []
    private var capturing: KeyBindingTarget?
    private var changed = false

    init(snapshot: GameSnapshot) {
        system = snapshot.system
        map = snapshot.keyMap
        super.init(title: "Keys — \(snapshot.system.displayName)")
        width = 52
        help = "Enter rebind · Del clear · R defaults · Esc save & back"
        reload()
    }

    override func reload() {
        let conflicted = Set(map.conflicts.flatMap(\.targets))
        let sticks = system.hasAnalogStick ? StickDirection.allCases : []
        targets = [0, 1].flatMap { port in
            system.buttons.map { KeyBindingTarget.button(port: port, $0) } + sticks.map { .stick(port: port, $0) }
        } + InputAction.allCases.map { .action($0) }
        items = targets.map { target in
            let label: String = switch target {
            case .button(let port, let button): "P\(port + 1) \(system.label(for: button))"
            case .stick(let port, let direction): "P\(port + 1) \(direction.label(for: system))"
            case .action(let action): action.title
            }
            var value = map.keys(for: target).map(\.name).joined(separator: ", ")
            if value.isEmpty { value = "—" }
            if conflicted.contains(target) { value = "! " + value }
            if capturing == target { value = "press a key…" }
            return MenuItem(label: label, value: value, activate: { [unowned self] actions in
                capturing = target
                if let padTarget = Self.padTarget(target) {
                    // A pad button press binds it on that pad (saved to gamepads.json).
                    actions.append(.game(.captureGamepadButton(padTarget)))
                    message = "press the new key or pad button for \(label) (Esc cancels)"
                } else {
                    message = "press the new key for \(label) (Esc cancels)"
                }
            })
        }
    }

    override func handle(_ event: InputEvent, now: ContinuousClock.Instant, actions: inout [AppAction]) -> EventResult {
        guard let target = capturing else { return super.handle(event, now: now, actions: &actions) }
        guard case .key(let key) = event, key.kind == .press else { return .consumed }
        if Self.padTarget(target) != nil { actions.append(.game(.captureGamepadButton(nil))) }
        capturing = nil
        if key.key == .escape && key.modifiers.isEmpty {
            message = "unchanged"
        } else {
            map.setKeys([key.key], for: target)
            changed = true
            let conflicts = map.conflicts.filter { $0.targets.contains(target) }
            message = conflicts.isEmpty ? "\(key.key.name) set" : "conflict: \(conflicts.map(\.description).joined(separator: "; "))"
        }
        reload()
        return .consumed
    }

    /// A pad button was bound while the editor waited (the session polls the pads while paused).
    func gameChanged(_ snapshot: GameSnapshot, outcome: GameCommandOutcome?) {
        guard let outcome, case .captureGamepadButton(let padTarget?) = outcome.command,
              outcome.message != nil || outcome.problem != nil else { return }
        if let capturing, Self.padTarget(capturing) == padTarget { self.capturing = nil }
        message = outcome.problem ?? outcome.message
        reload()
    }

    /// What a pad button pressed for `target` binds: a player's button binds that pad button on
    /// the pad pressed (each pad is its own player), an action an action; sticks stay the pad's.
    private static func padTarget(_ target: KeyBindingTarget) -> GamepadBindingTarget? {
        switch target {
        case .button(_, let button): .button(button)
        case .action(let action): .action(action)
        case .stick: nil
        }
    }

    override func handleOther(_ key: Key, modifiers: KeyModifiers, actions: inout [AppAction]) -> Bool {
        switch key {
        case .delete:
            guard let target = targets[safe: selection] else { return false }
            map.setKeys([], for: target)
            changed = true
        case .character("r"):
            map = KeyMap.defaults(for: system)
            changed = true
            message = "defaults restored"
        default:
            return false
        }
        return true
    }

    override func willClose(actions: inout [AppAction]) {
        if capturing != nil { actions.append(.game(.captureGamepadButton(nil))) }
        if changed { actions.append(.game(.setKeyMap(map))) }
    }
}
