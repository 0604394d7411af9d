import Foundation
import PhosphorKit

/// A game in the library: one ROM file, or one ROM inside an archive.
public struct Game: Sendable, Equatable, Identifiable {
    public let id: Int64
    public let system: GameSystem
    /// Absolute path of the ROM file or of the archive holding it.
    public let path: String
    /// Path of the ROM inside the archive at `path`; nil for a plain file.
    public let archiveEntry: String?
    /// Header title when the header has one, else the tidied file name. Sanitized for display.
    public let title: String
    /// Size of the ROM data in bytes.
    public let size: Int
    /// CRC-32 of the ROM data (after any copier header).
    public let crc32: UInt32
    public let lastPlayed: Date?
    /// Total seconds played.
    public let playTime: Int
    public let playCount: Int
    public let favourite: Bool

    /// The ROM's own file name (the entry's last component for an archive), e.g. for save names.
    public var fileName: String {
        let full = archiveEntry ?? path
        return full.replacingOccurrences(of: "\\", with: "/").split(separator: "/").last.map(String.init) ?? full
    }
}

/// Orders for `GameLibrary.games`.
public enum GameSort: String, Sendable, CaseIterable {
    /// Alphabetical, ignoring case and accents.
    case title
    /// Most recently played first; never-played games after, alphabetically.
    case recent
    /// Longest play time first, then most plays, then title.
    case mostPlayed
}

/// What a scan did. `filesRead` lists every file that was opened (unchanged files are not).
public struct ScanReport: Sendable, Equatable {
    public var gamesAdded = 0
    public var gamesUpdated = 0
    public var gamesRemoved = 0
    public var filesUnchanged = 0
    public var filesRead: [String] = []
    /// One line each, naming the file: bad headers, unknown systems, refused archive entries,
    /// missing folders.
    public var problems: [ScanProblem] = []
    /// The scan was stopped (Ctrl-C) before its end: what was read is kept, nothing was removed.
    public var wasCancelled = false
}

/// A library folder.
public struct LibraryFolder: Sendable, Equatable {
    public let id: Int64
    public let url: URL
}

/// Errors from the library itself (SQLite failures are `SQLiteError`).
public enum GameLibraryError: Error, Equatable, CustomStringConvertible {
    case newerSchema(database: String, version: Int, supported: Int)
    case notADirectory(String)
    /// The file is an SQLite database of another program (tables Phosphor did not make).
    case foreignDatabase(database: String, reason: String)

    public var description: String {
        switch self {
        case .newerSchema(let database, let version, let supported):
            "\(DisplayText.sanitized(database)): made by a newer Phosphor (schema \(version), "
                + "this one knows \(supported)); left untouched"
        case .notADirectory(let path):
            "\(DisplayText.sanitized(path)): not a folder"
        case .foreignDatabase(let database, let reason):
            "\(DisplayText.sanitized(database)): not a Phosphor library (\(DisplayText.sanitized(reason)))"
        }
    }
}
