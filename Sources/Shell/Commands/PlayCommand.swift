import Foundation
import PhosphorKit

/// `phosphor play [options] ROM` (or just `phosphor ROM`): a game straight in the terminal,
/// full-window. With `--frames N` it exits cleanly after N emulated frames.
enum PlayCommand {
    static func run(_ arguments: [String], paths: PhosphorPaths) throws -> Int32 {
        let parsed = try CommandLineArguments(
            arguments, valueOptions: ["frames", "color", "core", "audio-device"], flagOptions: ["no-audio"])
        guard parsed.positionals.count == 1 else {
            throw CommandLineArguments.UsageError(description: "play needs exactly one ROM")
        }
        if let color = parsed.options["color"], !["24bit", "truecolor", "256", "16"].contains(color) {
            throw CommandLineArguments.UsageError(description: "--color takes 24bit, 256 or 16, not '\(color)'")
        }
        let rom = URL(fileURLWithPath: parsed.positionals[0])
        let system = try RomCheck.inspect(rom)  // a clear error before the screen is touched
        let services = AppServices(paths: paths)
        services.overrides.colorMode = parsed.options["color"]
        services.overrides.noAudio = parsed.flags.contains("no-audio")
        services.overrides.audioDevice = parsed.options["audio-device"]
        services.overrides.frameLimit = try parsed.integer("frames").map(UInt64.init)
        let launch = GameLaunch(rom: rom, system: system, title: rom.deletingPathExtension().lastPathComponent,
                                gameID: nil, explicitCore: parsed.options["core"].map { URL(fileURLWithPath: $0) })
        return try runApp(services: services) { app in try app.startGame(launch) }
    }

    /// Opens the terminal, runs the app, and reports a fatal error after the terminal is back.
    static func runApp(services: AppServices, first: (PhosphorApp) throws -> Screen) throws -> Int32 {
        let app = try PhosphorApp(services: services)
        let status = app.run(first)
        if let message = services.exitMessage { PhosphorCommand.printError(message) }
        return status
    }
}
