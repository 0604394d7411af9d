import Foundation
import Input
import PhosphorKit

/// Per-system key mapping: pick a button or action, press Enter, press the new key. Conflicts
/// (one key bound twice) are marked; R restores the defaults; changes are saved on leaving.
final class KeyMapEditor: ListMenu {
    private unowned let play: PlayScreen
    private var map: KeyMap
    private var targets: [KeyBindingTarget] = []
    private var capturing: KeyBindingTarget?
    private var changed = false

    init(play: PlayScreen) {
        self.play = play
        map = play.input.keyMap
        super.init(title: "Keys — \(play.system.displayName)")
        width = 52
        help = "Enter rebind · Del clear · R defaults · Esc save & back"
        reload()
    }

    override func reload() {
        let conflicted = Set(map.conflicts.flatMap(\.targets))
        targets = play.system.buttons.map { .button(port: 0, $0) }
            + play.system.buttons.map { .button(port: 1, $0) }
            + InputAction.allCases.map { .action($0) }
        items = targets.map { target in
            let label: String = switch target {
            case .button(let port, let button): "P\(port + 1) \(play.system.label(for: button))"
            case .action(let action): action.title
            }
            var value = map.keys(for: target).map(\.name).joined(separator: ", ")
            if value.isEmpty { value = "—" }
            if conflicted.contains(target) { value = "! " + value }
            if capturing == target { value = "press a key…" }
            return MenuItem(label: label, value: value, activate: { [unowned self] in
                capturing = target
                _ = play.gamepads.takeLastButtonPress()  // only presses from now on count
                if case .button = target {
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

    /// While waiting for a player's button, a pad button press binds it on that pad (saved to
    /// gamepads.json). The game is paused, so the editor polls the pads itself.
    func tick(now: ContinuousClock.Instant, context: DrawContext, actions: inout [AppAction]) -> Duration? {
        guard case .button(_, let button)? = capturing else { return nil }
        play.gamepads.poll(now: now)
        guard let press = play.gamepads.takeLastButtonPress() else { return .milliseconds(30) }
        capturing = nil
        play.gamepads.bind(code: press.code, to: button, onPad: press.pad)
        do {
            let text = try GamepadMapping.fileText(for: play.gamepads.overrides)
            try AtomicFile.write(Array(text.utf8), to: play.services.paths.gamepadMappings)
            message = "\(play.system.label(for: button)) is now pad button \(press.code) on \(DisplayText.sanitized(press.pad))"
        } catch {
            message = "pad mapping not saved: \(error)"
        }
        reload()
        actions.append(.redraw)
        return nil
    }

    override func handleOther(_ key: Key, modifiers: KeyModifiers) -> Bool {
        switch key {
        case .delete:
            guard let target = targets[safe: selection] else { return false }
            map.setKeys([], for: target)
            changed = true
        case .character("r"):
            map = KeyMap.defaults(for: play.system)
            changed = true
            message = "defaults restored"
        default:
            return false
        }
        return true
    }

    override func willClose() {
        guard changed else { return }
        play.input.setKeyMap(map)
        do {
            try KeyMapStore(paths: play.services.paths).save(map)
            play.notify("key map saved")
        } catch {
            play.notify("key map not saved: \(error)", seconds: 5)
        }
    }
}
