import Foundation
import PhosphorKit

/// The names RetroArch gave games, by CRC-32 and by ROM file name, read from its databases and
/// playlists. RetroArch names a thumbnail after the game's database name (its playlist label),
/// which often differs from the ROM's file name ("tetris.gb" is "Tetris (World) (Rev 1)"):
/// these labels let such a file find its picture. Any thread (a value).
public struct ThumbnailLabels: Sendable, Equatable {
    /// A thumbnail name and the folder (database, "Nintendo - Game Boy") it is kept under.
    public struct Label: Sendable, Hashable {
        public var folder: String
        public var name: String

        public init(folder: String, name: String) {
            self.folder = folder
            self.name = name
        }
    }

    /// Where the labels come from.
    public struct Sources: Sendable, Equatable {
        /// RetroArch's `playlist_directory`: every `.lpl` in it is read.
        public var playlists: URL?
        /// RetroArch's `content_database_path`: `<name>.rdb` for each of `databaseNames`.
        public var databases: URL?
        /// The databases read: those of the systems Phosphor plays, not RetroArch's 150.
        public var databaseNames: [String]

        public init(playlists: URL?, databases: URL?,
                    databaseNames: [String] = GameSystem.allCases.flatMap(\.databaseNames)) {
            self.playlists = playlists
            self.databases = databases
            self.databaseNames = databaseNames
        }

        /// The files that exist, databases first, each folder's in name order.
        public func files() -> [URL] {
            let manager = FileManager.default
            var files: [URL] = []
            if let databases {
                for name in databaseNames {
                    let file = databases.appendingPathComponent(name + ".rdb")
                    if manager.fileExists(atPath: file.path) { files.append(file) }
                }
            }
            if let playlists, let names = try? manager.contentsOfDirectory(atPath: playlists.path) {
                files += names.filter { $0.hasSuffix(".lpl") }.sorted().map { playlists.appendingPathComponent($0) }
            }
            return files
        }
    }

    private(set) var byCRC: [UInt32: [Label]] = [:]
    /// Keyed by the lowercased file name.
    private(set) var byFileName: [String: [Label]] = [:]

    public init() {}

    public var isEmpty: Bool { byCRC.isEmpty && byFileName.isEmpty }

    /// Reads `files` (`.rdb` databases and `.lpl` playlists). A file that cannot be read is
    /// skipped with one line to `log`; the others still count.
    public init(files: [URL], log: (String) -> Void) {
        for file in files {
            do {
                if file.pathExtension == "rdb" {
                    add(try RetroArchDatabase(contentsOf: file), folder: file.deletingPathExtension().lastPathComponent)
                } else {
                    add(try RetroArchPlaylist(contentsOf: file), folder: file.deletingPathExtension().lastPathComponent)
                }
            } catch {
                log("thumbnails: \(DisplayText.sanitized(file.path)): \(ErrorText.line(error)); skipped")
            }
        }
    }

    mutating func add(_ database: RetroArchDatabase, folder: String) {
        for entry in database.entries {
            let label = Label(folder: folder, name: entry.name)
            if let crc = entry.crc32 { byCRC[crc, default: []].append(label) }
            if let romName = entry.romName { byFileName[romName.lowercased(), default: []].append(label) }
        }
    }

    /// An item without a database name has its thumbnails under the playlist's own name.
    mutating func add(_ playlist: RetroArchPlaylist, folder: String) {
        for item in playlist.items {
            let label = Label(folder: item.databaseName ?? folder, name: item.label)
            if let crc = item.crc32 { byCRC[crc, default: []].append(label) }
            let fileName = item.fileName
            if !fileName.isEmpty { byFileName[fileName.lowercased(), default: []].append(label) }
        }
    }

    /// The labels `game` may have, the surest first: by its CRC (an exact dump), then by its
    /// file name; in each, those of its own system's databases first. No duplicates.
    public func labels(for game: Game) -> [Label] {
        let own = Set(game.system.databaseNames)
        var found: [Label] = []
        var seen = Set<Label>()
        for list in [game.crc32 == 0 ? [] : byCRC[game.crc32] ?? [], byFileName[game.fileName.lowercased()] ?? []] {
            for label in list.filter({ own.contains($0.folder) }) + list.filter({ !own.contains($0.folder) })
            where seen.insert(label).inserted {
                found.append(label)
            }
        }
        return found
    }
}
