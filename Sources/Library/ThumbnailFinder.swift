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
/// A game is tried by, in this order: its No-Intro style name (the ROM file name without
/// extension, "Tetris (World) (Rev 1)"), its title (the header's or the tidied file name), the
/// file name without its tags ("Tetris"), and its CRC-32 as eight hex digits ("46DF91AD.png",
/// for folders named by checksum, e.g. Phosphor's own). Only existence is checked here (a few
/// `stat` calls); decoding is the caller's. Any thread.
public struct ThumbnailFinder: Sendable {
    /// Searched in order: Phosphor's own folder first, then RetroArch's.
    public let roots: [URL]

    public init(roots: [URL]) {
        self.roots = roots
    }

    /// The first existing picture of `kind` for `game`, or nil.
    public func file(for game: Game, kind: ThumbnailKind) -> URL? {
        let names = Self.candidateNames(for: game)
        for root in roots {
            for playlist in game.system.databaseNames {
                let folder = root.appendingPathComponent(playlist).appendingPathComponent(kind.folderName)
                for name in names {
                    let file = folder.appendingPathComponent(name + ".png")
                    if FileManager.default.fileExists(atPath: file.path) { return file }
                }
            }
        }
        return nil
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
