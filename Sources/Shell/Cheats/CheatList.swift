import Emulation
import PhosphorKit

/// A game's cheats in the user's order. Value type, any thread.
struct CheatList: Equatable {
    var system: GameSystem
    var cheats: [Cheat] = []

    /// Cheats that are on and valid: what the core gets.
    var enabledCount: Int { cheats.filter { $0.enabled && $0.isValid }.count }

    /// The `retro_cheat_set` calls for the cheats that are on, each with its position in the list.
    func coreCheats(_ support: CoreCheatSupport) -> [CoreCheat] {
        let enabled = cheats.enumerated().compactMap { entry -> (index: Int, code: CheatCode)? in
            guard entry.element.enabled, case .success(let code) = entry.element.checked else { return nil }
            return (entry.offset, code)
        }
        return support.coreCheats(for: enabled)
    }
}
