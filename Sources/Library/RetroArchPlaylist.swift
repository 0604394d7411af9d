import Foundation
import PhosphorKit

/// Why a file is not a readable RetroArch playlist.
public enum RetroArchPlaylistError: Error, Equatable, CustomStringConvertible {
    case notJSON(String)
    case noItems
    case oldFormatCutShort(lines: Int)

    public var description: String {
        switch self {
        case .notJSON(let reason): "not a playlist (\(reason))"
        case .noItems: "not a playlist (no \"items\" list)"
        case .oldFormatCutShort(let lines): "an old-style playlist cut short (\(lines) lines, not a multiple of 6)"
        }
    }
}

/// A RetroArch playlist (`playlists/<System>.lpl`). Since RetroArch 1.7.6 it is JSON: an object
/// whose "items" are objects with "path" (an archive's entry as `archive.zip#entry`), "label"
/// (the database name of the game, which thumbnails are named after), "crc32" ("46DF91AD|crc")
/// and "db_name" (the database, "Nintendo - Game Boy.lpl", whose name without ".lpl" is the
/// thumbnail folder). Older RetroArch wrote six lines per game in the same order: path, label,
/// core path, core name, crc32, db_name. Any thread (values).
public struct RetroArchPlaylist: Sendable, Equatable {
    public struct Item: Sendable, Equatable {
        public var path: String
        public var label: String
        public var crc32: UInt32?
        /// The thumbnail folder: `db_name` without ".lpl"; nil when the item names none.
        public var databaseName: String?

        public init(path: String, label: String, crc32: UInt32? = nil, databaseName: String? = nil) {
            self.path = path
            self.label = label
            self.crc32 = crc32
            self.databaseName = databaseName
        }

        /// The ROM's own file name: the archive entry's, else the path's last component.
        public var fileName: String {
            let inner = path.split(separator: "#", omittingEmptySubsequences: false).last.map(String.init) ?? path
            return inner.replacingOccurrences(of: "\\", with: "/").split(separator: "/").last.map(String.init) ?? inner
        }
    }

    public var items: [Item]

    public init(items: [Item]) {
        self.items = items
    }

    public init(contentsOf file: URL) throws {
        try self.init(data: try Data(contentsOf: file))
    }

    public init(data: Data) throws(RetroArchPlaylistError) {
        let text = String(decoding: data, as: UTF8.self)
        if text.drop(while: \.isWhitespace).first == "{" {
            items = try Self.jsonItems(data)
        } else {
            items = try Self.oldFormatItems(text)
        }
    }

    private static func jsonItems(_ data: Data) throws(RetroArchPlaylistError) -> [Item] {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch { throw .notJSON(ErrorText.line(error)) }
        guard let list = (object as? [String: Any])?["items"] as? [[String: Any]] else { throw .noItems }
        return list.compactMap { entry in
            guard let path = entry["path"] as? String, let label = entry["label"] as? String, !label.isEmpty else { return nil }
            return Item(path: path, label: label, crc32: (entry["crc32"] as? String).flatMap(crc),
                        databaseName: (entry["db_name"] as? String).flatMap(databaseName))
        }
    }

    private static func oldFormatItems(_ text: String) throws(RetroArchPlaylistError) -> [Item] {
        // "\r\n" is one Character, a newline like "\n".
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard lines.count % 6 == 0 else { throw .oldFormatCutShort(lines: lines.count) }
        return stride(from: 0, to: lines.count, by: 6).compactMap { start in
            let label = lines[start + 1]
            guard !label.isEmpty else { return nil }
            return Item(path: lines[start], label: label, crc32: crc(lines[start + 4]), databaseName: databaseName(lines[start + 5]))
        }
    }

    /// "46DF91AD|crc" → 0x46DF91AD; "DETECT", "00000000|crc" or anything else → nil.
    static func crc(_ field: String) -> UInt32? {
        let digits = field.split(separator: "|").first.map(String.init) ?? ""
        guard digits.count == 8, let value = UInt32(digits, radix: 16), value != 0 else { return nil }
        return value
    }

    /// "Nintendo - Game Boy.lpl" → "Nintendo - Game Boy"; "DETECT" or empty → nil.
    static func databaseName(_ field: String) -> String? {
        let name = field.hasSuffix(".lpl") ? String(field.dropLast(4)) : field
        return name.isEmpty || name == "DETECT" ? nil : name
    }
}
