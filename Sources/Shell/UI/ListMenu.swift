import Foundation
import Input
import Terminal

/// One row of a list menu. Its closures say what the row does by adding app actions (a
/// command for the game, a screen to push): a menu never calls another screen.
struct MenuItem {
    var label: String
    /// Shown right-aligned (a setting's value, a key, a checkbox).
    var value: String = ""
    var enabled = true
    /// Enter / click.
    var activate: ((inout [AppAction]) -> Void)?
    /// Left / right on a value (e.g. volume -/+).
    var adjust: ((Int, inout [AppAction]) -> Void)?

    /// Enter on the row: its action, or a step right for a value.
    func select(_ actions: inout [AppAction]) {
        if let activate { activate(&actions) } else { adjust?(1, &actions) }
    }
}

/// A centred box with a title, a list of items, a selection bar and a help line: the building
/// block of the pause menu and its sub-screens. UI thread only.
class ListMenu: Screen {
    var title: String
    var items: [MenuItem] = []
    var selection = 0
    var help = "↑↓ choose · Enter select · Esc back"
    var message: String?
    var width = 46
    private var window: CursesWindow?
    private var scroll = 0
    private(set) var box = (top: 0, left: 0, rows: 0, columns: 0)

    init(title: String) { self.title = title }

    var isOverlay: Bool { true }

    /// Rebuilds `items` (values change as settings change). Subclasses override.
    func reload() {}

    /// Called when the menu closes with Esc. Subclasses override to send what the menu changed.
    func willClose(actions: inout [AppAction]) {}

    /// Keys the menu does not handle itself (shortcuts). Return true when consumed.
    func handleOther(_ key: Key, modifiers: KeyModifiers, actions: inout [AppAction]) -> Bool { false }

    func close(actions: inout [AppAction]) {
        willClose(actions: &actions)
        actions.append(.pop)
    }

    func handle(_ event: InputEvent, now: ContinuousClock.Instant, actions: inout [AppAction]) -> EventResult {
        guard let command = MenuCommand(event) else { return .consumed }
        message = nil
        reload()
        switch command {
        case .up: move(by: -1)
        case .down: move(by: 1)
        case .pageUp, .scroll(..<0): move(by: -8)
        case .pageDown, .scroll: move(by: 8)
        case .home: selection = 0; move(by: 0)
        case .end: selection = items.count - 1; move(by: 0)
        case .left: items[safe: selection]?.adjust?(-1, &actions)
        case .right: items[safe: selection]?.adjust?(1, &actions)
        case .select:
            if let item = items[safe: selection], item.enabled { item.select(&actions) }
        case .back: close(actions: &actions)
        case .interrupt: close(actions: &actions)
        case .delete: _ = handleOther(.delete, modifiers: [], actions: &actions)
        case .click(let column, let row):
            let index = row - box.top - 2 + scroll
            if column >= box.left, column < box.left + box.columns, items.indices.contains(index) {
                selection = index
                if items[index].enabled { items[index].select(&actions) }
            }
        case .other(let key, let modifiers): _ = handleOther(key, modifiers: modifiers, actions: &actions)
        }
        reload()
        return .consumed
    }

    func move(by delta: Int) {
        guard !items.isEmpty else { return }
        var next = min(max(selection + delta, 0), items.count - 1)
        // Skip disabled rows in the direction of travel.
        let step = delta < 0 ? -1 : 1
        while !items[next].enabled, items.indices.contains(next + step) { next += step }
        selection = next
    }

    func draw(in context: DrawContext) {
        reload()
        let columns = min(width, max(context.columns - 2, 20))
        // A long message (a file's problem, a cheat code's reason) wraps onto up to three lines.
        let messageLines = message.map { TextWrapping.lines($0, width: columns - 4, maximumLines: 3) } ?? []
        let rows = min(items.count + 4 + messageLines.count, max(context.rows - 2, 5))
        let top = max(0, (context.rows - rows) / 2)
        let left = max(0, (context.columns - columns) / 2)
        box = (top, left, rows, columns)
        window = CursesWindow(rows: rows, columns: columns, top: top, left: left)
        guard let window else { return }
        window.clear(Theme.dialog)
        window.box(Theme.dialogBorder)
        window.put(" \(title) ", row: 0, column: 2, width: columns - 4, style: Theme.dialogBorder)
        let visible = max(1, rows - 4 - messageLines.count)
        if selection < scroll { scroll = selection }
        if selection >= scroll + visible { scroll = selection - visible + 1 }
        for (offset, index) in (scroll..<min(items.count, scroll + visible)).enumerated() {
            let item = items[index]
            let style = index == selection ? Theme.dialogSelected : (item.enabled ? Theme.dialog : Theme.dialogDim)
            let inner = columns - 4
            window.putPadded(" " + item.label, row: 2 + offset, column: 2, width: inner, style: style)
            if !item.value.isEmpty {
                let valueColumn = max(2, 2 + inner - CursesWindow.displayWidth(of: item.value) - 1)
                window.put(item.value, row: 2 + offset, column: valueColumn, width: inner - (valueColumn - 2), style: style)
            }
        }
        for (offset, line) in messageLines.enumerated() {
            window.put(line, row: rows - 2 - messageLines.count + offset, column: 2, width: columns - 4,
                       style: Theme.dialogWarning)
        }
        window.put(help, row: rows - 1, column: 2, width: columns - 4, style: Theme.dialogBorder)
        window.forceRepaint()
        window.stage()
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
