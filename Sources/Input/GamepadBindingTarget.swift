import PhosphorKit

/// What a pad button can be bound to: a console button or a play action (`GamepadMapping`).
public enum GamepadBindingTarget: Sendable, Hashable {
    case button(JoypadButton)
    case action(InputAction)
}
