import Emulation
import Foundation
import Input
import PhosphorKit

/// The pause menu's "Cheat Codes": the game's cheats with their on/off state. Enter toggles a
/// cheat and hands the list to the core at once; "Add cheat…" asks for a code (typed or pasted;
/// a code of the wrong format shows why and keeps what was typed) and then an optional name;
/// Del (or Backspace) deletes the selected cheat. Every change is saved to the game's file.
/// A core that ignores cheats gets its reason instead of the list. UI thread only.
final class CheatsMenu: ListMenu {
    private unowned let play: PlayScreen

    init(play: PlayScreen) {
        self.play = play
        super.init(title: "Cheat Codes — \(play.system.displayName)")
        width = 60
        help = "Enter on/off · Del delete · Esc back"
        reload()
    }

    private var cheats: [Cheat] { play.cheatStore.list.cheats }

    override func reload() {
        if let reason = play.cheatSupport.unsupportedReason {
            items = [MenuItem(label: "Not available with this core", enabled: false)]
            help = "Esc back"
            message = reason
            return
        }
        items = cheats.enumerated().map { index, cheat in
            MenuItem(label: DisplayText.sanitized(cheat.title),
                     value: cheat.isValid ? (cheat.enabled ? "[x]" : "[ ]") : "invalid",
                     activate: { [unowned self] in toggle(index) })
        }
        items.append(MenuItem(label: "Add cheat…", activate: { [unowned self] in askForCode() }))
    }

    override func draw(in context: DrawContext) {
        // With nothing else to say (the last key's result), the message line explains the
        // selected row or the file. The list menu clears the message on every key.
        if message == nil {
            if let cheat = cheats[safe: selection], case .failure(let reason) = cheat.checked {
                message = "invalid code: \(reason)"
            } else if let error = play.cheatStore.loadError {
                message = "\(error)"
            } else {
                message = play.cheatSupport.note
            }
        }
        super.draw(in: context)
    }

    private func toggle(_ index: Int) {
        guard let cheat = cheats[safe: index] else { return }
        guard cheat.isValid else { return }  // reload shows why
        var list = play.cheatStore.list
        list.cheats[index].enabled.toggle()
        let problem = play.updateCheats(list)
        let state = "\(list.cheats[index].enabled ? "on" : "off"): \(cheat.title) · \(PlayScreen.cheatCountText(play.cheatStore.list.enabledCount))"
        message = DisplayText.sanitized(problem ?? state)
    }

    override func handleOther(_ key: Key, modifiers: KeyModifiers) -> Bool {
        guard key == .delete || key == .backspace else { return false }
        guard let cheat = cheats[safe: selection] else { return true }
        var list = play.cheatStore.list
        list.cheats.remove(at: selection)
        let problem = play.updateCheats(list)
        message = DisplayText.sanitized(problem ?? "deleted \(cheat.title) · \(PlayScreen.cheatCountText(play.cheatStore.list.enabledCount))")
        move(by: 0)
        return true
    }

    /// The code first (checked on Enter), then the name; the cheat is added, switched on and
    /// applied when the name is confirmed.
    private func askForCode() {
        if let error = play.cheatStore.loadError {
            message = "cheats can't be added: \(error)"
            return
        }
        let system = play.system
        let formats = CheatFormat.formats(for: system).map(\.displayName)
        let unique = formats.enumerated().filter { !formats[..<$0.offset].contains($0.element) }.map(\.element)
        let dialog = TextEntryDialog(title: "Add Cheat — \(system.displayName)",
                                     prompt: "Code (\(unique.joined(separator: ", "))):", decide: { [unowned self] text in
            do {
                let code = try CheatCodeValidator.validate(text, for: system)
                return .next(nameDialog(for: code))
            } catch {
                return .rejected("\(error)")
            }
        })
        dialog.pastedLineBreak = "+"
        dialog.hint = "Enter next · Esc cancel · paste works"
        pending.append(.push(dialog))
    }

    private func nameDialog(for code: CheatCode) -> TextEntryDialog {
        let dialog = TextEntryDialog(title: "Name the Cheat", prompt: "Name for \(code.text) (optional):", decide: { [unowned self] name in
            var list = play.cheatStore.list
            list.cheats.append(Cheat(name: name.trimmingCharacters(in: .whitespaces), code: code))
            let problem = play.updateCheats(list)
            if problem != nil, play.cheatStore.list.cheats.count != list.cheats.count { return .rejected(problem!) }
            selection = play.cheatStore.list.cheats.count - 1
            message = DisplayText.sanitized(
                problem ?? "added \(list.cheats[selection].title) · \(PlayScreen.cheatCountText(play.cheatStore.list.enabledCount))")
            return .accepted
        })
        dialog.hint = "Enter add (empty: no name) · Esc cancel"
        return dialog
    }
}
