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
            guard FileManager.default.fileExists(atPath: explicitCore.path) else {
                throw EmulationError.coreLoadFailed(core: explicitCore.path, reason: "no such file")
            }
            return CoreCatalog.describe(library: explicitCore)
        }
        guard let system else { throw EmulationError.unknownSystem(file: rom.lastPathComponent) }
        guard let core = catalog.core(for: system, preferring: preferences[system]) else {
            throw EmulationError.noCore(system: system.displayName)
        }
        return core
    }
}
