import Foundation

/// Everything that can go wrong between finding a core and running a game. Each case reads as
/// one line for the user.
public enum EmulationError: Error, CustomStringConvertible, Equatable {
    case coreLoadFailed(core: String, reason: String)
    /// The core asked for hardware rendering (SET_HW_RENDER) Phosphor cannot give it here.
    case hardwareRenderingUnavailable(core: String, needs: String, reason: String)
    case noCore(system: String)
    case unknownSystem(file: String)
    /// `--core` named a file that is not there.
    case coreNotFound(core: String, file: String)
    /// Neither the ROM nor the core given with `--core` says which console the game is for.
    case unknownSystemForCore(file: String, core: String)
    case romUnreadable(file: String, reason: String)
    case gameRejected(core: String, file: String)
    case stateRejected(reason: String)
    case stateUnsupported(core: String)
    /// A code the core must not be handed (too long for its buffer, a NUL byte).
    case cheatRejected(function: String, reason: String)

    public var description: String {
        switch self {
        case let .coreLoadFailed(core, reason): "cannot load core \(core): \(reason)"
        case let .hardwareRenderingUnavailable(core, needs, reason): "\(core) needs \(needs): \(reason)"
        case let .noCore(system):
            "no installed libretro core plays \(system): install one, or give the path of a core's .so file with --core"
        case let .unknownSystem(file):
            "\(file): cannot tell which console this ROM is for; give the path of its core's .so file with --core"
        case let .coreNotFound(core, file):
            "cannot play \(file): the core \(core) does not exist; give --core the path of an installed core (phosphor cores lists them)"
        case let .unknownSystemForCore(file, core):
            "\(file): cannot tell which console this ROM is for, and \(core) does not say; rename it with its console's extension (.nes, .gba, ...)"
        case let .romUnreadable(file, reason): "\(file): \(reason)"
        case let .gameRejected(core, file): "\(core) refused to load \(file) (corrupt or not a ROM for this core)"
        case let .stateRejected(reason): "save state refused: \(reason)"
        case let .stateUnsupported(core): "\(core) does not support save states"
        case let .cheatRejected(function, reason): "cheat not applied (\(function)): \(reason)"
        }
    }
}
