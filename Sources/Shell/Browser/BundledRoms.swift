import Foundation
import PhosphorKit

/// Finds the bundled demo cartridges (`Roms/`), which the browser always lists as a library
/// folder. Any thread.
enum BundledRoms {
    /// `$PHOSPHOR_ROMS` when set, else the first `Roms/` folder (holding `nes/phosphor-test.nes`)
    /// found walking up from the executable's folder and then from the current directory, else an
    /// installed `share/phosphor/roms` beside the executable's `bin/`.
    static func locate(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL? = Bundle.main.executableURL,
        currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    ) -> URL? {
        BundledFolder(environmentVariable: "PHOSPHOR_ROMS", candidates: ["Roms", "share/phosphor/roms"],
                      marker: "nes/phosphor-test.nes")
            .locate(environment: environment, executable: executable, currentDirectory: currentDirectory)
    }
}
