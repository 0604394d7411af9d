import Foundation

/// Where a user's files live. `PHOSPHOR_HOME` replaces the whole layout (tests use it so they
/// never touch a real home); otherwise XDG: `$XDG_CONFIG_HOME/phosphor` and `$XDG_DATA_HOME/phosphor`.
public struct PhosphorPaths: Sendable {
    public let config: URL
    public let data: URL

    public init(config: URL, data: URL) {
        self.config = config
        self.data = data
    }

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let home = environment["PHOSPHOR_HOME"], !home.isEmpty {
            let root = URL(fileURLWithPath: home, isDirectory: true)
            self.init(config: root.appendingPathComponent("config"), data: root.appendingPathComponent("data"))
            return
        }
        let userHome = environment["HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        let configRoot = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? userHome.appendingPathComponent(".config")
        let dataRoot = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? userHome.appendingPathComponent(".local/share")
        self.init(config: configRoot.appendingPathComponent("phosphor"),
                  data: dataRoot.appendingPathComponent("phosphor"))
    }

    /// config.json: library folders, per-system core preference, video/audio settings.
    public var configFile: URL { config.appendingPathComponent("config.json") }
    /// keymaps/<system>.json and keymaps/<system>/<game>.json.
    public var keyMaps: URL { config.appendingPathComponent("keymaps") }
    /// gamepads.json: per-pad button mappings, keyed by the device's name.
    public var gamepadMappings: URL { config.appendingPathComponent("gamepads.json") }
    /// core-options/<core>.json: persisted core option values.
    public var coreOptions: URL { config.appendingPathComponent("core-options") }
    /// Battery saves (`<game>.srm`).
    public var saves: URL { data.appendingPathComponent("saves") }
    /// Save states (`<game>.state<N>` plus preview and metadata).
    public var states: URL { data.appendingPathComponent("states") }
    public var screenshots: URL { data.appendingPathComponent("screenshots") }
    /// Cheat codes, one file per game: `cheats/<system>/<game>.json`.
    public var cheats: URL { data.appendingPathComponent("cheats") }
    /// The folder answered to RETRO_ENVIRONMENT_GET_SYSTEM_DIRECTORY (BIOS files).
    public var system: URL { data.appendingPathComponent("system") }
    /// User skins that override the built-in ones.
    public var skins: URL { data.appendingPathComponent("skins") }
    public var database: URL { data.appendingPathComponent("library.sqlite") }
    public var logFile: URL { data.appendingPathComponent("phosphor.log") }

    /// Creates every folder above (idempotent).
    public func createFolders() throws {
        for folder in [config, data, keyMaps, coreOptions, saves, states, screenshots, system, skins] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
    }
}
