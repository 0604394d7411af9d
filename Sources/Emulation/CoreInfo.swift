import Foundation
import PhosphorKit

/// What Phosphor knows about one libretro core before loading it: its shared object and the
/// metadata of its `.info` file (from Debian's `libretro-core-info`, or beside the core).
public struct CoreInfo: Sendable, Equatable {
    /// The core's shared object, e.g. `/usr/lib/x86_64-linux-gnu/libretro/gambatte_libretro.so`.
    public var path: URL
    /// `gambatte` for `gambatte_libretro.so`: the name used for option files and preferences.
    public var name: String
    public var displayName: String
    public var systems: [GameSystem]
    /// Lower-case extensions without dots.
    public var extensions: [String]
    public var needsFullPath: Bool
    public var supportsNoGame: Bool
    public var displayVersion: String?
    /// False when the info file marks the core as needing OpenGL/Vulkan.
    public var softwareRendered: Bool

    public init(path: URL, name: String, displayName: String, systems: [GameSystem], extensions: [String],
                needsFullPath: Bool, supportsNoGame: Bool, displayVersion: String?, softwareRendered: Bool) {
        self.path = path
        self.name = name
        self.displayName = displayName
        self.systems = systems
        self.extensions = extensions
        self.needsFullPath = needsFullPath
        self.supportsNoGame = supportsNoGame
        self.displayVersion = displayVersion
        self.softwareRendered = softwareRendered
    }

    /// The core name for a shared object file name: `nestopia_libretro.so` → `nestopia`.
    public static func name(forLibrary fileName: String) -> String {
        var name = fileName
        if name.hasSuffix(".so") { name.removeLast(3) }
        if name.hasSuffix("_libretro") { name.removeLast("_libretro".count) }
        return name
    }

    /// Builds the description from an `.info` file's key/value pairs.
    public init(path: URL, info: [String: String]) {
        let name = CoreInfo.name(forLibrary: path.lastPathComponent)
        let databases = (info["database"] ?? "").split(separator: "|").map(String.init)
        var systems = GameSystem.allCases.filter { system in
            system.databaseNames.contains { databases.contains($0) }
        }
        if systems.isEmpty, let systemID = info["systemid"] {
            systems = CoreInfo.systems(forSystemID: systemID)
        }
        let required = (info["required_hw_api"] ?? "").lowercased()
        self.init(
            path: path, name: name,
            displayName: info["display_name"] ?? info["corename"] ?? name,
            systems: systems,
            extensions: (info["supported_extensions"] ?? "").lowercased().split(separator: "|").map(String.init),
            needsFullPath: info["needs_fullpath"] == "true",
            supportsNoGame: info["supports_no_game"] == "true",
            displayVersion: info["display_version"],
            softwareRendered: !(required.contains("opengl") || required.contains("vulkan")))
    }

    static func systems(forSystemID systemID: String) -> [GameSystem] {
        switch systemID {
        case "nes": [.nes]
        case "super_nes": [.snes]
        case "game_boy": [.gb, .gbc]
        case "game_boy_advance": [.gba]
        case "nds": [.nds]
        case "mega_drive": [.genesis]
        case "pc_engine": [.pce]
        case "nintendo_64": [.n64]
        default: []
        }
    }
}

/// Reads libretro `.info` files: `key = "value"` lines, `#` comments.
public enum CoreInfoFile {
    public static func parse(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            result[key] = value
        }
        return result
    }

    public static func load(_ url: URL) -> [String: String]? {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        return parse(text)
    }
}
