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
    /// The name the core gives itself (`corename` in its `.info`, RetroArch's `library_name`):
    /// RetroArch's per-core save and state subfolders are named after it.
    public var libraryName: String?
    /// The BIOS and firmware files the `.info` file lists (`firmwareN_path`, `_desc`, `_opt`).
    public var firmware: [Firmware] = []

    /// One file a core reads from the system folder.
    public struct Firmware: Sendable, Equatable {
        /// Relative to the system folder (may hold a subfolder: `np2kai/bios.rom`).
        public var path: String
        public var description: String
        /// `firmwareN_opt = "true"`: the core runs without it (some games may not).
        public var isOptional: Bool

        public init(path: String, description: String, isOptional: Bool) {
            self.path = path
            self.description = description
            self.isOptional = isOptional
        }
    }

    /// The listed firmware files that are not in `systemFolder`.
    public func missingFirmware(in systemFolder: URL) -> [Firmware] {
        firmware.filter { !FileManager.default.fileExists(atPath: systemFolder.appendingPathComponent($0.path).path) }
    }

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
        firmware = CoreInfo.firmware(from: info)
        libraryName = info["corename"]
    }

    /// `firmware_count` entries of an info file; entries without a path are left out.
    static func firmware(from info: [String: String]) -> [Firmware] {
        let count = min(Int(info["firmware_count"] ?? "") ?? 0, 256)
        return (0..<max(count, 0)).compactMap { index in
            guard let path = info["firmware\(index)_path"], !path.isEmpty else { return nil }
            return Firmware(path: path, description: info["firmware\(index)_desc"] ?? path,
                            isOptional: info["firmware\(index)_opt"]?.lowercased() == "true")
        }
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

/// Reads libretro `.info` files and the others in RetroArch's `key = "value"` syntax (`#` comment
/// lines): `retroarch.cfg`, `.cht` cheat files and `.opt` core option files.
public enum CoreInfoFile {
    /// Works on the UTF-8 bytes and trims only spaces and tabs: Foundation's
    /// `trimmingCharacters` went through NSString per line, and reading the catalog's `.info`
    /// files with it cost 3.5 ms of every start (perf).
    public static func parse(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var text = text
        text.withUTF8 { bytes in
            var lineStart = 0
            while lineStart < bytes.count {
                var lineEnd = lineStart
                while lineEnd < bytes.count, bytes[lineEnd] != 0x0A, bytes[lineEnd] != 0x0D { lineEnd += 1 }
                if let (key, value) = keyAndValue(bytes, lineStart, lineEnd) { result[key] = value }
                lineStart = lineEnd + 1
            }
        }
        return result
    }

    /// `key = value` or `key = "value"` from one line (nil for a comment or a line without `=`).
    private static func keyAndValue(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (String, String)? {
        let (first, last) = trimmed(bytes, start, end)
        guard first < last, bytes[first] != UInt8(ascii: "#"),
              let equals = (first..<last).first(where: { bytes[$0] == UInt8(ascii: "=") }) else { return nil }
        let (keyStart, keyEnd) = trimmed(bytes, first, equals)
        var (valueStart, valueEnd) = trimmed(bytes, equals + 1, last)
        if valueEnd - valueStart >= 2, bytes[valueStart] == UInt8(ascii: "\""), bytes[valueEnd - 1] == UInt8(ascii: "\"") {
            valueStart += 1
            valueEnd -= 1
        }
        return (text(bytes, keyStart, keyEnd), text(bytes, valueStart, valueEnd))
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (Int, Int) {
        var first = start
        var last = end
        while first < last, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
        while last > first, bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09 { last -= 1 }
        return (first, last)
    }

    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    public static func load(_ url: URL) -> [String: String]? {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        return parse(text)
    }
}
