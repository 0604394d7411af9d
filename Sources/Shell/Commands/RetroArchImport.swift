import Emulation
import Foundation
import Library
import PhosphorKit

/// `phosphor import-retroarch`: copies RetroArch's battery saves, clocks and save states once into
/// Phosphor's own folders (`saves/<system>/`, `states/<system>/`), for a player who keeps using
/// Phosphor's folders. Which console a file belongs to comes from the library (a game whose
/// file, or archive, has the file's name) or from RetroArch's per-core subfolder (the core's
/// systems). Nothing is overwritten: a file Phosphor already has is kept and named in the report.
/// Main thread (a command).
struct RetroArchImport {
    var folders: RetroArchFolders
    var paths: PhosphorPaths
    var catalog: CoreCatalog

    struct Report {
        var copied: [String] = []
        var kept: [String] = []
        var unknown: [String] = []
    }

    static let fileExtensions = ["srm", "rtc"]

    func run(library: GameLibrary) throws -> Report {
        var systemsByName: [String: Set<GameSystem>] = [:]
        for game in try library.games() {
            // A game in an archive has the archive's name in RetroArch (as in Phosphor).
            let file = URL(fileURLWithPath: game.path)
            systemsByName[file.deletingPathExtension().lastPathComponent, default: []].insert(game.system)
        }
        var report = Report()
        for (base, isStates) in [(folders.saves, false), (folders.states, true)] {
            guard let base else { continue }
            for file in Self.files(in: base) {
                guard let name = Self.gameName(of: file, states: isStates) else { continue }
                // RetroArch's sorted subfolder names the core; else the library knows the game.
                let folderName = file.deletingLastPathComponent().lastPathComponent
                let fromCore = file.deletingLastPathComponent().standardizedFileURL != base.standardizedFileURL
                    ? catalog.cores.first { ($0.libraryName ?? $0.displayName) == folderName }?.systems : nil
                let candidates = Set(fromCore ?? []).union(fromCore == nil ? systemsByName[name] ?? [] : [])
                guard candidates.count == 1, let system = candidates.first else {
                    report.unknown.append(file.lastPathComponent)
                    continue
                }
                let target = (isStates ? paths.states : paths.saves).appendingPathComponent(system.rawValue)
                    .appendingPathComponent(file.lastPathComponent)
                if FileManager.default.fileExists(atPath: target.path) {
                    report.kept.append("\(system.rawValue)/\(file.lastPathComponent)")
                    continue
                }
                try AtomicFile.write(try Data(contentsOf: file), to: target)
                report.copied.append("\(system.rawValue)/\(file.lastPathComponent)")
            }
        }
        return report
    }

    /// The files in `folder` and its per-core subfolders (one level, as RetroArch sorts them).
    static func files(in folder: URL) -> [URL] {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else { return [] }
        var files: [URL] = []
        for name in names.sorted() {
            let url = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: url.path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                files += ((try? manager.contentsOfDirectory(atPath: url.path)) ?? []).sorted().map { url.appendingPathComponent($0) }
            } else {
                files.append(url)
            }
        }
        return files
    }

    /// `Game` for `Game.srm`, `Game.rtc`, `Game.state`, `Game.state3`, `Game.state.auto`; nil for
    /// anything else (RetroArch's `.png` previews, `.opt` files).
    static func gameName(of file: URL, states: Bool) -> String? {
        let name = file.lastPathComponent
        if !states {
            return fileExtensions.contains(file.pathExtension) ? file.deletingPathExtension().lastPathComponent : nil
        }
        guard let range = name.range(of: ".state", options: .backwards) else { return nil }
        let suffix = name[range.upperBound...]
        guard suffix.isEmpty || suffix == ".auto" || suffix.allSatisfy(\.isNumber) else { return nil }
        return String(name[..<range.lowerBound])
    }
}
