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
    /// The stable key of the game's files (states, cheats, key maps).
    let gameKey: String

    /// Detects the console (unless given) and picks the core. Throws a one-line error for a ROM
    /// no console claims or no installed core plays.
    init(rom: URL, system: GameSystem?, explicitCore: URL?, config: PhosphorConfig, catalog: CoreCatalog) throws {
        self.rom = rom
        let detected = try system ?? RomCheck.inspect(rom)
        core = try CoreSelection.core(for: rom, system: detected, explicitCore: explicitCore,
                                      preferences: config.corePreferences, catalog: catalog)
        detectedSystem = detected
        gameKey = GameIdentity.key(forROM: rom)
    }

    /// The console whose buttons, codes and files the game uses: detected, else the core's first.
    var system: GameSystem? { detectedSystem ?? core.systems.first }

    /// How this core takes cheat codes (measured per core).
    var cheatSupport: CoreCheatSupport { CoreCheatSupport.forCore(named: core.name, displayName: core.displayName) }

    /// A core thread for this game (not started).
    func makeThread(paths: PhosphorPaths, audioRing: SampleRing? = nil) -> CoreThread {
        CoreThread(configuration: CoreHost.Configuration(core: core, rom: rom, paths: paths, system: detectedSystem),
                   audioRing: audioRing)
    }
}
