import Emulation
import Foundation
import Input
import PhosphorKit
import Terminal

/// What every screen may use: paths, configuration, cores, skins. UI thread only.
final class AppServices {
    let paths: PhosphorPaths
    var configStore: ConfigStore
    let catalog: CoreCatalog
    let skins: SkinLoader
    /// Options from the command line that override the configuration for this run.
    var overrides = Overrides()
    /// Printed after the terminal is restored (a fatal error in the interactive program).
    var exitMessage: String?
    /// What the terminal said about pixel graphics at start (set once the negotiation is over).
    var graphics = GraphicsCapabilities()
    /// Inside tmux: where the pane is in the outer terminal (kitty images are placed there).
    var tmuxPane: TmuxPane?
    /// The environment screens read (HOME for RetroArch's folder); tests set their own.
    var environment = ProcessInfo.processInfo.environment

    struct Overrides {
        var colorMode: String?
        /// `--video`: half blocks or a pixel protocol for this run.
        var videoMode: VideoModeChoice?
        var noAudio = false
        var audioDevice: String?
        var frameLimit: UInt64?
        /// `--video-stats`: the status bar always shows bytes/s, frames shown/s and frames skipped.
        var videoStats = false
        /// `--no-link-pacing`: write every frame however slow the link (to compare, in `make bench`).
        var noLinkPacing = false
        /// Makes every game's core instead of the libretro host (in-process tests: a `ScriptedCore`).
        var makeCore: CoreMaker?
        /// Opens the key-release side channel for a game instead of XInput2/evdev (tests: a
        /// `ScriptedKeyReleaseSource`); nil: what the plan says.
        var openKeyReleaseSource: ((KeyReleaseSourcePlan) -> KeyReleaseSourceOpening)?
        /// Pads a test plays, attached to each game's `GamepadManager` after the real ones it finds.
        var gamepads: [ScriptedGamepad] = []
    }

    /// - Parameter catalog: the installed cores (tests give their own; nil: discover them).
    init(paths: PhosphorPaths, catalog: CoreCatalog? = nil) {
        self.paths = paths
        try? paths.createFolders()
        configStore = ConfigStore.load(from: paths.configFile)
        loadedConfig = configStore.config
        if let error = configStore.loadError { Log.error("\(error)") }
        for warning in configStore.warnings { Log.warning("\(warning)") }
        self.catalog = catalog ?? CoreCatalog.discover()
        skins = SkinLoader(paths: paths)
    }

    /// Whether the broken-config line was shown already (the first screen shows it, once).
    private var configNoticeShown = false

    /// The one line about a `config.json` that could not be used (naming the file and line), the
    /// first time it is asked for; nil after that or when the file was fine. A broken file was
    /// only logged before, so the user never learnt why their settings were ignored.
    func takeConfigNotice() -> String? {
        guard !configNoticeShown, let error = configStore.loadError else { return nil }
        configNoticeShown = true
        return "\(error); using default settings"
    }

    var config: PhosphorConfig { configStore.config }
    /// The configuration as read: an unchanged one is not written back (the user's file, with
    /// keys this version doesn't know, stays exactly as it is).
    private let loadedConfig: PhosphorConfig

    /// Saves the configuration unless it failed to load (the user's file is never overwritten then).
    func saveConfig() -> String? {
        guard configStore.canSave else {
            return "settings not saved: \(configStore.loadError.map { "\($0)" } ?? "the config file has errors")"
        }
        guard configStore.config != loadedConfig || !FileManager.default.fileExists(atPath: configStore.file.path) else {
            return nil
        }
        do {
            try configStore.save()
            return nil
        } catch {
            return "settings not saved: \(error)"
        }
    }
}
