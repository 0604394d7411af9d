import Foundation
import PhosphorKit

/// Something wrong inside a key-map file, with the line it is on.
public struct KeyMapFileError: Error, Equatable, Sendable {
    public var line: Int
    public var message: String
}

/// Reading and writing the readable JSON form of a key map:
///
/// ```json
/// {
///   "system": "snes",
///   "player1": { "a": ["x"], "select": ["rshift", "backspace"] },
///   "actions": { "pause-menu": ["esc"] }
/// }
/// ```
///
/// A file may list only some bindings: the ones it names replace the layer below (defaults, then
/// the system file, then the per-game file); an empty list unbinds. A key is a string or a list.
extension KeyMap {
    /// Applies the bindings in `text` on top of `self`. Nothing changes when it throws.
    public mutating func apply(fileText text: String) throws(KeyMapFileError) {
        let members = try KeyMapJSON.parseObject(text)
        var updated = self
        try KeyMap.checkUnique(members)
        for member in members {
            switch member.key {
            case "comment":
                continue
            case "system":
                guard case .string(let name) = member.value.value, name == system.rawValue else {
                    throw KeyMapFileError(line: member.line,
                                          message: "\"system\" must be \"\(system.rawValue)\" in this file")
                }
            case "actions":
                for (entry, keys) in try KeyMap.bindings(member) {
                    guard let action = InputAction(rawValue: entry.key) else {
                        throw KeyMapFileError(line: entry.line, message: "unknown action \"\(entry.key)\" (known: "
                            + InputAction.allCases.map(\.rawValue).joined(separator: ", ") + ")")
                    }
                    updated.actions[action] = keys
                }
            default:
                guard member.key.hasPrefix("player"), let number = Int(member.key.dropFirst(6)),
                      (1...KeyMap.maximumPlayers).contains(number) else {
                    throw KeyMapFileError(line: member.line, message: "unknown entry \"\(member.key)\" (known: system, "
                        + (1...KeyMap.maximumPlayers).map { "player\($0)" }.joined(separator: ", ") + ", actions)")
                }
                for (entry, keys) in try KeyMap.bindings(member) {
                    if let direction = StickDirection(rawValue: entry.key) {
                        updated.setKeys(keys, for: .stick(port: number - 1, direction))
                        continue
                    }
                    guard let button = JoypadButton(name: entry.key), system.buttons.contains(button) else {
                        throw KeyMapFileError(line: entry.line, message: "\(member.key): the \(system.displayName) has no "
                            + "\"\(entry.key)\" button (it has: " + system.buttons.map(\.name).joined(separator: ", ") + ")")
                    }
                    updated.setKeys(keys, for: .button(port: number - 1, button))
                }
            }
        }
        self = updated
    }

    private static func checkUnique(_ members: [PositionedJSON.Member]) throws(KeyMapFileError) {
        var seen: Set<String> = []
        for member in members where !seen.insert(member.key).inserted {
            throw KeyMapFileError(line: member.line, message: "\"\(member.key)\" appears twice")
        }
    }

    /// The `name: keys` pairs of a section object, with the keys parsed.
    private static func bindings(_ section: PositionedJSON.Member) throws(KeyMapFileError) -> [(PositionedJSON.Member, [Key])] {
        guard case .object(let entries) = section.value.value else {
            throw KeyMapFileError(line: section.line, message: "\"\(section.key)\" must be an object { ... }")
        }
        try checkUnique(entries)
        var result: [(PositionedJSON.Member, [Key])] = []
        for entry in entries {
            let nodes: [PositionedJSON]
            switch entry.value.value {
            case .string: nodes = [entry.value]
            case .array(let elements): nodes = elements
            default:
                throw KeyMapFileError(line: entry.line,
                                      message: "\(section.key).\(entry.key): expected a key name or a list of key names")
            }
            var keys: [Key] = []
            for node in nodes {
                guard case .string(let name) = node.value else {
                    throw KeyMapFileError(line: node.line, message: "\(section.key).\(entry.key): key names are strings")
                }
                guard let key = Key(name: name) else {
                    throw KeyMapFileError(line: node.line, message: "\(section.key).\(entry.key): unknown key \"\(name)\" "
                        + "(use a character like \"z\", or up, down, left, right, enter, space, tab, backspace, esc, "
                        + "f1...f12, rshift, lshift, home, end, pageup, pagedown, insert, delete, kp0...kp9)")
                }
                if !keys.contains(key) { keys.append(key) }
            }
            result.append((entry, keys))
        }
        return result
    }

    /// The whole map as readable JSON (stable order: the system's buttons, then actions).
    public var fileText: String {
        func list(_ keys: [Key]) -> String {
            "[" + keys.map { jsonQuoted($0.name) }.joined(separator: ", ") + "]"
        }
        var lines = ["{", "  \"system\": \(jsonQuoted(system.rawValue)),"]
        for (port, buttons) in players.enumerated() {
            lines.append("  \"player\(port + 1)\": {")
            var entries = system.buttons.map { "    \(jsonQuoted($0.name)): \(list(buttons[$0] ?? []))" }
            let directions = port < sticks.count ? sticks[port] : [:]
            if system.hasAnalogStick || !directions.isEmpty {
                entries += StickDirection.allCases.map { "    \(jsonQuoted($0.rawValue)): \(list(directions[$0] ?? []))" }
            }
            lines.append(entries.joined(separator: ",\n"))
            lines.append("  },")
        }
        lines.append("  \"actions\": {")
        lines.append(InputAction.allCases.map { "    \(jsonQuoted($0.rawValue)): \(list(actions[$0] ?? []))" }
            .joined(separator: ",\n"))
        lines.append("  }")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// `text` as a JSON string literal.
func jsonQuoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\t": result += "\\t"
        case "\r": result += "\\r"
        case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}
