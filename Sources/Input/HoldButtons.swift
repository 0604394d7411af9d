import PhosphorKit

/// Delta's "hold button": buttons that stay pressed until toggled off, for terminals that can't
/// report releases (and for long runs or charge attacks). The set is OR-ed into player 1's mask.
/// It lives outside the core, so loading a state keeps the buttons held. UI thread only.
public struct HoldButtons: Sendable, Equatable {
    public private(set) var held: ButtonMask = []
    /// The hold-toggle key was pressed: the next button key toggles that button instead of pressing it.
    public private(set) var isArmed = false

    public init() {}

    /// From the hold-button menu, or a button key pressed while armed (which also disarms).
    public mutating func toggle(_ button: JoypadButton) {
        if held.contains(button) { held.remove(button) } else { held.insert(button) }
        isArmed = false
    }

    public mutating func setHeld(_ mask: ButtonMask) {
        held = mask
    }

    public mutating func releaseAll() {
        held = []
        isArmed = false
    }

    /// The hold-toggle key: arms, or disarms when pressed again.
    public mutating func toggleArmed() {
        isArmed.toggle()
    }

    public mutating func disarm() {
        isArmed = false
    }

    /// For the status line: `HOLD A+RIGHT`, `HOLD: press a button` while armed, nil when idle.
    /// Buttons are named the way the console labels them (a Genesis RetroPad Y reads `A`).
    public func statusText(for system: GameSystem) -> String? {
        if isArmed {
            return held.isEmpty ? "HOLD: press a button" : "HOLD \(names(system)) (press a button to toggle)"
        }
        return held.isEmpty ? nil : "HOLD \(names(system))"
    }

    private func names(_ system: GameSystem) -> String {
        let order = system.buttons + JoypadButton.allCases.filter { !system.buttons.contains($0) }
        return order.filter { held.contains($0) }.map { system.label(for: $0).uppercased() }.joined(separator: "+")
    }
}
