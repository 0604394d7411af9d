import Foundation
import PhosphorKit

/// Chooses the core for a ROM: an explicit `--core PATH` wins, then the user's per-system
/// preference, then the best installed core for the system the ROM is for.
public enum CoreSelection {
    public static func core(
        for rom: URL, system: GameSystem?, explicitCore: URL?, preferences: [GameSystem: String],
        catalog: CoreCatalog
    ) throws -> CoreInfo {
        if let explicitCore {
            try checkExists(explicitCore, for: rom)
            return CoreCatalog.describe(library: explicitCore)
        }
        guard let system else { throw EmulationError.unknownSystem(file: rom.lastPathComponent) }
        guard let core = catalog.core(for: system, preferring: preferences[system]) else {
            throw EmulationError.noCore(system: system.displayName)
        }
        return core
    }

    /// Throws a one-line `coreNotFound` naming the ROM when `--core` names a missing file (the
    /// play command asks before it opens the screen).
    public static func checkExists(_ explicitCore: URL, for rom: URL) throws {
        guard FileManager.default.fileExists(atPath: explicitCore.path) else {
            throw EmulationError.coreNotFound(core: explicitCore.path, file: rom.lastPathComponent)
        }
    }
}
