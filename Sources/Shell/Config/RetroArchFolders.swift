import Emulation
import Foundation
import PhosphorKit

/// RetroArch's save, state and system folders as its `retroarch.cfg` names them, for the
/// `"retroArchFolders": "share"` setting: Phosphor then keeps a game's battery save, clock and
/// states where RetroArch does, with its naming, so either program continues the other's game.
///
/// - `savefile_directory` / `savestate_directory`: unset or `default` means beside the game file
///   (RetroArch's rule); `~` is the home folder.
/// - `sort_savefiles_enable` / `sort_savestates_enable`: a subfolder named after the core
///   (its `library_name`, e.g. `Gambatte`).
/// - `system_directory`: the BIOS folder (unset or `default`: beside the game too).
/// Any thread (a value read once from the file).
struct RetroArchFolders: Equatable {
    var saves: URL?
    var states: URL?
    var system: URL?
    var sortSaves: Bool
    var sortStates: Bool

    /// RetroArch's configuration folder: `$XDG_CONFIG_HOME/retroarch`, else `~/.config/retroarch`.
    static func folder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("retroarch")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".config/retroarch")
    }

    /// Whether the browser asks once whether to share RetroArch's folders: RetroArch has a
    /// configuration folder, nothing was chosen yet, and Phosphor is not running in a layout of
    /// its own (`PHOSPHOR_HOME`, as tests do: that never reaches into the user's RetroArch).
    static func shouldAsk(config: PhosphorConfig, environment: [String: String]) -> Bool {
        guard config.retroArchFolders == nil, (environment["PHOSPHOR_HOME"] ?? "").isEmpty,
              environment["HOME"] != nil || environment["XDG_CONFIG_HOME"] != nil else { return false }
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder(environment: environment).path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// The folders from `retroarch.cfg` (RetroArch's defaults when the file is missing).
    static func load(environment: [String: String] = ProcessInfo.processInfo.environment) -> RetroArchFolders {
        let values = settings(in: folder(environment: environment))
        let directory = { (key: String) in Self.directory(values[key], environment: environment) }
        return RetroArchFolders(saves: directory("savefile_directory"), states: directory("savestate_directory"),
                                system: directory("system_directory"),
                                sortSaves: values["sort_savefiles_enable"] == "true",
                                sortStates: values["sort_savestates_enable"] == "true")
    }

    /// The settings of the `retroarch.cfg` in `folder` (none when it is missing).
    static func settings(in folder: URL) -> [String: String] {
        let file = folder.appendingPathComponent("retroarch.cfg")
        return (try? String(contentsOf: file, encoding: .utf8)).map(CoreInfoFile.parse) ?? [:]
    }

    /// A folder setting's folder: nil when unset or `default`; `~` is the home folder.
    static func directory(_ setting: String?, environment: [String: String]) -> URL? {
        guard var value = setting, !value.isEmpty, value != "default" else { return nil }
        if value == "~" || value.hasPrefix("~/") { value = (environment["HOME"] ?? NSHomeDirectory()) + value.dropFirst() }
        return URL(fileURLWithPath: value, isDirectory: true)
    }

    /// Where `game`'s battery save and clock go, for a core whose `library_name` is `coreName`.
    func saveFolder(for game: URL, coreName: String) -> URL {
        let base = saves ?? game.deletingLastPathComponent()
        return sortSaves ? base.appendingPathComponent(coreName) : base
    }

    func stateFolder(for game: URL, coreName: String) -> URL {
        let base = states ?? game.deletingLastPathComponent()
        return sortStates ? base.appendingPathComponent(coreName) : base
    }

    func systemFolder(for game: URL) -> URL { system ?? game.deletingLastPathComponent() }

    /// RetroArch's core option files for a core and game, the most general first: the legacy
    /// `retroarch-core-options.cfg`, `config/<core>/<core>.opt`, `config/<core>/<game>.opt`.
    func optionFiles(coreName: String, gameName: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        let root = Self.folder(environment: environment)
        let perCore = root.appendingPathComponent("config").appendingPathComponent(coreName)
        return [root.appendingPathComponent("retroarch-core-options.cfg"),
                perCore.appendingPathComponent("\(coreName).opt"),
                perCore.appendingPathComponent("\(gameName).opt")]
    }
}
