import Foundation
import Input

/// A centred one-line text field (the "Add Folder" dialog): typing and pasting insert text,
/// Backspace deletes, Ctrl-U clears, Enter submits, Esc cancels. `submit` returns nil when it
/// accepted the text (the dialog closes) or a one-line error to show. UI thread only.
final class TextEntryDialog: Screen {
    let title: String
    let prompt: String
    private(set) var text = ""
    private(set) var message: String?
    private let submit: (String) -> String?

    init(title: String, prompt: String, submit: @escaping (String) -> String?) {
        self.title = title
        self.prompt = prompt
        self.submit = submit
    }

    var isOverlay: Bool { true }

    func handle(_ event: InputEvent, now: ContinuousClock.Instant, actions: inout [AppAction]) -> EventResult {
        switch event {
        case .paste(let pasted):
            text += BrowserText.fieldText(pasted)
            message = nil
        case .key(let key) where key.kind != .release:
            let modifiers = key.modifiers.subtracting([.capsLock, .numLock])
            switch key.key {
            case .escape:
                actions.append(.pop)
            case .enter, .keypadEnter:
                if let error = submit(text) { message = error } else { actions.append(.pop) }
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
        let rows = 7
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
        if let message {
            window.put(message, row: 4, column: 2, width: columns - 4, style: TextStyle(foreground: 11, background: 235, bold: true))
        }
        window.put("Enter add · Esc cancel · paste works", row: rows - 1, column: 2, width: columns - 4, style: Theme.dialogBorder)
        window.stage()
        context.cursesDirty = true
    }
}
