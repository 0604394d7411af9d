import Emulation
import Foundation
import PhosphorKit

/// How a ROM becomes a running core: which console it is for, which core plays it, the game's
/// key for its files, and the core thread. Play and headless runs both start games through
/// this, so they can't drift apart. UI thread (or the headless run's main thread).
struct GameSetup {
    let rom: URL
    /// The console the ROM was detected (or said) to be for; nil when only the core knows.
    let detectedSystem: GameSystem?
    let core: CoreInfo
    /// The stable key of the game's files (states, cheats, key maps), unique per ROM file
    /// (`GameKeyIndex`).
    let gameKey: String
    /// The battery save's file name (without `.srm`).
    let batterySaveName: String
    /// RetroArch's folders, when the config shares them (`"retroArchFolders": "share"`).
    let retroArch: RetroArchFolders?
    /// "2 optional BIOS files missing for …": one line for the play screen's status bar (the
    /// files are named in the log); nil when none is missing.
    let firmwareNotice: String?
    /// The file RetroArch's folders are relative to (the archive for a game in one).
    private let gameFile: URL

    /// Detects the console (unless given) and picks the core. Throws a one-line error for a ROM
    /// no console claims or no installed core plays.
    /// `archive`: the archive the ROM was extracted from (its only game is named after it).
    init(rom: URL, system: GameSystem?, explicitCore: URL?, config: PhosphorConfig, catalog: CoreCatalog,
         paths: PhosphorPaths, archive: ArchivedGame? = nil) throws {
        self.rom = rom
        let detected = try system ?? RomCheck.inspect(rom)
        core = try CoreSelection.core(for: rom, system: detected, explicitCore: explicitCore,
                                      preferences: config.corePreferences, catalog: catalog)
        detectedSystem = detected
        retroArch = config.sharesRetroArchFolders ? RetroArchFolders.load() : nil
        gameFile = archive?.archive ?? rom
        let systemFolder = retroArch?.systemFolder(for: archive?.archive ?? rom) ?? paths.system
        firmwareNotice = try Self.checkFirmware(of: core, systemFolder: systemFolder)
        let console = detected?.rawValue ?? core.systems.first?.rawValue ?? core.name
        let names: GameKeyIndex.Names
        if let archive, archive.isOnlyGame {
            names = GameKeyIndex.names(forArchive: archive.archive, extracted: rom,
                                       extractionFolder: ArchivedGame.extractionFolder(paths), console: console, data: paths.data)
            if let former = names.formerBatterySave {
                // CoreHost's save folder: the detected system, else the core's name.
                let saves = paths.saves.appendingPathComponent(detected?.rawValue ?? core.name)
                ArchivedGame.moveFormerSaves(named: former, to: names.batterySave, in: saves)
            }
        } else {
            names = GameKeyIndex.names(forROM: rom, console: console, data: paths.data)
        }
        gameKey = names.key
        batterySaveName = names.batterySave
    }

    /// The BIOS files the core's `.info` lists, checked in the system folder before the core
    /// loads: a missing required one is a one-line error naming the file and the folder (not a
    /// core error or a black screen later); missing optional ones are named in the log and
    /// counted in the one-line notice returned (nil when none is missing).
    static func checkFirmware(of core: CoreInfo, systemFolder: URL) throws -> String? {
        let missing = core.missingFirmware(in: systemFolder)
        let required = missing.filter { !$0.isOptional }
        if !required.isEmpty {
            // Debian's descriptions usually start with the file name: "gba_bios.bin (Game Boy Advance BIOS)".
            let names = required.map { $0.description.hasPrefix($0.path) ? $0.description : "\($0.path) (\($0.description))" }
            throw RomCheck.Failure(description: "\(core.displayName) needs \(names.joined(separator: ", ")) in \(systemFolder.path)")
        }
        let optional = missing.filter(\.isOptional)
        guard !optional.isEmpty else { return nil }
        Log.info("\(core.displayName): optional BIOS not in \(systemFolder.path): \(optional.map(\.path).joined(separator: ", "))")
        let files = optional.count == 1 ? "1 optional BIOS file" : "\(optional.count) optional BIOS files"
        return "\(files) missing for \(core.displayName) (see phosphor cores)"
    }

    /// The core's own name for RetroArch's per-core subfolders (`Gambatte`).
    private var coreLibraryName: String { core.libraryName ?? core.displayName }

    /// Where the game's states go: RetroArch's folder when shared, else Phosphor's per console.
    func stateFolder(paths: PhosphorPaths, system: GameSystem) -> URL {
        retroArch?.stateFolder(for: gameFile, coreName: coreLibraryName) ?? paths.states.appendingPathComponent(system.rawValue)
    }

    /// The console whose buttons, codes and files the game uses: detected, else the core's first.
    var system: GameSystem? { detectedSystem ?? core.systems.first }

    /// A core thread for this game (not started). `makeCore` replaces the libretro host (a
    /// test's `ScriptedCore`); without it the core thread loads the real core.
    func makeThread(paths: PhosphorPaths, options: CoreThread.Options, input: InputState = InputState(),
                    audioRing: SampleRing? = nil, makeCore: CoreMaker? = nil) -> CoreThread {
        if let makeCore {
            return CoreThread(options: options, input: input, audioRing: audioRing, makeCore: makeCore)
        }
        var configuration = CoreHost.Configuration(core: core, rom: rom, paths: paths, system: detectedSystem,
                                                   gameName: batterySaveName)
        if let retroArch {
            configuration.batterySaveFolder = retroArch.saveFolder(for: gameFile, coreName: coreLibraryName)
            configuration.systemFolder = retroArch.systemFolder(for: gameFile)
            configuration.retroArchOptionFiles = retroArch.optionFiles(coreName: coreLibraryName,
                                                                      gameName: gameFile.deletingPathExtension().lastPathComponent)
        }
        return CoreThread(configuration: configuration, options: options, input: input, audioRing: audioRing)
    }
}

/// Builds the core on the core thread from its connections (what `CoreThread` takes).
typealias CoreMaker = @Sendable (CoreConnections) throws -> any EmulatorCore
