import Emulation
import Foundation
import PhosphorKit

/// A game's cheats on disk: `cheats/<system>/<game>.json` under the data folder, written
/// atomically whenever the list changes:
///
///     { "cheats": [ { "name": "Boxes solid", "code": "ZAZKAP", "enabled": true } ] }
///
/// Like `ConfigStore`, a file that can't be read (malformed JSON, wrong types, larger than
/// 1 MiB) gives one line naming the file, line and problem; the game runs without cheats and the
/// store refuses to save, so the user's file is never overwritten because of a mistake in it. A
/// code of the wrong format only marks that cheat invalid (one line naming file and line): it is
/// kept as written, never handed to the core, and the other cheats still work.
/// Value type; the UI thread owns it.
struct CheatStore {
    static let maximumFileSize = 1 << 20

    let file: URL
    private(set) var list: CheatList
    /// Why the file could not be used; while set, nothing is saved.
    private(set) var loadError: UserFileError?
    /// Invalid codes and unknown keys, one line each (the cheats themselves still load).
    private(set) var warnings: [UserFileError] = []

    init(file: URL, list: CheatList, loadError: UserFileError? = nil, warnings: [UserFileError] = []) {
        self.file = file
        self.list = list
        self.loadError = loadError
        self.warnings = warnings
    }

    /// `cheats/<system>/<game key>.json`.
    static func file(paths: PhosphorPaths, system: GameSystem, gameKey: String) -> URL {
        paths.cheats.appendingPathComponent(system.rawValue).appendingPathComponent("\(gameKey).json")
    }

    /// Reads the file; a missing one is an empty list. Problems are also logged. Any thread.
    static func load(from file: URL, system: GameSystem) -> CheatStore {
        var store = CheatStore(file: file, list: CheatList(system: system))
        switch readUserFile(file, maximumSize: maximumFileSize) {
        case .missing:
            return store
        case .failed(let error):
            store.loadError = error
        case .read(let bytes):
            do {
                (store.list, store.warnings) = try decode(bytes, file: file, system: system)
            } catch {
                store.loadError = error
            }
        }
        if let error = store.loadError { Log.error("\(error); no cheats applied, the file is left untouched") }
        for warning in store.warnings { Log.warning("\(warning)") }
        return store
    }

    var canSave: Bool { loadError == nil }

    /// Replaces the list and writes the file. When the file failed to load, throws and changes
    /// nothing. When the write fails (a full or read-only disk), the new list is kept in memory
    /// (the game goes on with it) and the error is thrown for the user to see.
    mutating func update(_ newList: CheatList) throws {
        if let loadError {
            throw UserFileError(file: file, line: loadError.line,
                                problem: "cheats not changed: the file could not be read (\(loadError.problem)); fix or remove it")
        }
        list = newList
        try AtomicFile.write(Self.encoded(newList), to: file)
    }

    private struct StoredCheat: Codable {
        var name: String
        var code: String
        var enabled: Bool
    }

    private struct StoredFile: Codable {
        var cheats: [StoredCheat]
    }

    /// The bytes `update` writes: pretty-printed, sorted keys, cheats in list order.
    static func encoded(_ list: CheatList) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let stored = StoredFile(cheats: list.cheats.map { StoredCheat(name: $0.name, code: $0.code, enabled: $0.enabled) })
        var data = try encoder.encode(stored)
        data.append(0x0A)
        return data
    }

    /// Parses a cheats file. Throws the first structural error; invalid codes and unknown keys
    /// come back as warnings.
    static func decode(_ bytes: [UInt8], file: URL, system: GameSystem) throws(UserFileError) -> (CheatList, [UserFileError]) {
        let root: PositionedJSON
        do {
            root = try PositionedJSON.parse(bytes)
        } catch {
            throw UserFileError(file: file, line: error.line, problem: "not valid JSON: \(error.message) (column \(error.column))")
        }
        var warnings: [UserFileError] = []
        var list = CheatList(system: system)
        do throws(JSONFieldProblem) {
            var top = try JSONObjectReader(root, path: "")
            guard let entries = top.node("cheats") else {
                throw JSONFieldProblem(line: root.line, message: "\"cheats\" is missing (a list of cheats)")
            }
            guard case .array(let elements) = entries.value else {
                throw JSONFieldProblem(line: entries.line, message: "cheats must be a list, found \(entries.kindName)")
            }
            warnings += unknownKeys(top, file: file)
            for (position, element) in elements.enumerated() {
                var entry = try JSONObjectReader(element, path: "cheats[\(position)]")
                guard let code = try entry.string("code") else {
                    throw JSONFieldProblem(line: element.line, message: "cheats[\(position)] has no \"code\"")
                }
                let cheat = Cheat(name: try entry.string("name") ?? "", code: code,
                                  enabled: try entry.bool("enabled") ?? true, system: system)
                if case .failure(let reason) = cheat.checked {
                    let line = entry.members.last { $0.key == "code" }?.value.line ?? element.line
                    warnings.append(UserFileError(file: file, line: line, problem: "cheats[\(position)].code: \(reason); this cheat stays off"))
                }
                warnings += unknownKeys(entry, file: file)
                list.cheats.append(cheat)
            }
        } catch {
            throw UserFileError(file: file, line: error.line, problem: error.message)
        }
        return (list, warnings)
    }

    private static func unknownKeys(_ reader: JSONObjectReader, file: URL) -> [UserFileError] {
        reader.unreadMembers().map {
            UserFileError(file: file, line: $0.line, problem: "unknown key \"\(reader.fieldPath($0.key))\" (ignored)")
        }
    }
}
