import Emulation
import Foundation
import Input
import PhosphorKit
import Terminal

/// The pause menu's "Core Options": the core's own options (its v0, v1 or v2 definitions), by
/// category, each with its allowed values (←→ steps through them). A change goes to the core
/// thread as a `GameCommand` and is applied live (the core reads it at its next
/// GET_VARIABLE_UPDATE); an option whose description says it needs a restart says so. The first
/// row picks where changes are saved: for every game (the core's file) or for this game only
/// (its own file, which wins over the core's). UI thread only.
final class CoreOptionsMenu: ListMenu, GameObservingScreen {
    private var options: [CoreOptionState]
    private var forThisGame = false

    init(snapshot: GameSnapshot) {
        options = snapshot.coreOptions
        super.init(title: "Core Options")
        width = 72
        help = "↑↓ choose · ←→ change · Esc back"
        reload()
        move(by: 0)
    }

    func gameChanged(_ snapshot: GameSnapshot, outcome: GameCommandOutcome?) {
        options = snapshot.coreOptions
        if let outcome, case .setCoreOption(let key, let value, let forGame) = outcome.command {
            if let problem = outcome.problem {
                message = DisplayText.sanitized(problem)
            } else if let option = options.first(where: { $0.definition.key == key }) {
                let definition = option.definition
                var text = "\(definition.description): \(definition.label(of: value)) · saved for \(forGame ? "this game" : "all games")"
                if definition.needsRestart { text += " · takes effect after a restart" }
                message = DisplayText.sanitized(text)
            }
        }
        reload()
    }

    override func reload() {
        guard !options.isEmpty else {
            items = [MenuItem(label: "This core has no options", enabled: false)]
            return
        }
        var list = [MenuItem(label: "Save changes for", value: "◂ \(forThisGame ? "this game" : "all games") ▸",
                             activate: { [unowned self] _ in forThisGame.toggle() },
                             adjust: { [unowned self] _, _ in forThisGame.toggle() })]
        var category: String?
        for option in options {
            let definition = option.definition
            if definition.category != category {
                category = definition.category
                if !definition.category.isEmpty {
                    list.append(MenuItem(label: "— \(DisplayText.sanitized(definition.category)) —", enabled: false))
                }
            }
            let shown = DisplayText.sanitized(definition.label(of: option.value)) + (option.isGameOverride ? " (game)" : "")
            list.append(MenuItem(label: DisplayText.sanitized(definition.description.isEmpty ? definition.key : definition.description),
                                 value: "◂ \(shown) ▸",
                                 adjust: { [unowned self] step, actions in change(option, by: step, actions: &actions) }))
        }
        items = list
    }

    private func change(_ option: CoreOptionState, by step: Int, actions: inout [AppAction]) {
        let values = option.definition.values
        guard !values.isEmpty else { return }
        let index = values.firstIndex(of: option.value) ?? 0
        let next = values[(index + step % values.count + values.count) % values.count]
        actions.append(.game(.setCoreOption(key: option.definition.key, value: next, forThisGame: forThisGame)))
    }

    override func draw(in context: DrawContext) {
        // With nothing else to say, the message line explains the selected option.
        if message == nil, let option = selectedOption {
            var text = option.definition.info
            if option.definition.needsRestart, !text.lowercased().contains("restart") { text += " (needs a restart)" }
            if option.isGameOverride { text += (text.isEmpty ? "" : " · ") + "this game's own value" }
            text = text.trimmingCharacters(in: .whitespaces)
            message = text.isEmpty ? nil : DisplayText.sanitized(text)
        }
        super.draw(in: context)
    }

    /// The option on the selected row (nil on the scope row and on headers).
    private var selectedOption: CoreOptionState? {
        var index = 1  // after "Save changes for"
        var category: String?
        for option in options {
            if option.definition.category != category {
                category = option.definition.category
                if !option.definition.category.isEmpty { index += 1 }
            }
            if index == selection { return option }
            index += 1
        }
        return nil
    }
}
