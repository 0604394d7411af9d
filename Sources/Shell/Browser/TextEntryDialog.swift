import Foundation
import Input
import Terminal

/// A centred one-line text field (the "Add Folder" and "Add Cheat" dialogs): typing and pasting
/// insert text, Backspace deletes, Ctrl-U clears, Enter submits, Esc cancels. `decide` accepts the
/// text (the dialog closes, optionally opening the next step) or rejects it with a one-line
/// error, keeping what was typed. UI thread only.
final class TextEntryDialog: Screen {
    enum Outcome {
        /// Accepted: the dialog closes and these actions follow (a command with the text).
        case accepted(then: [AppAction])
        /// Rejected: the message is shown under the field, the text stays.
        case rejected(String)
        /// Accepted, and this screen follows (a second question).
        case next(Screen)
    }

    let title: String
    let prompt: String
    /// The help line at the bottom.
    var hint = "Enter add · Esc cancel · paste works"
    /// What a line break in pasted text becomes (nil: dropped). A pasted multi-line cheat code
    /// keeps its lines apart with "+".
    var pastedLineBreak: String?
    private(set) var text = ""
    private(set) var message: String?
    private let decide: (String) -> Outcome

    init(title: String, prompt: String, decide: @escaping (String) -> Outcome) {
        self.title = title
        self.prompt = prompt
        self.decide = decide
    }

    /// `submit` returns nil when it accepted the text or a one-line error to show.
    convenience init(title: String, prompt: String, submit: @escaping (String) -> String?) {
        self.init(title: title, prompt: prompt) { text in submit(text).map(Outcome.rejected) ?? .accepted(then: []) }
    }

    var isOverlay: Bool { true }

    func handle(_ event: InputEvent, now: ContinuousClock.Instant, actions: inout [AppAction]) -> EventResult {
        switch event {
        case .paste(let pasted):
            var lines = pasted.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }.map(String.init)
            if pastedLineBreak == nil { lines = [lines.joined()] }
            text += BrowserText.fieldText(lines.joined(separator: pastedLineBreak ?? ""))
            message = nil
        case .key(let key) where key.kind != .release:
            let modifiers = key.modifiers.subtracting([.capsLock, .numLock])
            switch key.key {
            case .escape:
                actions.append(.pop)
            case .enter, .keypadEnter:
                switch decide(text) {
                case .accepted(let then): actions += [.pop] + then
                case .rejected(let error): message = error
                case .next(let screen): actions += [.pop, .push(screen)]
                }
            case .backspace:
                if !text.isEmpty { text.removeLast() }
                message = nil
            case .character("u") where modifiers == .control:
                text = ""
            case .character("c") where modifiers == .control:
                actions.append(.pop)
            default:
                if let typed = key.text { text += BrowserText.fieldText(typed) }
                message = nil
            }
        default:
            break
        }
        return .consumed
    }

    func draw(in context: DrawContext) {
        let columns = min(70, max(context.columns - 2, 20))
        // A long error (a cheat code's reason) wraps onto up to four lines under the field.
        let messageLines = message.map { TextWrapping.lines($0, width: columns - 4, maximumLines: 4) } ?? []
        let rows = 6 + max(messageLines.count, 1)
        let top = max(0, (context.rows - rows) / 2)
        let left = max(0, (context.columns - columns) / 2)
        guard let window = CursesWindow(rows: min(rows, context.rows), columns: columns, top: top, left: left) else { return }
        window.clear(Theme.dialog)
        window.box(Theme.dialogBorder)
        window.put(" \(title) ", row: 0, column: 2, width: columns - 4, style: Theme.dialogBorder)
        window.put(prompt, row: 1, column: 2, width: columns - 4, style: Theme.dialog)
        // The field shows the end of the text (where the cursor is) when it is too long.
        let fieldWidth = columns - 4
        let shown = String(text.suffix(fieldWidth - 1)) + "▏"
        window.putPadded(shown, row: 3, column: 2, width: fieldWidth, style: Theme.dialogSelected)
        for (offset, line) in messageLines.enumerated() {
            window.put(line, row: 4 + offset, column: 2, width: columns - 4, style: Theme.dialogWarning)
        }
        window.put(hint, row: rows - 1, column: 2, width: columns - 4, style: Theme.dialogBorder)
        window.stage()
    }
}
