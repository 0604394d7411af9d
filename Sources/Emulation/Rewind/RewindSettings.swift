/// How rewind keeps its states: every `granularity` frames, within `budgetBytes`.
public struct RewindSettings: Sendable, Equatable {
    public static let defaultBudgetBytes = 64 << 20
    public static let granularities = [1, 2, 3, 4, 6, 8]

    /// How the deltas are compressed: Zstandard level 1 (`make bench` measured it 5–13 times
    /// smaller than LZ4 on the test cartridges for about the same core-thread time), or LZ4.
    public enum Compression: Sendable, Equatable {
        case lz4
        case zstd(level: Int32)

        func makeCompressor() -> any StateCompressor {
            switch self {
            case .lz4: LZ4Compressor()
            case .zstd(let level): ZstdCompressor(level: level)
            }
        }
    }

    public var enabled: Bool
    /// Frames between two states (1: every frame, so a rewind runs back at normal speed).
    public var granularity: Int
    public var budgetBytes: Int
    public var compression: Compression

    public init(enabled: Bool = true, granularity: Int = 1, budgetBytes: Int = RewindSettings.defaultBudgetBytes,
                compression: Compression = .zstd(level: 1)) {
        self.enabled = enabled
        self.granularity = max(granularity, 1)
        self.budgetBytes = max(budgetBytes, 0)
        self.compression = compression
    }

    public static let off = RewindSettings(enabled: false)
}

/// Hiding a game's own input lag (RetroArch's run-ahead and preemptive frames).
public enum RunAheadMode: Sendable, Equatable, CustomStringConvertible {
    public static let frameRange = 1...4

    case off
    /// Every frame: run the real frame, save, run `frames` more, show the last, roll back.
    case runAhead(frames: Int)
    /// Run one frame a frame; when the input changes, roll back `frames` frames and replay them
    /// with the new input before showing the next one.
    case preemptive(frames: Int)

    /// Frames of lag hidden (0 when off).
    public var frames: Int {
        switch self {
        case .off: 0
        case .runAhead(let frames), .preemptive(let frames): frames
        }
    }

    /// "off", "run-ahead 2", "preemptive 1": the pause menu's and the bench's name for it.
    public var description: String {
        switch self {
        case .off: "off"
        case .runAhead(let frames): "run-ahead \(frames)"
        case .preemptive(let frames): "preemptive \(frames)"
        }
    }

    /// The same mode with its frame count kept in 1...4.
    public var clamped: RunAheadMode {
        switch self {
        case .off: .off
        case .runAhead(let frames): .runAhead(frames: min(max(frames, 1), 4))
        case .preemptive(let frames): .preemptive(frames: min(max(frames, 1), 4))
        }
    }
}
