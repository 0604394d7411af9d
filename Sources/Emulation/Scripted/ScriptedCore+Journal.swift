import Synchronization

extension ScriptedCore {
    /// What a scripted core was asked to do. The core writes it on the core thread; a test reads
    /// `entries` from any thread (a `Mutex` guards it). Create one, hand it to the core's
    /// initializer inside `makeCore`, and keep it to look at.
    public final class Journal: Sendable {
        /// One `setCheats` call: the frame it came before and the list handed over.
        public struct CheatHandOver: Sendable, Equatable {
            public var frame: UInt64
            public var cheats: [CoreCheat]
        }

        public struct Entries: Sendable, Equatable {
            /// Successful loads (a core made with `.load` failing never counts).
            public var loads = 0
            public var framesRun: UInt64 = 0
            /// Frames run with `fastForwarding` / with `muteAudio`.
            public var fastForwardedFrames: UInt64 = 0
            public var mutedFrames: UInt64 = 0
            /// Frames run with `hidesOutput` (run-ahead's hidden frames).
            public var hiddenFrames: UInt64 = 0
            public var resets = 0
            /// Calls, failed ones included.
            public var serializations = 0
            /// Times `stateSize` was asked (`retro_serialize_size`).
            public var stateSizeQueries = 0
            public var unserializations = 0
            /// `restoreRecentState` calls (rewind steps, run-ahead rollbacks).
            public var recentRestores = 0
            public var cheatHandOvers: [CheatHandOver] = []
            /// The option values the core read each time GET_VARIABLE_UPDATE said they changed
            /// (once at load, then after every change), as a libretro core polls them.
            public var optionValuesRead: [[String: String]] = []
            public var batteryFlushes = 0
            public var unloaded = false
            /// Calls made from a thread other than the one that created the core: must stay 0
            /// (a libretro core may only be touched by the core thread).
            public var callsFromOtherThreads = 0
        }

        private let state = Mutex(Entries())

        public init() {}

        /// A copy of everything recorded so far. Any thread.
        public var entries: Entries { state.withLock { $0 } }

        /// Core thread (the scripted core).
        func record(_ change: (inout Entries) -> Void) {
            state.withLock { change(&$0) }
        }
    }
}
