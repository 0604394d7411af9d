import Foundation
import PhosphorKit

/// Which picture of a game the browser shows: RetroArch's three thumbnail kinds.
public enum ThumbnailKind: String, CaseIterable, Sendable, Codable {
    case boxart
    case title
    case snap

    /// The subfolder RetroArch keeps this kind in.
    public var folderName: String {
        switch self {
        case .boxart: "Named_Boxarts"
        case .title: "Named_Titles"
        case .snap: "Named_Snaps"
        }
    }
}

/// Finds a game's thumbnail in folders laid out the way RetroArch keeps them:
/// `<root>/<playlist name>/Named_Boxarts/<game name>.png`, the playlist name being the
/// system's libretro database name ("Nintendo - Game Boy Color") and the game name having
/// each of `&*/:\`<>?\|"` replaced by `_`.
///
/// A game is tried first by the names RetroArch's databases and playlists give it (`labels`:
/// by its CRC-32, then by its ROM file name, each in the folder of the database that names
/// it), then, in its system's folders, by its No-Intro style name (the ROM file name without
/// extension, "Tetris (World) (Rev 1)"), its title (the header's or the tidied file name), the
/// file name without its tags ("Tetris"), and its CRC-32 as eight hex digits ("46DF91AD.png",
/// for folders named by checksum, e.g. Phosphor's own). Only existence is checked here (a few
/// `stat` calls); decoding is the caller's. Any thread; the labels are read in the background
/// (until then a game is tried by its own names only).
public struct ThumbnailFinder: Sendable {
    /// Searched in order: Phosphor's own folder first, then RetroArch's.
    public let roots: [URL]
    /// RetroArch's names for games; nil: none (names only).
    public let labels: ThumbnailLabelIndex?

    public init(roots: [URL], labels: ThumbnailLabelIndex? = nil) {
        self.roots = roots
        self.labels = labels
    }

    /// Grows when RetroArch's labels have been (re)read: lookups that found nothing before may
    /// find something now.
    public var labelsGeneration: Int { labels?.generation ?? 0 }

    /// The first existing picture of `kind` for `game`, or nil.
    public func file(for game: Game, kind: ThumbnailKind) -> URL? {
        let candidates = Self.candidates(for: game, labels: labels?.current())
        for root in roots {
            for candidate in candidates {
                let file = root.appendingPathComponent(candidate.folder).appendingPathComponent(kind.folderName)
                    .appendingPathComponent(candidate.name + ".png")
                if FileManager.default.fileExists(atPath: file.path) { return file }
            }
        }
        return nil
    }

    /// The (folder, safe name) pairs tried for `game` under each root, in order.
    static func candidates(for game: Game, labels: ThumbnailLabels?) -> [ThumbnailLabels.Label] {
        var pairs = (labels?.labels(for: game) ?? []).map { ThumbnailLabels.Label(folder: $0.folder, name: safeName($0.name)) }
        let names = candidateNames(for: game)
        for playlist in game.system.databaseNames {
            pairs += names.map { ThumbnailLabels.Label(folder: playlist, name: $0) }
        }
        var seen = Set<ThumbnailLabels.Label>()
        // A playlist's folder name is a file's text: one that would leave the root is not used.
        return pairs.filter { !$0.name.isEmpty && !$0.folder.contains("/") && $0.folder != ".." && seen.insert($0).inserted }
    }

    /// The names a thumbnail of `game` may have, without ".png", already made safe.
    public static func candidateNames(for game: Game) -> [String] {
        let stem = (game.fileName as NSString).deletingPathExtension
        var names = [stem, game.title, withoutTags(stem)].map(safeName)
        names.append(String(format: "%08X", game.crc32))
        var seen = Set<String>()
        return names.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// RetroArch's rule: each of `&*/:\`<>?\|"` becomes `_`.
    public static func safeName(_ name: String) -> String {
        let unsafe: Set<Character> = ["&", "*", "/", ":", "`", "<", ">", "?", "\\", "|", "\""]
        return String(name.map { unsafe.contains($0) ? "_" : $0 })
    }

    /// "Tetris (World) [!]" → "Tetris": the name before its first "(" or "[" tag.
    static func withoutTags(_ name: String) -> String {
        let cut = name.firstIndex { $0 == "(" || $0 == "[" } ?? name.endIndex
        return name[..<cut].trimmingCharacters(in: .whitespaces)
    }
}
