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
        if let override = environment["PHOSPHOR_ROMS"], !override.isEmpty {
            let folder = URL(fileURLWithPath: override, isDirectory: true).standardizedFileURL
            if isRomFolder(folder) { return folder }
            Log.warning("PHOSPHOR_ROMS=\(RomInspector.sanitizedDisplayText(override)) holds no test cartridges; looking elsewhere")
        }
        let starts = [executable?.resolvingSymlinksInPath().deletingLastPathComponent(), currentDirectory].compactMap { $0 }
        for start in starts {
            var folder = start.standardizedFileURL
            for _ in 0..<8 {
                for name in ["Roms", "share/phosphor/roms"] {
                    let candidate = folder.appendingPathComponent(name, isDirectory: true)
                    if isRomFolder(candidate) { return candidate }
                }
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { break }
                folder = parent
            }
        }
        return nil
    }

    private static func isRomFolder(_ folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("nes/phosphor-test.nes").path)
    }
}
