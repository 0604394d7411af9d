import Emulation
import PhosphorKit

/// Rewind, run-ahead and slow motion as the user sets them (`config.json`'s `rewind`,
/// `runAhead` and `slowMotion`). Any thread (a value).
public struct TimelineSettings: Sendable, Equatable {
    public static let bufferMegabyteChoices = [16, 32, 64, 128, 256]
    public static let bufferMegabyteRange = 1...4096

    public var rewind = true
    /// Frames between two rewind states (1 = every frame).
    public var rewindGranularity = 1
    public var rewindBufferMegabytes = RewindSettings.defaultBudgetBytes >> 20
    public var slowMotion: SlowMotionSpeed = .half
    /// Run-ahead per system, and per game (by game key), which wins over its system's.
    public var runAheadPerSystem: [GameSystem: RunAheadChoice] = [:]
    public var runAheadPerGame: [String: RunAheadChoice] = [:]

    public init() {}

    /// What the core thread takes.
    public var rewindSettings: RewindSettings {
        RewindSettings(enabled: rewind, granularity: rewindGranularity, budgetBytes: rewindBufferMegabytes << 20)
    }

    /// The run-ahead to use for a game: its own choice, else its system's, else off.
    public func runAhead(system: GameSystem, gameKey: String) -> RunAheadChoice {
        runAheadPerGame[gameKey] ?? runAheadPerSystem[system] ?? .off
    }
}

/// Slow motion's speed while its key is held.
public enum SlowMotionSpeed: String, CaseIterable, Sendable, Codable {
    case half = "1/2"
    case quarter = "1/4"

    public var fraction: Double { self == .half ? 0.5 : 0.25 }
}

/// A run-ahead setting as the config file and the menu name it.
public enum RunAheadChoice: String, CaseIterable, Sendable, Codable {
    case off
    case ahead1 = "1", ahead2 = "2", ahead3 = "3", ahead4 = "4"
    case preemptive1 = "preemptive-1", preemptive2 = "preemptive-2", preemptive3 = "preemptive-3",
         preemptive4 = "preemptive-4"

    public var mode: RunAheadMode {
        switch self {
        case .off: .off
        case .ahead1: .runAhead(frames: 1)
        case .ahead2: .runAhead(frames: 2)
        case .ahead3: .runAhead(frames: 3)
        case .ahead4: .runAhead(frames: 4)
        case .preemptive1: .preemptive(frames: 1)
        case .preemptive2: .preemptive(frames: 2)
        case .preemptive3: .preemptive(frames: 3)
        case .preemptive4: .preemptive(frames: 4)
        }
    }

    /// "off", "1 frame", "3 frames", "preemptive 2".
    public var title: String {
        switch mode {
        case .off: "off"
        case .runAhead(let frames): frames == 1 ? "1 frame" : "\(frames) frames"
        case .preemptive(let frames): "preemptive \(frames)"
        }
    }
}
