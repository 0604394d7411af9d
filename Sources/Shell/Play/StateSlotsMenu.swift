import Foundation
import Input
import PhosphorKit
import Terminal

/// Save or load a state: the slots with their date and lock, and a preview of the selected one.
/// L locks/unlocks, Delete deletes, U undoes the last save into the slot.
final class StateSlotsMenu: ListMenu, GameObservingScreen {
    enum Mode { case save, load }

    private let mode: Mode
    private var summaries: [StateStore.SlotSummary]
    private var previewWindow: CursesWindow?

    init(snapshot: GameSnapshot, mode: Mode) {
        self.mode = mode
        summaries = snapshot.stateSlots
        super.init(title: mode == .save ? "Save State" : "Load State")
        width = 44
        help = "Enter \(mode == .save ? "save" : "load") · L lock · Del delete · U undo save · Esc back"
        selection = StateSlot.all.firstIndex(of: .numbered(snapshot.slot)) ?? 1
        reload()
    }

    func gameChanged(_ snapshot: GameSnapshot, outcome: GameCommandOutcome?) {
        summaries = snapshot.stateSlots
        reload()
        guard let outcome else { return }
        if let problem = outcome.problem {
            message = problem
            return
        }
        switch outcome.command {
        case .saveState(let slot): message = "saved to \(slot) (U undoes it)"
        case .setStateLocked(_, let locked): message = locked ? "locked: it can't be overwritten or deleted" : "unlocked"
        case .deleteState(let slot): message = "deleted \(slot)"
        case .undoSave(let slot): message = "undid the last save to \(slot)"
        default: break
        }
    }

    private static let dateFormat: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter
    }()

    override func reload() {
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
            return MenuItem(label: name, value: value, enabled: enabled, activate: { [unowned self] in activate(slot, actions: &$0) })
        }
    }

    private func activate(_ slot: StateSlot, actions: inout [AppAction]) {
        switch mode {
        case .save:
            if summaries.first(where: { $0.slot == slot })?.isLocked == true {
                message = "\(slot) is locked (L unlocks it)"
                return
            }
            actions.append(.game(.saveState(slot)))
            if case .numbered(let number) = slot { actions.append(.game(.selectSlot(number))) }
        case .load:
            // Back to the game: close this menu and the pause menu.
            actions += [.game(.loadState(slot)), .closeOverlays]
        }
    }

    override func handleOther(_ key: Key, modifiers: KeyModifiers, actions: inout [AppAction]) -> Bool {
        guard let summary = summaries[safe: selection] else { return false }
        switch key {
        case .character("l"): actions.append(.game(.setStateLocked(summary.slot, !summary.isLocked)))
        case .delete: actions.append(.game(.deleteState(summary.slot)))
        case .character("u"): actions.append(.game(.undoSave(summary.slot)))
        default: return false
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
