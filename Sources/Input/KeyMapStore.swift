import Foundation
import PhosphorKit

/// A problem found while loading key maps: a bad file (which was then ignored, so the layer
/// below it applies) or a conflict in the result. `description` is the one-line message for the user.
public struct KeyMapProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The file could not be used; the map falls back to the defaults (or the system map).
        case invalidFile
        /// One key is bound to more than one target; the map is still used.
        case conflict
    }

    public var kind: Kind
    public var file: URL?
    public var line: Int?
    public var message: String

    public var description: String {
        var location = file?.path ?? "key map"
        if let line { location += ":\(line)" }
        return "\(location): \(message)"
    }
}

public struct KeyMapLoadResult: Sendable {
    public var map: KeyMap
    public var problems: [KeyMapProblem]
}

/// Key maps on disk: `keymaps/<system>.json` and per-game overrides
/// `keymaps/<system>/<game>.json` under `PhosphorPaths.keyMaps`. Loading never writes; a bad
/// file is reported and skipped, never rewritten. Any thread (plain file I/O, no shared state).
public struct KeyMapStore: Sendable {
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    public init(paths: PhosphorPaths) {
        self.init(folder: paths.keyMaps)
    }

    public func systemFile(for system: GameSystem) -> URL {
        folder.appendingPathComponent("\(system.rawValue).json")
    }

    /// `game` is the game's name (usually the ROM file name without extension); characters that
    /// can't be in a file name are replaced.
    public func gameFile(for system: GameSystem, game: String) -> URL {
        var safe = String(game.map { $0 == "/" || $0 == "\0" ? "_" : $0 })
        while safe.hasPrefix(".") { safe.removeFirst() }
        if safe.isEmpty { safe = "_" }
        return folder.appendingPathComponent(system.rawValue).appendingPathComponent("\(safe).json")
    }

    /// Defaults, then the system file, then the game's file; each missing file is simply skipped.
    public func load(system: GameSystem, game: String? = nil) -> KeyMapLoadResult {
        var map = KeyMap.defaults(for: system)
        var problems: [KeyMapProblem] = []
        var files = [systemFile(for: system)]
        if let game { files.append(gameFile(for: system, game: game)) }
        for file in files {
            let text: String
            do {
                guard FileManager.default.fileExists(atPath: file.path) else { continue }
                let data = try Data(contentsOf: file)
                guard let decoded = String(data: data, encoding: .utf8) else {
                    problems.append(KeyMapProblem(kind: .invalidFile, file: file, line: nil,
                                                  message: "not UTF-8 text; using the default keys"))
                    continue
                }
                text = decoded
            } catch {
                problems.append(KeyMapProblem(kind: .invalidFile, file: file, line: nil,
                                              message: "can't read (\(error.localizedDescription)); using the default keys"))
                continue
            }
            do {
                try map.apply(fileText: text)
            } catch {
                problems.append(KeyMapProblem(kind: .invalidFile, file: file, line: error.line,
                                              message: "\(error.message); this file is ignored, the default keys apply"))
            }
        }
        for conflict in map.conflicts {
            problems.append(KeyMapProblem(kind: .conflict, file: nil, line: nil, message: conflict.description))
        }
        return KeyMapLoadResult(map: map, problems: problems)
    }

    /// Writes the default map as `keymaps/<system>.json` when there is no such file yet, so users
    /// can find and edit it. Returns whether it wrote. An existing file is never touched.
    @discardableResult
    public func writeDefaultIfMissing(for system: GameSystem) throws -> Bool {
        let file = systemFile(for: system)
        guard !FileManager.default.fileExists(atPath: file.path) else { return false }
        try AtomicFile.write(Data(KeyMap.defaults(for: system).fileText.utf8), to: file)
        return true
    }

    /// Writes the whole map (atomically) as the system map, or as `game`'s override.
    public func save(_ map: KeyMap, game: String? = nil) throws {
        let file = game.map { gameFile(for: map.system, game: $0) } ?? systemFile(for: map.system)
        try AtomicFile.write(Data(map.fileText.utf8), to: file)
    }
}
