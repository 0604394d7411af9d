import Input

/// What a key press means in a menu. Menus act on presses and repeats, never on releases, so they
/// behave the same with and without the kitty keyboard protocol.
enum MenuCommand: Equatable {
    case up, down, left, right, pageUp, pageDown, home, end
    case select, back, delete
    /// Ctrl-C: leave now.
    case interrupt
    /// Any other key (letters for shortcuts and search).
    case other(Key, KeyModifiers)
    /// A left click on a terminal cell (zero-based).
    case click(column: Int, row: Int)
    case scroll(Int)

    init?(_ event: InputEvent) {
        switch event {
        case .key(let key):
            guard key.kind != .release else { return nil }
            let modifiers = key.modifiers.subtracting([.capsLock, .numLock])
            switch (key.key, modifiers) {
            case (.character("c"), .control): self = .interrupt
            case (.up, _), (.character("k"), .control): self = .up
            case (.down, _), (.character("j"), .control): self = .down
            case (.left, _): self = .left
            case (.right, _): self = .right
            case (.pageUp, _): self = .pageUp
            case (.pageDown, _): self = .pageDown
            case (.home, _): self = .home
            case (.end, _): self = .end
            case (.enter, _), (.keypadEnter, _): self = .select
            case (.escape, _): self = .back
            case (.delete, _): self = .delete
            default: self = .other(key.key, modifiers)
            }
        case .mouse(let mouse):
            switch (mouse.kind, mouse.button) {
            case (.press, .left): self = .click(column: mouse.column, row: mouse.row)
            case (.press, .wheelUp): self = .scroll(-3)
            case (.press, .wheelDown): self = .scroll(3)
            default: return nil
            }
        default:
            return nil
        }
    }
}
