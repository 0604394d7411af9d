import Foundation
import PhosphorKit

/// Finds a folder that ships with Phosphor (`Skins/`, `Roms/`): the folder named by an environment
/// variable when it is valid, else the first candidate found walking up from the executable's
/// folder, then from the current directory (so a checkout, a `swift run` and an installed
/// `share/phosphor/…` all work). Any thread.
struct BundledFolder {
    /// e.g. `PHOSPHOR_SKINS`.
    var environmentVariable: String
    /// Paths tried in each folder on the way up, e.g. `Skins` and `share/phosphor/skins`.
    var candidates: [String]
    /// A file that must exist inside for the folder to count, e.g. `nes.json`.
    var marker: String

    func locate(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: URL? = Bundle.main.executableURL,
        currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    ) -> URL? {
        if let override = environment[environmentVariable], !override.isEmpty {
            let folder = URL(fileURLWithPath: override, isDirectory: true).standardizedFileURL
            if holdsMarker(folder) { return folder }
            Log.warning("\(environmentVariable)=\(DisplayText.sanitized(override)) has no \(marker); looking elsewhere")
        }
        let starts = [executable?.resolvingSymlinksInPath().deletingLastPathComponent(), currentDirectory].compactMap { $0 }
        for start in starts {
            var folder = start.standardizedFileURL
            for _ in 0..<8 {
                for name in candidates {
                    let candidate = folder.appendingPathComponent(name, isDirectory: true)
                    if holdsMarker(candidate) { return candidate }
                }
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { break }
                folder = parent
            }
        }
        return nil
    }

    private func holdsMarker(_ folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(marker).path)
    }
}
