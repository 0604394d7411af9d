import Foundation

/// What the core thread needs from a loaded game: the seam between `CoreThread` and the thing that
/// emulates. `CoreHost` (a dlopen'ed libretro core) is the real one; `ScriptedCore` is the one
/// tests run in process (like swift-nio's embedded event loop beside the real one).
///
/// Threading: a core is created on the core thread (`CoreThread`'s `makeCore` runs there) and
/// every member is used on that thread only, through `CoreThread.perform` and `beforeFrame`. Where
/// the frames, samples and buttons cross threads is fixed when the core is made (`CoreConnections`).
public protocol EmulatorCore: AnyObject {
    /// Picture size and timing; may change during `runFrame` (SET_GEOMETRY, SET_SYSTEM_AV_INFO).
    var avInfo: AVInfo { get }
    /// Frames run since the game was loaded (a state load sets it back or forth).
    var frameCount: UInt64 { get }
    /// Stereo sample frames produced so far, muted ones included.
    var audioFrames: Int { get }
    /// The version the core reports for itself (`retro_get_system_info`'s `library_version`):
    /// save-state metadata, without loading the core a second time.
    var coreVersion: String { get }
    /// The battery save file (`<game>.srm`) when the game has battery RAM, else nil. Continue
    /// compares it with what the automatic state recorded.
    var batterySaveFile: URL? { get }
    /// Why the battery save could not be written last time (nil when the last write worked).
    var batterySaveFailure: String? { get }

    /// Runs one emulated frame. `fastForwarding` is what the core is told when it asks
    /// (GET_FASTFORWARDING); `muteAudio` keeps this frame's samples out of the audio ring (the
    /// audio tap still gets them).
    func runFrame(fastForwarding: Bool, muteAudio: Bool)
    /// Resets the game (the cheats handed over stay on).
    func reset()
    /// `retro_serialize_size()`: the size of a whole state of this game right now (0 when the core
    /// has no states). A state that comes with nothing saying which game it is for is loaded only
    /// when it is exactly this size.
    var stateSize: Int { get }
    /// The core's current state, as `unserializeState` takes it back.
    func serializeState() throws -> [UInt8]
    /// The same state written into `buffer`, which gets the state's size and every byte: the
    /// rewind ring hands the same buffer back each frame, so keeping a state allocates nothing.
    func serializeState(into buffer: inout [UInt8]) throws
    /// The same, in `size` bytes, a size `stateSize` gave lately (not asked again: mGBA's
    /// `retro_serialize_size` writes a whole state to measure it, as long as the state itself).
    /// Throws when the core refuses that size; a core whose state shrank since may leave the
    /// last bytes as they were.
    func serializeState(into buffer: inout [UInt8], size: Int) throws
    /// Restores a state; a state the core refuses leaves the game as it was.
    func unserializeState(_ bytes: [UInt8]) throws
    /// While true, frames publish no picture and play no sound, not even to the audio tap:
    /// run-ahead's hidden frames, whose output is thrown away.
    var hidesOutput: Bool { get set }
    /// Restores a state this core serialized moments ago in this run (rewind, run-ahead): no
    /// safety copy or size check, `frameCount` becomes `frame`, and the cheats are handed over
    /// again when `reapplyingCheats` (a rewind step; run-ahead's rollbacks skip it, as the
    /// cheats live in the core, not in its state).
    func restoreRecentState(_ bytes: [UInt8], frame: UInt64, reapplyingCheats: Bool) throws
    /// Replaces the cheats (kept, and handed over again after a reset or a state load).
    func setCheats(_ cheats: [CoreCheat]) throws
    /// Writes the battery save now (pause, quit).
    func flushBatterySave()
    /// Unloads the game, writing the battery save first. Nothing else may be called afterwards.
    func unload()

    /// The core's options with their values (the Core Options screen).
    var coreOptions: [CoreOptionState] { get }
    /// One line per unusable value in an options file (kept in the file as it is).
    var coreOptionProblems: [String] { get }
    /// Sets an option (the core sees it at its next GET_VARIABLE_UPDATE) and saves it for every
    /// game or for this game only. False for an unknown key or value.
    func setCoreOption(_ value: String, for key: String, forThisGame: Bool) -> Bool
    /// Puts a frame still on its way into the mailbox now: a hardware-rendered core's frames are
    /// read back one frame late (the read overlaps the next frame), so when frames stop running (a
    /// pause, a job, the end) the last one is published here. Nothing to do for software cores.
    func publishPendingFrame()
}

extension EmulatorCore {
    public func publishPendingFrame() {}

    /// A core without its own: a fresh array each time.
    public func serializeState(into buffer: inout [UInt8]) throws { buffer = try serializeState() }

    /// A core without its own: its whole state, whatever the size.
    public func serializeState(into buffer: inout [UInt8], size: Int) throws { try serializeState(into: &buffer) }

    /// One frame at normal speed with sound (frame advance).
    public func runFrame() { runFrame(fastForwarding: false, muteAudio: false) }
}
