import Input
import PhosphorKit
import Terminal

/// Delta's "Hold Button": buttons that stay pressed until unchecked. Space or Enter toggles.
/// UI thread only.
final class HoldButtonsMenu: ListMenu, GameObservingScreen {
    private let system: GameSystem
    private var held: ButtonMask

    init(snapshot: GameSnapshot) {
        system = snapshot.system
        held = snapshot.heldButtons
        super.init(title: "Hold Buttons")
        width = 40
        help = "Enter toggle · C clear all · Esc back"
        reload()
    }

    func gameChanged(_ snapshot: GameSnapshot, outcome: GameCommandOutcome?) {
        held = snapshot.heldButtons
        reload()
    }

    override func reload() {
        items = system.buttons.map { button in
            MenuItem(label: system.label(for: button), value: held.contains(button) ? "[x]" : "[ ]", activate: {
                $0.append(.game(.toggleHeldButton(button)))
            })
        }
    }

    override func handleOther(_ key: Key, modifiers: KeyModifiers, actions: inout [AppAction]) -> Bool {
        switch key {
        case .character(" "): items[safe: selection]?.activate?(&actions)
        case .character("c"): actions.append(.game(.releaseHeldButtons))
        default: return false
        }
        return true
    }
}
