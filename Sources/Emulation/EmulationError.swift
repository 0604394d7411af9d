import Foundation

/// Everything that can go wrong between finding a core and running a game. Each case reads as
/// one line for the user.
public enum EmulationError: Error, CustomStringConvertible, Equatable {
    case coreLoadFailed(core: String, reason: String)
    case coreNeedsHardwareRendering(core: String)
    case noCore(system: String)
    case unknownSystem(file: String)
    case romUnreadable(file: String, reason: String)
    case gameRejected(core: String, file: String)
    case stateRejected(reason: String)
    case stateUnsupported(core: String)
    /// A code the core must not be handed (too long for its buffer, a NUL byte).
    case cheatRejected(function: String, reason: String)

    public var description: String {
        switch self {
        case let .coreLoadFailed(core, reason): "cannot load core \(core): \(reason)"
        case let .coreNeedsHardwareRendering(core):
            "\(core) needs OpenGL/Vulkan rendering; Phosphor draws in a terminal and runs software-rendered cores only"
        case let .noCore(system): "no installed libretro core plays \(system) (install one, or pass --core PATH)"
        case let .unknownSystem(file): "\(file): cannot tell which console this ROM is for (pass --core PATH)"
        case let .romUnreadable(file, reason): "\(file): \(reason)"
        case let .gameRejected(core, file): "\(core) refused to load \(file) (corrupt or not a ROM for this core)"
        case let .stateRejected(reason): "save state refused: \(reason)"
        case let .stateUnsupported(core): "\(core) does not support save states"
        case let .cheatRejected(function, reason): "cheat not applied (\(function)): \(reason)"
        }
    }
}
