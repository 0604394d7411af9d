import Emulation
import Foundation
import Library
import PhosphorKit

/// The `phosphor` command line: picks a run mode from the arguments and returns the exit code.
/// Errors are one line on stderr, `phosphor: <what went wrong>`.
public enum PhosphorCommand {
    /// What `phosphor --version` prints after the name (also in the man page's header).
    public static let version = "0.1.0"

    public static let usage = """
        usage: phosphor                      open the game browser
               phosphor ROM                  play a game in this terminal
               phosphor play [--continue] [--frames N] [--no-audio] [--color 24bit|256|16] [--video-stats]
                             [--video auto|kitty|sixel|blocks] [--no-link-pacing] [--core PATH] [--audio-device NAME] ROM
               phosphor run --headless --frames N [--input FILE] [--state-out FILE --state-at K]
                             [--state-in FILE] [--screenshot FILE.png] [--audio-wav FILE.wav]
                             [--cheat CODE]... [--cheat-file FILE.cht]... [--core PATH] ROM
               phosphor cores                list the libretro cores found, per system
               phosphor add DIR              add a folder to the game library
               phosphor import-retroarch     copy RetroArch's saves and states into Phosphor's folders once
               phosphor --version            print the version
        """

    public static func main(_ arguments: [String]) -> Int32 {
        let paths = PhosphorPaths()
        try? Log.shared.open(paths.logFile)
        do {
            guard let first = arguments.first else { return try BrowserCommand.run(paths: paths) }
            let rest = Array(arguments.dropFirst())
            switch first {
            case "run": return try runHeadless(rest, paths: paths)
            case "cores": return listCores(paths: paths)
            case "play": return try PlayCommand.run(rest, paths: paths)
            case "add": return try BrowserCommand.add(rest, paths: paths)
            case "import-retroarch": return try importRetroArch(paths: paths)
            case "help", "--help", "-h":
                print(usage)
                return 0
            case "--version", "-V":
                print("phosphor \(version)")
                return 0
            default:
                if first.hasPrefix("--") || FileManager.default.fileExists(atPath: first) {
                    return try PlayCommand.run(arguments, paths: paths, browserWithoutROM: true)
                }
                throw CommandLineArguments.UsageError(description: "unknown command '\(first)' (see phosphor --help)")
            }
        } catch let error as CommandLineArguments.UsageError {
            printError(error.description)
            return 2
        } catch {
            // The raw error (domains, C calls, SQL) is for the log only; at info level, so a
            // headless run's stderr echo of warnings and errors doesn't print it as a second line.
            Log.info("failed: \(error)")
            printError(ErrorText.line(error))
            return 1
        }
    }

    /// One line on stderr (a terminal, usually): a file name inside the message may carry escape
    /// sequences or bidi overrides, so control characters are shown as U+FFFD, never sent raw.
    static func printError(_ message: String) {
        let line = DisplayText.sanitized(message.trimmingCharacters(in: .whitespacesAndNewlines))
        FileHandle.standardError.write(Data("phosphor: \(line)\n".utf8))
    }

