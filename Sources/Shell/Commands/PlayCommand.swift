import Emulation
import Foundation
import PhosphorKit

/// `phosphor play [options] ROM` (or just `phosphor ROM`): a game straight in the terminal,
/// full-window. With `--frames N` it exits cleanly after N emulated frames; with `--continue` it
/// starts from the game's automatic state, as the browser's Continue row does (and, like it, from
/// the battery save when the last session did not end cleanly). `phosphor` with options but no
/// ROM (`phosphor --no-audio`) opens the browser with those options.
enum PlayCommand {
    /// What the arguments ask for, decided before the terminal is touched.
    enum Request {
        case browser(AppServices.Overrides)
        case play(GameLaunch, AppServices.Overrides)
    }

    /// Parses and checks the arguments: every mistake (a bad option, a missing ROM or core) is
    /// one line here, not a flash of the game screen. `browserWithoutROM`: no ROM means the
    /// browser (plain `phosphor --option`), else it is a usage error (`phosphor play`).
    static func request(_ arguments: [String], browserWithoutROM: Bool,
                        paths: PhosphorPaths = PhosphorPaths()) throws -> Request {
        let parsed = try CommandLineArguments(
            arguments, valueOptions: ["frames", "color", "video", "core", "audio-device"],
            flagOptions: ["no-audio", "continue", "video-stats", "no-link-pacing"])
        if let color = parsed.options["color"], !["24bit", "truecolor", "256", "16"].contains(color) {
            throw CommandLineArguments.UsageError(description: "--color takes 24bit, 256 or 16, not '\(color)'")
        }
        if let video = parsed.options["video"], VideoModeChoice(rawValue: video) == nil {
            throw CommandLineArguments.UsageError(description: "--video takes auto, kitty, sixel or blocks, not '\(video)'")
        }
        var overrides = AppServices.Overrides()
        overrides.videoMode = parsed.options["video"].flatMap(VideoModeChoice.init(rawValue:))
        overrides.colorMode = parsed.options["color"]
        overrides.noAudio = parsed.flags.contains("no-audio")
        overrides.videoStats = parsed.flags.contains("video-stats")
        overrides.noLinkPacing = parsed.flags.contains("no-link-pacing")
        overrides.audioDevice = parsed.options["audio-device"]
        overrides.frameLimit = try parsed.integer("frames").map(UInt64.init)
        let resume = parsed.flags.contains("continue")
        if parsed.positionals.isEmpty && browserWithoutROM {
            // The browser has its own Continue row; the option is about one game.
            if resume { throw CommandLineArguments.UsageError(description: "--continue needs a ROM (phosphor play --continue ROM)") }
            return .browser(overrides)
        }
        guard parsed.positionals.count == 1 else {
            throw CommandLineArguments.UsageError(description: "play needs exactly one ROM")
        }
        let file = URL(fileURLWithPath: parsed.positionals[0])
        // A game in an archive plays from its extracted copy, named after the archive.
        let rom: URL
        let system: GameSystem?
        var archive: ArchivedGame?
        if ArchivedGame.isArchive(file) {
            let opened = try ArchivedGame.open(file, paths: paths)
            (rom, system, archive) = (opened.rom, opened.system, opened.game)
        } else {
            (rom, system) = (file, try RomCheck.inspect(file))
        }
        let explicitCore = parsed.options["core"].map { URL(fileURLWithPath: $0) }
        if let explicitCore { try CoreSelection.checkExists(explicitCore, for: rom) }
        let launch = GameLaunch(rom: rom, system: system, title: file.deletingPathExtension().lastPathComponent,
                                gameID: nil, resume: resume, explicitCore: explicitCore, archive: archive)
        return .play(launch, overrides)
    }

    static func run(_ arguments: [String], paths: PhosphorPaths, browserWithoutROM: Bool = false) throws -> Int32 {
        switch try request(arguments, browserWithoutROM: browserWithoutROM, paths: paths) {
        case .browser(let overrides):
            return try BrowserCommand.run(paths: paths, overrides: overrides)
        case .play(let launch, let overrides):
            let services = AppServices(paths: paths)
            services.overrides = overrides
            return try runApp(services: services) { app in try app.startGame(launch) }
        }
    }

    /// Opens the terminal, runs the app, and reports a fatal error after the terminal is back.
    static func runApp(services: AppServices, first: (PhosphorApp) throws -> Screen) throws -> Int32 {
        let app = try PhosphorApp(services: services)
        let status = app.run(first)
        if let message = services.exitMessage { PhosphorCommand.printError(message) }
        return status
    }
}
