import Emulation
import PhosphorKit

/// One cheat of a game's list: a name, the code, and whether it is on. Value type, any thread.
struct Cheat: Equatable {
    var name: String
    /// The normalized code when it is valid; else exactly as written in the file (so saving
    /// never changes what the user wrote).
    var code: String
    var enabled: Bool
    /// The checked code, or why it can't be used (a hand-edited file). An invalid cheat is never
    /// handed to the core.
    var checked: Result<CheatCode, CheatCodeError>

    /// A cheat from a code already checked (the add dialog).
    init(name: String, code: CheatCode, enabled: Bool = true) {
        self.name = name
        self.code = code.text
        self.enabled = enabled
        checked = .success(code)
    }

    /// A cheat read from a file: its code is checked against the system's formats.
    init(name: String, code: String, enabled: Bool, system: GameSystem) {
        self.name = name
        self.enabled = enabled
        do {
            let valid = try CheatCodeValidator.validate(code, for: system)
            self.code = valid.text
            checked = .success(valid)
        } catch {
            self.code = code
            checked = .failure(error)
        }
    }

    var isValid: Bool { if case .success = checked { true } else { false } }

    /// The name, or the code when it has none.
    var title: String { name.isEmpty ? code : name }
}