    static func runHeadless(_ arguments: [String], paths: PhosphorPaths) throws -> Int32 {
        let parsed = try CommandLineArguments(
            arguments,
            valueOptions: ["frames", "input", "state-out", "state-at", "state-in", "screenshot", "audio-wav", "core", "cheat",
                           "cheat-file"],
            flagOptions: ["headless"])
        guard parsed.flags.contains("headless") else {
            throw CommandLineArguments.UsageError(description: "run needs --headless (to play in the terminal: phosphor play ROM)")
        }
        guard parsed.positionals.count == 1 else {
            throw CommandLineArguments.UsageError(description: "run needs exactly one ROM")
        }
        guard let frames = try parsed.integer("frames") else {
            throw CommandLineArguments.UsageError(description: "run --headless needs --frames N")
        }
        if parsed.options["state-at"] != nil, parsed.options["state-out"] == nil {
            throw CommandLineArguments.UsageError(description: "--state-at needs --state-out FILE")
        }
        Log.shared.setEchoToStandardError(true)
        var input: InputScript?
        if let inputPath = parsed.options["input"] {
            let url = URL(fileURLWithPath: inputPath)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                throw RomCheck.Failure(description: "\(inputPath): cannot read input script")
            }
            input = try InputScript(parsing: text, file: inputPath)
        }
        let run = HeadlessRun(
            rom: URL(fileURLWithPath: parsed.positionals[0]),
            frames: UInt64(frames),
            input: input,
            stateOut: parsed.options["state-out"].map { URL(fileURLWithPath: $0) },
            stateAt: try parsed.integer("state-at").map(UInt64.init),
            stateIn: parsed.options["state-in"].map { URL(fileURLWithPath: $0) },
            screenshot: parsed.options["screenshot"].map { URL(fileURLWithPath: $0) },
            audioWAV: parsed.options["audio-wav"].map { URL(fileURLWithPath: $0) },
            explicitCore: parsed.options["core"].map { URL(fileURLWithPath: $0) },
            cheats: parsed.allValues["cheat"] ?? [],
            cheatFiles: (parsed.allValues["cheat-file"] ?? []).map { URL(fileURLWithPath: $0) },
            paths: paths)
        // Cores print on standard output (gambatte: "cgb: 1"): that goes to the log, and standard
        // output carries only the result line.
        let results = Log.shared.redirectStandardOutputOnly().map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        let summary = try run.run().summary
        fflush(nil)
        if let results {
            results.write(Data("\(summary)\n".utf8))
        } else {
            print(summary)
        }
        return 0
    }

    /// "BIOS: gba_bios.bin missing (optional)", "BIOS: all 2 present", nil when the core lists none.
    static func firmwareStatus(of core: CoreInfo, systemFolder: URL) -> String? {
        guard !core.firmware.isEmpty else { return nil }
        let missing = core.missingFirmware(in: systemFolder)
        guard !missing.isEmpty else { return "BIOS: all \(core.firmware.count) present" }
        let required = missing.filter { !$0.isOptional }.map(\.path)
        let optional = missing.filter(\.isOptional).map(\.path)
        var parts: [String] = []
        if !required.isEmpty { parts.append("REQUIRED missing: \(required.joined(separator: ", "))") }
        if !optional.isEmpty { parts.append("optional missing: \(optional.count <= 4 ? optional.joined(separator: ", ") : "\(optional.count) files")") }
        return "BIOS: " + parts.joined(separator: "; ") + " (in \(systemFolder.path))"
    }

    static func importRetroArch(paths: PhosphorPaths) throws -> Int32 {
        try paths.createFolders()
        let library = try GameLibrary(url: paths.database)
        let importer = RetroArchImport(folders: RetroArchFolders.load(), paths: paths, catalog: CoreCatalog.discover())
        let report = try importer.run(library: library)
        print("copied \(report.copied.count) \(report.copied.count == 1 ? "file" : "files") from RetroArch")
        for name in report.kept { print("kept yours: \(DisplayText.sanitized(name)) (RetroArch's copy left where it is)") }
        if !report.unknown.isEmpty {
            print("skipped \(report.unknown.count) (no game of that name in the library; add its folder first): "
                  + report.unknown.prefix(5).map(DisplayText.sanitized).joined(separator: ", "))
        }
        return 0
    }

    static func listCores(paths: PhosphorPaths) -> Int32 {
        let catalog = CoreCatalog.discover()
        if catalog.cores.isEmpty {
            print("No libretro cores found. Looked in:")
            for folder in CoreCatalog.coreFolders() { print("  \(folder.path)") }
            return 1
        }
        for system in GameSystem.allCases {
            let cores = catalog.cores(for: system)
            print("\(system.displayName):")
            if cores.isEmpty { print("  (none installed)") }
            for (index, core) in cores.enumerated() {
                let version = (try? LibretroCoreInfoReader.version(of: core.path)) ?? core.displayVersion ?? "?"
                let marker = index == 0 ? "*" : " "
                print("  \(marker) \(core.displayName)  \(version)  \(core.path.path)")
                if let firmware = firmwareStatus(of: core, systemFolder: paths.system) { print("      \(firmware)") }
            }
        }
        let unassigned = catalog.cores.filter { $0.systems.isEmpty }
        if !unassigned.isEmpty {
            print("Other cores (no known system):")
            for core in unassigned { print("    \(core.name)  \(core.path.path)") }
        }
        print("(* = used by default; choose another with --core PATH or in config.json)")
        return 0
    }
}
