/// When rewind and run-ahead ask the core for its state size.
///
/// Rewind keeps a state every frame (run-ahead takes one too), and asking the size every time
/// doubled what mGBA's states cost: its `retro_serialize_size` writes a whole state to measure
/// it (0.65 ms for a GBA game, as long as the state itself; gambatte 1 µs). So the size is asked
/// before the first two states (nestopia's is 30 bytes longer before the first frame than after
/// it) and then once every `interval` states, and the states in between are taken with the size
/// last given. A core whose state shrank meanwhile may have left their last bytes stale: when an
/// answer differs from the size in use, the states taken after the last answer go (`noteAnswer`
/// says from which frame), and this core is asked before every state from then on. A core whose
/// state grew refuses the smaller size; the caller then asks at once.
///
/// Pure value. Core thread (owned by `FrameTimeline`).
struct StateSizeCheck {
    /// States taken between two answers while the size holds.
    static let interval = 30

    /// The size to take states with (nil: not asked yet).
    private(set) var size: Int?
    /// The core's size changed: it is asked before every state.
    private(set) var varies = false
    private var answers = 0
    private var statesSinceAnswer = 0
    /// The frame of the state the last answer was asked for (the one state known to be right).
    private var answeredFrame: UInt64 = 0

    /// Whether the core must be asked before the next state.
    var isDue: Bool {
        guard size != nil, !varies else { return true }
        return statesSinceAnswer >= (answers < 2 ? 1 : Self.interval)
    }

    /// The core gave `answer` before the state of `frame`. When it differs from the size in use,
    /// the frame after which the states taken may be wrong and must go; else nil.
    mutating func noteAnswer(_ answer: Int, frame: UInt64) -> UInt64? {
        let previous = size
        let previousFrame = answeredFrame
        size = answer
        answers += 1
        statesSinceAnswer = 0
        answeredFrame = frame
        guard let previous, previous != answer else { return nil }
        varies = true
        return previousFrame
    }

    /// A state was taken with `size`.
    mutating func noteStateTaken() {
        statesSinceAnswer += 1
    }

    /// Ask before the next state (a state was loaded or the game reset: its size may differ).
    mutating func askAgain() {
        statesSinceAnswer = Self.interval
    }
}
