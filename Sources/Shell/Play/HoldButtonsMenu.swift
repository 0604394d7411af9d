import Input
import PhosphorKit

/// Delta's "Hold Button": buttons that stay pressed until unchecked. Space or Enter toggles.
final class HoldButtonsMenu: ListMenu {
    private unowned let play: PlayScreen

    init(play: PlayScreen) {
        self.play = play
        super.init(title: "Hold Buttons")
        width = 40
        help = "Enter toggle · C clear all · Esc back"
        reload()
    }

    override func reload() {
        let input = play.input
        items = play.system.buttons.map { button in
            let held = input.holdButtons.held.contains(button)
            return MenuItem(label: play.system.label(for: button), value: held ? "[x]" : "[ ]", activate: {
                input.holdButtons.toggle(button)
            })
        }
    }

    override func handleOther(_ key: Key, modifiers: KeyModifiers) -> Bool {
        switch key {
        case .character(" "):
            items[safe: selection]?.activate?()
        case .character("c"):
            play.input.holdButtons.releaseAll()
        default:
            return false
        }
        return true
    }
}
