import PhosphorKit

/// What Phosphor knows about one libretro core beyond its `.info` file, measured on the Debian
/// builds: the one table of per-core facts (`CoreProfile.known`). The catalog ranks cores with it,
/// the host takes its default options, the cheat menu its cheat support.
///
/// Get one from the core: `coreInfo.profile` (or `CoreProfile.for(core:)`); a core Phosphor has
/// not measured gets `CoreProfile.unmeasured(name:)`. Any thread (value type).
public struct CoreProfile: Sendable, Equatable {
    /// Measured behaviour that changes what Phosphor does, or that the user should be told.
    public enum Quirk: Sendable, Hashable, CaseIterable {
        /// gambatte (2016): `retro_cheat_reset` forgets the Game Genie patches without undoing
        /// them, and each `retro_cheat_set` replaces the last call's codes. So it never gets
        /// `retro_cheat_reset` and takes its cheats merged into two calls
        /// (`CoreCheatSupport.Calls.gambatteMerged`).
        case cheatResetForgetsPatches
        /// Beetle PCE Fast: `retro_cheat_set` is empty. The menu and `--cheat` say so instead of
        /// offering a feature that silently does nothing.
        case cheatSetDoesNothing
        /// nestopia applies a code whatever `enabled` says: Phosphor only ever hands over enabled
        /// codes and switches one off by resetting the list.
        case appliesDisabledCheats
        /// `retro_unserialize` accepts a state from another game or a truncated file (nestopia,
        /// desmume, bsnes, mGBA, gambatte for some inputs): the state store must know which game a
        /// state belongs to before it hands it over.
        case acceptsForeignStates
        /// bsnes-mercury segfaults in the next `retro_run` after a state from another SNES game.
        case crashesAfterForeignState
        /// desmume's `.info` claims OpenGL though it renders in software: the catalog does not
        /// filter on `CoreInfo.softwareRendered` (a core that needs GL asks with SET_HW_RENDER and
        /// gets an offscreen context).
        case infoClaimsOpenGL
        /// nestopia ignores input until `retro_set_controller_port_device` sets a joypad (the host
        /// sets one on every port for every core).
        case needsControllerDevice
    }

    /// `CoreInfo.name`: `nestopia` for `nestopia_libretro.so`.
    public var name: String
    /// The name shown when the core has no `.info` file (Debian's `corename`).
    public var displayName: String?
    /// Where the core stands among the cores for a system, 0 first: Debian's well-known cores by
    /// how well they run in a terminal (a user's preference still wins, `CoreCatalog.core(for:preferring:)`).
    public var ranks: [GameSystem: Int]
    /// Option values Phosphor needs to work in a terminal (desmume's touch screen), under the
    /// saved ones' overrides.
    public var defaultOptions: [String: String]
    /// Option values a core starts with until the user saves others (an OpenGL core's internal
    /// resolution: the smallest that fills a terminal's picture, `CoreOptions.init`).
    public var startingOptions: [String: String]
    /// The longest cheat code handed to the core (its fixed buffer minus the terminating NUL).
    public var maximumCheatCodeBytes: Int
    /// Something the user should know about this core's cheats (the cheats menu shows it); nil
    /// for an unmeasured core, which gets a "not checked" note instead.
    public var cheatNote: String?
    /// Whether Phosphor measured how this core takes cheats.
    public var cheatsMeasured: Bool
    public var quirks: Set<Quirk>

    public init(name: String, displayName: String? = nil, ranks: [GameSystem: Int] = [:],
                defaultOptions: [String: String] = [:], startingOptions: [String: String] = [:],
                maximumCheatCodeBytes: Int = 255, cheatNote: String? = nil,
                cheatsMeasured: Bool = false, quirks: Set<Quirk> = []) {
        self.name = name
        self.displayName = displayName
        self.ranks = ranks
        self.defaultOptions = defaultOptions
        self.startingOptions = startingOptions
        self.maximumCheatCodeBytes = maximumCheatCodeBytes
        self.cheatNote = cheatNote
        self.cheatsMeasured = cheatsMeasured
        self.quirks = quirks
    }

    /// The profile of `core`.
    public static func `for`(core: CoreInfo) -> CoreProfile { named(core.name) }

    /// The profile of the core called `name` (`CoreInfo.name`).
    public static func named(_ name: String) -> CoreProfile {
        known.first { $0.name == name } ?? unmeasured(name: name)
    }

    /// A core Phosphor knows nothing about: the libretro cheat convention (one call per code) with
    /// the shortest buffer a measured core has, and a note saying it was not checked.
    public static func unmeasured(name: String) -> CoreProfile { CoreProfile(name: name) }

    /// The rank among the cores for `system` (lower first); unranked cores come last.
    public func rank(for system: GameSystem) -> Int { ranks[system] ?? 100 }

    /// How the core takes cheats, worded with the name the user sees.
    public func cheatSupport(displayName: String) -> CoreCheatSupport {
        if quirks.contains(.cheatSetDoesNothing) {
            return CoreCheatSupport(unsupportedReason: "\(displayName) ignores cheat codes (its retro_cheat_set does nothing)",
                                    calls: .onePerCheat, maximumCodeBytes: 0)
        }
        return CoreCheatSupport(
            calls: quirks.contains(.cheatResetForgetsPatches) ? .gambatteMerged : .onePerCheat,
            maximumCodeBytes: maximumCheatCodeBytes,
            note: cheatsMeasured ? cheatNote : "Phosphor has not checked whether \(displayName) applies cheats")
    }
}

extension CoreInfo {
    /// This core's entry in the table of per-core facts.
    public var profile: CoreProfile { CoreProfile.for(core: self) }

    /// How this core takes cheats.
    public var cheatSupport: CoreCheatSupport { profile.cheatSupport(displayName: displayName) }
}
