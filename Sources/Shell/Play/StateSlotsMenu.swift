import Foundation
import Input
import PhosphorKit

/// Save or load a state: the slots with their date and lock, and a preview of the selected one.
/// L locks/unlocks, Delete deletes, U undoes the last save into the slot.
final class StateSlotsMenu: ListMenu {
    enum Mode { case save, load }

    private unowned let play: PlayScreen
    private let mode: Mode
    private var summaries: [StateStore.SlotSummary] = []
    private var previewWindow: CursesWindow?

    init(play: PlayScreen, mode: Mode) {
        self.play = play
        self.mode = mode
        super.init(title: mode == .save ? "Save State" : "Load State")
        width = 44
        help = "Enter \(mode == .save ? "save" : "load") · L lock · Del delete · U undo save · Esc back"
        selection = StateSlot.all.firstIndex(of: .numbered(play.slot)) ?? 1
        reload()
    }

    private static let dateFormat: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter
    }()

    override func reload() {
        summaries = play.states.list()
        items = summaries.map { summary in
            let name: String = switch summary.slot {
            case .quick: "Quick save"
            case .auto: "Automatic (on quit)"
            case .numbered(let number): "Slot \(number)"
            }
            var value = "empty"
            if summary.isOccupied {
                value = (summary.metadata?.created ?? summary.modified).map { Self.dateFormat.string(from: $0) } ?? "saved"
                if summary.problem != nil { value = "damaged" }
            }
            if summary.isLocked { value = "🔒 " + value }
            let slot = summary.slot
            let enabled = mode == .save ? slot != .auto : summary.isOccupied
            return MenuItem(label: name, value: value, enabled: enabled, activate: { [unowned self] in activate(slot) })
        }
    }

    private func activate(_ slot: StateSlot) {
        switch mode {
        case .save:
            if play.states.isLocked(slot) {
                message = "\(slot) is locked (L unlocks it)"
                return
            }
            play.saveState(slot)
            if case .numbered(let number) = slot { play.changeSlot(by: number - play.slot) }
            message = "saved to \(slot) (U undoes it)"
        case .load:
            play.loadState(slot)
            // Back to the game: close this menu and the pause menu.
            pending.append(.pop)
            pending.append(.pop)
            play.menuClosed()
        }
    }

    override func handleOther(_ key: Key, modifiers: KeyModifiers) -> Bool {
        guard let summary = summaries[safe: selection] else { return false }
        do {
            switch key {
            case .character("l"):
                try play.states.setLocked(!summary.isLocked, summary.slot)
                message = summary.isLocked ? "unlocked" : "locked: it can't be overwritten or deleted"
            case .delete:
                try play.states.delete(summary.slot)
                message = "deleted \(summary.slot)"
            case .character("u"):
                try play.states.undoLastSave(summary.slot)
                message = "undid the last save to \(summary.slot)"
            default:
                return false
            }
        } catch {
            message = "\(error)"
        }
        return true
    }

    override func draw(in context: DrawContext) {
        super.draw(in: context)
        // The preview sits right of the list when there is room, else below it.
        let box = self.box
        let columns = min(34, context.columns - box.left - box.columns - 2)
        guard columns >= 16, let summary = summaries[safe: selection], let file = summary.screenshot else {
            previewWindow = nil
            return
        }
        let rows = min(box.rows, columns * 9 / 16 + 2)
        guard let window = CursesWindow(rows: rows, columns: columns + 2, top: box.top, left: box.left + box.columns + 1),
              let art = HalfBlockArt(file: file, columns: columns, rows: rows - 2) else { return }
        window.clear(Theme.dialog)
        window.box(Theme.dialogBorder)
        art.draw(in: window, row: 1, column: 1)
        window.forceRepaint()
        window.stage()
        previewWindow = window
    }
}
