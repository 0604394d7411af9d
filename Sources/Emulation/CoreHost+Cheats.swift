internal import CLibretro
import PhosphorKit

extension CoreHost {
    /// How this host's core takes cheats (its `CoreProfile`).
    public var cheatSupport: CoreCheatSupport { configuration.core.cheatSupport }

    /// Replaces the core's cheats: `retro_cheat_reset` (except for gambatte, see
    /// `CoreCheatSupport.Calls`), then `retro_cheat_set(index, true, code)` for each entry in
    /// order. The list is kept and handed to the core again after a reset or a state load.
    ///
    /// Throws without calling the core when a code could crash it: the Debian cores copy the
    /// code into fixed stack buffers (`CoreCheatSupport.maximumCodeBytes`), and a NUL would cut
    /// it short. Core thread.
    public func setCheats(_ cheats: [CoreCheat]) throws {
        let support = cheatSupport
        for cheat in cheats {
            if let reason = support.unsupportedReason {
                throw EmulationError.cheatRejected(function: "retro_cheat_set", reason: reason)
            }
            let bytes = cheat.code.utf8.count
            if bytes > support.maximumCodeBytes {
                throw EmulationError.cheatRejected(
                    function: "retro_cheat_set",
                    reason: "the code is \(bytes) bytes; \(configuration.core.displayName) takes at most \(support.maximumCodeBytes)")
            }
            if cheat.code.utf8.contains(0) || !(0...Int(Int32.max)).contains(cheat.index) {
                throw EmulationError.cheatRejected(function: "retro_cheat_set",
                                                   reason: "the code contains a NUL byte or its index is out of range")
            }
        }
        if support.resetsBeforeSetting { core.table.cheat_reset() }
        for cheat in cheats {
            cheat.code.withCString { core.table.cheat_set(UInt32(cheat.index), true, $0) }
        }
        activeCheats = cheats
    }

    /// Hands the kept cheats to the core again (after a reset or a state load). Core thread.
    func reapplyCheats() {
        guard !activeCheats.isEmpty else { return }
        do { try setCheats(activeCheats) } catch { Log.error("\(error)") }
    }
}
