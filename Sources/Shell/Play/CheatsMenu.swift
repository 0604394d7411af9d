import Emulation
import Foundation
import Input
import PhosphorKit
import Terminal

/// The pause menu's "Cheat Codes": the game's cheats with their on/off state. Enter toggles a
/// cheat and hands the list to the core at once; "Add cheat…" asks for a code (typed or pasted;
/// a code of the wrong format shows why and keeps what was typed) and then an optional name;
/// Del (or Backspace) deletes the selected cheat. Every change is saved to the game's file.
/// A core that ignores cheats gets its reason instead of the list. UI thread only.
final class CheatsMenu: ListMenu, GameObservingScreen {
    private let system: GameSystem
    private var cheats: CheatSnapshot
    /// What the last change sent was, to say so when its outcome comes back.
    private var pendingMessage: ((CheatList) -> String)?

    init(snapshot: GameSnapshot) {
        system = snapshot.system
        cheats = snapshot.cheats
        super.init(title: "Cheat Codes — \(snapshot.system.displayName)")
        width = 60
        help = "Enter on/off · Del delete · Esc back"
        reload()
    }

    func gameChanged(_ snapshot: GameSnapshot, outcome: GameCommandOutcome?) {
        cheats = snapshot.cheats
        if let outcome, case .addCheat(let cheat) = outcome.command {
            if outcome.succeeded { selection = max(0, cheats.list.cheats.count - 1) }
            let count = CheatSnapshot.countText(cheats.list.enabledCount)
            message = DisplayText.sanitized(outcome.problem ?? "added \(cheat.title) · \(count)")
            return reload()
        }
        if let outcome, case .importCheats = outcome.command {
            message = DisplayText.sanitized(outcome.problem ?? outcome.message ?? "")
            return reload()
        }
        guard let outcome, case .setCheats = outcome.command else { return reload() }
        let describe = pendingMessage
        pendingMessage = nil
        if let problem = outcome.problem {
            message = DisplayText.sanitized(problem)
        } else if let describe {
            message = DisplayText.sanitized(describe(cheats.list))
        }
        reload()
    }

    override func reload() {
        if let reason = cheats.unsupportedReason {
            items = [MenuItem(label: "Not available with this core", enabled: false)]
            help = "Esc back"
            message = reason
            return
        }
        items = cheats.list.cheats.enumerated().map { index, cheat in
            MenuItem(label: DisplayText.sanitized(cheat.title),
                     value: cheat.isValid ? (cheat.enabled ? "[x]" : "[ ]") : "invalid",
                     activate: { [unowned self] in toggle(index, actions: &$0) })
        }
        items.append(MenuItem(label: "Add cheat…", activate: { [unowned self] in askForCode(actions: &$0) }))
        items.append(MenuItem(label: "Import RetroArch .cht…", activate: { [unowned self] in askForFile(actions: &$0) }))
    }

    /// Asks for a `.cht` file's path (typed or pasted, `~` for home); its valid codes are added
    /// as the file has them switched on, the others named in the message.
    private func askForFile(actions: inout [AppAction]) {
        if let error = cheats.loadError {
            message = "cheats can't be added: \(error)"
            return
        }
        let system = self.system
        let dialog = TextEntryDialog(title: "Import Cheats — \(system.displayName)", prompt: "RetroArch cheat file (.cht):",
                                     decide: { text in
            let path = (text.trimmingCharacters(in: .whitespaces) as NSString).expandingTildeInPath
            guard !path.isEmpty else { return .rejected("type or paste the path of a .cht file") }
            let file = URL(fileURLWithPath: path)
            do {
                let (imported, skipped) = try RetroArchCheatFile.read(file).cheats(for: system)
                guard !imported.isEmpty else {
                    return .rejected("\(file.lastPathComponent): no \(system.displayName) code in it" + (skipped.first.map { " (\($0))" } ?? ""))
                }
                let summary = RetroArchCheatFile.summary(imported: imported, skipped: skipped, fileName: file.lastPathComponent)
                return .accepted(then: [.game(.importCheats(imported, summary: summary))])
            } catch {
                return .rejected("\(error)")
            }
        })
        dialog.hint = "Enter import · Esc cancel · paste works"
        actions.append(.push(dialog))
    }

    override func draw(in context: DrawContext) {
        // With nothing else to say (the last key's result), the message line explains the
        // selected row or the file. The list menu clears the message on every key.
        if message == nil {
            if let cheat = cheats.list.cheats[safe: selection], case .failure(let reason) = cheat.checked {
                message = "invalid code: \(reason)"
            } else if let error = cheats.loadError {
                message = error
            } else {
                message = cheats.note
            }
        }
        super.draw(in: context)
    }

    /// Sends the new list; `describe` says what happened once it is applied and saved.
    private func send(_ list: CheatList, actions: inout [AppAction], describe: @escaping (CheatList) -> String) {
        pendingMessage = describe
        actions.append(.game(.setCheats(list)))
    }

    private func toggle(_ index: Int, actions: inout [AppAction]) {
        guard let cheat = cheats.list.cheats[safe: index], cheat.isValid else { return }  // reload shows why
        var list = cheats.list
        list.cheats[index].enabled.toggle()
        let state = list.cheats[index].enabled ? "on" : "off"
        send(list, actions: &actions) { "\(state): \(cheat.title) · \(CheatSnapshot.countText($0.enabledCount))" }
    }

    override func handleOther(_ key: Key, modifiers: KeyModifiers, actions: inout [AppAction]) -> Bool {
        guard key == .delete || key == .backspace else { return false }
        guard let cheat = cheats.list.cheats[safe: selection] else { return true }
        var list = cheats.list
        list.cheats.remove(at: selection)
        send(list, actions: &actions) { "deleted \(cheat.title) · \(CheatSnapshot.countText($0.enabledCount))" }
        cheats.list = list  // the selection moves within the shorter list at once
        move(by: 0)
        return true
    }

    /// The code first (checked on Enter), then the name; the cheat is added, switched on and
    /// applied when the name is confirmed (the dialogs send `.addCheat`, they hold no menu).
    private func askForCode(actions: inout [AppAction]) {
        if let error = cheats.loadError {
            message = "cheats can't be added: \(error)"
            return
        }
        actions.append(.push(Self.codeDialog(system: system)))
    }

    private static func codeDialog(system: GameSystem) -> TextEntryDialog {
        let formats = CheatFormat.formats(for: system).map(\.displayName)
        let unique = formats.enumerated().filter { !formats[..<$0.offset].contains($0.element) }.map(\.element)
        let dialog = TextEntryDialog(title: "Add Cheat — \(system.displayName)",
                                     prompt: "Code (\(unique.joined(separator: ", "))):", decide: { text in
            do {
                let code = try CheatCodeValidator.validate(text, for: system)
                return .next(nameDialog(for: code))
            } catch {
                return .rejected("\(error)")
            }
        })
        dialog.pastedLineBreak = "+"
        dialog.hint = "Enter next · Esc cancel · paste works"
        return dialog
    }

    private static func nameDialog(for code: CheatCode) -> TextEntryDialog {
        let dialog = TextEntryDialog(title: "Name the Cheat", prompt: "Name for \(code.text) (optional):", decide: { name in
            let cheat = Cheat(name: name.trimmingCharacters(in: .whitespaces), code: code)
            return .accepted(then: [.game(.addCheat(cheat))])
        })
        dialog.hint = "Enter add (empty: no name) · Esc cancel"
        return dialog
    }
}
