import Emulation
import Foundation
import PhosphorKit

/// A RetroArch cheat file (`.cht`): `cheats = N`, then `cheatK_desc`, `cheatK_code` and
/// `cheatK_enable` for K from 0 (`key = "value"` lines; RetroArch writes more keys, for its
/// memory-search cheats, which are not codes and are left out). The codes are the same strings
/// Phosphor takes (parts joined with `+`), checked against the system's formats on import.
/// Any thread (a value parsed from text).
struct RetroArchCheatFile {
    /// One cheat of the file, as written.
    struct Entry: Equatable {
        var name: String
        var code: String
        var enabled: Bool
    }

    var entries: [Entry]

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads `file` (a one-line error naming it when it cannot be read or is no cheat file).
    static func read(_ file: URL) throws -> RetroArchCheatFile {
        let name = DisplayText.sanitized(file.lastPathComponent)
        let text: String
        do {
            let data = try Data(contentsOf: file)
            guard data.count <= 4 << 20 else { throw Failure(description: "\(name): larger than 4 MiB, not a cheat file") }
            text = String(decoding: data, as: UTF8.self)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: ErrorText.line(error, file: file))
        }
        return try parse(text, fileName: name)
    }

    static func parse(_ text: String, fileName: String) throws -> RetroArchCheatFile {
        let values = CoreInfoFile.parse(text)  // RetroArch's `key = "value"` syntax
        guard let countText = values["cheats"], let count = Int(countText), count >= 0 else {
            throw Failure(description: "\(fileName): not a RetroArch cheat file (no \"cheats = N\" line)")
        }
        var entries: [Entry] = []
        for index in 0..<min(count, 10_000) {
            // A memory-search cheat has no code: nothing to import.
            guard let code = values["cheat\(index)_code"], !code.isEmpty else { continue }
            entries.append(Entry(name: values["cheat\(index)_desc"] ?? "", code: code,
                                 enabled: values["cheat\(index)_enable"]?.lowercased() == "true"))
        }
        return RetroArchCheatFile(entries: entries)
    }

    /// The file's cheats for `system`: valid codes become cheats (on as the file says); the
    /// others are named in `skipped`, one line each.
    func cheats(for system: GameSystem) -> (cheats: [Cheat], skipped: [String]) {
        var cheats: [Cheat] = []
        var skipped: [String] = []
        for entry in entries {
            do {
                let code = try CheatCodeValidator.validate(entry.code, for: system)
                cheats.append(Cheat(name: entry.name, code: code, enabled: entry.enabled))
            } catch {
                let title = entry.name.isEmpty ? entry.code : entry.name
                skipped.append("\(DisplayText.sanitized(title)): \(error)")
            }
        }
        return (cheats, skipped)
    }

    /// What an import says: "imported 3 cheats (2 on) from Game.cht; skipped 1: Lives: …".
    static func summary(imported: [Cheat], skipped: [String], fileName: String) -> String {
        let on = imported.filter(\.enabled).count
        var text = "imported \(imported.count) \(imported.count == 1 ? "cheat" : "cheats") (\(on) on) from \(fileName)"
        if let first = skipped.first { text += "; skipped \(skipped.count): \(first)" }
        return text
    }
}
