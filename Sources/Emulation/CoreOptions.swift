import Foundation
import PhosphorKit

/// A core's options (libretro core options v0, v1 and v2 all land here) and their current values,
/// persisted per core as JSON in `PhosphorPaths.coreOptions/<core>.json`, with per-game overrides
/// in `<core>/<game>.json` beside it. With RetroArch's folders shared, RetroArch's own option
/// files are read under those (RetroArch's values apply until one is changed here).
///
/// A value in a file that the core does not offer is named in one line (`problems`), the option
/// keeps its default, and the file keeps the value untouched (only keys the player sets are
/// rewritten).
///
/// Core thread: the environment callback defines options and reads values (C strings stay alive
/// here until the value changes); the Core Options screen's changes arrive through `CoreThread`.
final class CoreOptions {
    typealias Definition = CoreOptionDefinition

    private(set) var definitions: [Definition] = []
    private(set) var values: [String: String] = [:]
    /// The core file's values and the game file's, as read (or as set since).
    private var coreSaved: [String: String] = [:]
    private var gameSaved: [String: String] = [:]
    /// Forced for this run (the core profile's values, a run's overrides): over the files' values.
    private let overrides: [String: String]
    /// C copies handed to the core by GET_VARIABLE; freed when replaced.
    private var cStrings: [String: UnsafeMutablePointer<CChar>] = [:]
    /// Set when a value changed since the core last asked (GET_VARIABLE_UPDATE).
    var updated = false
    let file: URL?
    let gameFile: URL?
    /// One line per unusable value in a file (or a file that is no JSON object of strings).
    private(set) var problems: [String] = []

    /// RetroArch's option files (`.opt`, `retroarch-core-options.cfg`) when its folders are
    /// shared: read only, under Phosphor's files, the last one winning.
    private var retroArchSaved: [(file: URL, values: [String: String])] = []

    /// Stand in for values never saved (a core profile's starting resolution), under every file.
    private let startingValues: [String: String]

    /// `overrides` win over saved values; `startingValues` only stand in for values never saved.
    init(file: URL?, gameFile: URL? = nil, retroArchFiles: [URL] = [], overrides: [String: String] = [:],
         startingValues: [String: String] = [:]) {
        self.startingValues = startingValues
        self.file = file
        self.gameFile = gameFile
        self.overrides = overrides
        retroArchSaved = retroArchFiles.compactMap { file in CoreInfoFile.load(file).map { (file, $0) } }
        coreSaved = Self.read(file, problems: &problems)
        gameSaved = Self.read(gameFile, problems: &problems)
    }

    private static func read(_ file: URL?, problems: inout [String]) -> [String: String] {
        guard let file, let data = try? Data(contentsOf: file) else { return [:] }
        guard let decoded = try? JSONDecoder().decode([String: String].self, from: data) else {
            let line = "\(file.path): not a JSON object of strings; core options use their defaults (the file is kept as it is)"
            Log.warning(line)
            problems.append(line)
            return [:]
        }
        return decoded
    }

    deinit { for pointer in cStrings.values { free(pointer) } }

    /// Replaces the definitions (a core may call SET_VARIABLES / SET_CORE_OPTIONS more than once).
    func define(_ newDefinitions: [Definition]) {
        definitions = newDefinitions
        var newValues: [String: String] = [:]
        for definition in newDefinitions {
            var value = definition.defaultValue
            if let starting = startingValues[definition.key], definition.values.contains(starting) { value = starting }
            let layers = retroArchSaved.map { ($0.values, Optional($0.file)) } + [(coreSaved, self.file), (gameSaved, gameFile)]
            for (saved, file) in layers {
                guard let stored = saved[definition.key] else { continue }
                if definition.values.contains(stored) {
                    value = stored
                } else if let file {
                    let line = "\(file.lastPathComponent): \(definition.key) = \"\(stored)\" is not one of its values (\(definition.values.joined(separator: "|"))); using \"\(value)\""
                    if !problems.contains(line) {
                        Log.warning("\(file.path): \(line)")
                        problems.append(line)
                    }
                }
            }
            // The profile's and the run's values win, as they always did (desmume's touch screen
            // needs its pointer options whatever a file says).
            if let forced = overrides[definition.key], definition.values.contains(forced) { value = forced }
            newValues[definition.key] = value
        }
        values = newValues
        updated = true
    }

    /// The options with their values, for the Core Options screen.
    var states: [CoreOptionState] {
        definitions.map { definition in
            let fromGame = gameSaved[definition.key].map { definition.values.contains($0) } ?? false
            return CoreOptionState(definition: definition, value: values[definition.key] ?? definition.defaultValue,
                                   isGameOverride: fromGame)
        }
    }

    /// Parses a v0 `retro_variable` value: `"Description; first|second|third"`.
    static func definition(key: String, legacyValue: String) -> Definition? {
        guard let separator = legacyValue.range(of: "; ") else { return nil }
        let description = String(legacyValue[..<separator.lowerBound])
        let choices = legacyValue[separator.upperBound...].split(separator: "|").map(String.init)
        guard let first = choices.first else { return nil }
        return Definition(key: key, description: description, values: choices, defaultValue: first)
    }

    /// The value for GET_VARIABLE, as a C string that stays valid until the value changes.
    func cValue(for key: String) -> UnsafePointer<CChar>? {
        guard let value = values[key] else { return nil }
        if let existing = cStrings[key], String(cString: existing) == value {
            return UnsafePointer(existing)
        }
        if let old = cStrings[key] { free(old) }
        let copy = strdup(value)!
        cStrings[key] = copy
        return UnsafePointer(copy)
    }

    /// Sets a value (core thread) and persists it: for every game (the core's file, and this
    /// game's own value of the key is dropped) or for this game only. Unknown keys or values are
    /// refused.
    @discardableResult
    func set(_ value: String, for key: String, forThisGame: Bool = false) -> Bool {
        guard let definition = definitions.first(where: { $0.key == key }), definition.values.contains(value) else {
            return false
        }
        values[key] = value
        updated = true
        if forThisGame, gameFile != nil {
            gameSaved[key] = value
            persist(gameSaved, to: gameFile)
        } else {
            coreSaved[key] = value
            persist(coreSaved, to: file)
            if gameSaved.removeValue(forKey: key) != nil { persist(gameSaved, to: gameFile) }
        }
        return true
    }

    private func persist(_ saved: [String: String], to file: URL?) {
        guard let file else { return }
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFile.write(try encoder.encode(saved), to: file)
        } catch {
            Log.error("cannot save core options to \(file.path): \(error)")
        }
    }
}
