import Foundation
import PhosphorKit

/// A core's options (libretro core options v0, v1 and v2 all land here) and their current values,
/// persisted per core as JSON in `PhosphorPaths.coreOptions/<core>.json`.
///
/// Core thread: the environment callback defines options and reads values (C strings stay alive
/// here until the value changes). UI thread: reads `definitions`/`values` snapshots and sets values
/// through `CoreThread`, which forwards them to the core thread.
final class CoreOptions {
    struct Definition: Sendable, Equatable {
        var key: String
        var description: String
        var values: [String]
        var defaultValue: String
    }

    private(set) var definitions: [Definition] = []
    private(set) var values: [String: String] = [:]
    /// Values loaded from disk, applied as options are defined.
    private var saved: [String: String] = [:]
    /// C copies handed to the core by GET_VARIABLE; freed when replaced.
    private var cStrings: [String: UnsafeMutablePointer<CChar>] = [:]
    /// Set when a value changed since the core last asked (GET_VARIABLE_UPDATE).
    var updated = false
    let file: URL?

    /// `overrides` win over saved values; `startingValues` only stand in for values never saved.
    init(file: URL?, overrides: [String: String] = [:], startingValues: [String: String] = [:]) {
        self.file = file
        if let file, let data = try? Data(contentsOf: file) {
            if let decoded = try? JSONDecoder().decode([String: String].self, from: data) {
                saved = decoded
            } else {
                Log.warning("\(file.path): not a JSON object of strings; core options use their defaults")
            }
        }
        for (key, value) in startingValues where saved[key] == nil { saved[key] = value }
        for (key, value) in overrides { saved[key] = value }
    }

    deinit { for pointer in cStrings.values { free(pointer) } }

    /// Replaces the definitions (a core may call SET_VARIABLES / SET_CORE_OPTIONS more than once).
    func define(_ newDefinitions: [Definition]) {
        definitions = newDefinitions
        var newValues: [String: String] = [:]
        for definition in newDefinitions {
            if let stored = saved[definition.key], definition.values.contains(stored) {
                newValues[definition.key] = stored
            } else {
                newValues[definition.key] = definition.defaultValue
            }
        }
        values = newValues
        updated = true
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

    /// Sets a value (core thread) and persists it. Unknown keys or values are refused.
    @discardableResult
    func set(_ value: String, for key: String) -> Bool {
        guard let definition = definitions.first(where: { $0.key == key }), definition.values.contains(value) else {
            return false
        }
        values[key] = value
        saved[key] = value
        updated = true
        persist()
        return true
    }

    private func persist() {
        guard let file else { return }
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try AtomicFile.write(try encoder.encode(saved), to: file)
        } catch {
            Log.error("cannot save core options to \(file.path): \(error)")
        }
    }
}
