import Foundation
import PhosphorKit
import Synchronization

/// A core that emulates nothing: the same `EmulatorCore` as `CoreHost`, without a process,
/// dlopen or ROM, for fast in-process tests of everything above the core (the core thread, the
/// game session, the play screen). What it shows and plays follows from its `Script`, the frame
/// number and the buttons held (`ScriptedCore.picture`), so a test knows every frame's hash; what
/// it was asked to do goes into its `Journal`.
///
/// The picture: the background colour is port 0's button mask (bits 0–4 red, 5–9 green, 10–14
/// blue, each a 5-bit channel); a 2-pixel bar moves right 2 pixels a frame, white, or in the
/// inverse of port 1's colour when port 1 holds buttons; with R3 on port 0 the bar covers only the
/// top half. The sound: a square wave. The state: frame counter, tone phase and battery RAM,
/// tagged with the title and checked, so foreign or damaged bytes are refused.
///
/// Threading: like `CoreHost`, created on the core thread (in `CoreThread`'s `makeCore`) and used
/// only there; the journal may be read from any thread.
public final class ScriptedCore: EmulatorCore {
    public let script: Script
    public let journal: Journal
    private let connections: CoreConnections
    /// Moved on by the script's costs (nil: they are slept).
    private let clock: SteppingFrameClock?
    private let creator = pthread_self()
    private let batteryFailure = Mutex<String?>(nil)

    public private(set) var avInfo: AVInfo
    public private(set) var frameCount: UInt64 = 0
    public private(set) var audioFrames = 0
    public var hidesOutput = false
    /// Sample frames of the tone played so far (its phase; part of the state).
    private(set) var samplePosition: UInt64 = 0
    /// The battery save RAM: frames ever run (UInt64, little-endian), then the last non-empty
    /// button mask of port 0 (UInt16), then zeros.
    public private(set) var batteryRAM: [UInt8]
    /// The cheats last handed over.
    public private(set) var activeCheats: [CoreCheat] = []
    private var pixels: [UInt8] = []
    private var samples: [Int16] = []
    private let options: CoreOptions

    /// "Loads the game": reads the battery save when the script has one. Core thread.
    public init(script: Script, connections: CoreConnections, journal: Journal = Journal(),
                clock: SteppingFrameClock? = nil) throws {
        self.script = script
        self.journal = journal
        self.connections = connections
        self.clock = clock
        if script.failures.contains(.load) {
            throw EmulationError.coreLoadFailed(core: script.title, reason: "the script says this load fails")
        }
        avInfo = AVInfo(baseWidth: script.width, baseHeight: script.height, maxWidth: script.width,
                        maxHeight: script.height, aspectRatio: nil, framesPerSecond: script.framesPerSecond,
                        sampleRate: Double(script.sampleRate))
        options = CoreOptions(file: script.optionFile, gameFile: script.gameOptionFile)
        options.define(script.options)
        batteryRAM = [UInt8](repeating: 0, count: script.batterySaveSize)
        if let file = script.batterySave, let saved = try? [UInt8](Data(contentsOf: file)), saved.count == batteryRAM.count {
            batteryRAM = saved
        }
        note { $0.loads += 1 }
    }

    public var coreVersion: String { script.version }

    public var coreOptions: [CoreOptionState] { options.states }
    public var coreOptionProblems: [String] { options.problems }
    public func setCoreOption(_ value: String, for key: String, forThisGame: Bool) -> Bool {
        options.set(value, for: key, forThisGame: forThisGame)
    }

    public var batterySaveFile: URL? { script.batterySave }

    public var batterySaveFailure: String? { batteryFailure.withLock { $0 } }

    public func runFrame(fastForwarding: Bool, muteAudio: Bool) {
        spend(script.frameCost)
        if options.updated, !script.options.isEmpty {  // GET_VARIABLE_UPDATE, then GET_VARIABLE for each
            options.updated = false
            let values = options.values
            note { $0.optionValuesRead.append(values) }
        }
        let masks = (0..<InputState.portCount).map { connections.input.mask(port: $0) }
        if connections.publishesFrame(frameCount), !hidesOutput {
            ScriptedCore.drawPicture(frame: frameCount, masks: masks, script: script, into: &pixels)
            pixels.withUnsafeBytes { raw in
                connections.mailbox.publish(pixels: raw.baseAddress!, width: script.width, height: script.height,
                                            pitch: script.width * script.pixelFormat.bytesPerPixel,
                                            format: script.pixelFormat, sequence: frameCount + 1)
            }
        }
        playTone(for: frameCount, muted: muteAudio, hidden: hidesOutput)
        frameCount += 1
        updateBatteryRAM(port0: masks[0])
        let hidden = hidesOutput
        note {
            $0.framesRun += 1
            if fastForwarding { $0.fastForwardedFrames += 1 }
            if muteAudio { $0.mutedFrames += 1 }
            if hidden { $0.hiddenFrames += 1 }
        }
    }

    public func reset() {
        frameCount = 0
        samplePosition = 0
        note { $0.resets += 1 }
    }

    /// The size of an encoded state (fixed for a script: the battery RAM's size is).
    public var stateSize: Int {
        note { $0.stateSizeQueries += 1 }
        return ScriptedState(title: script.title, frameCount: 0, samplePosition: 0, batteryRAM: batteryRAM).encoded().count
    }

    public func serializeState() throws -> [UInt8] {
        note { $0.serializations += 1 }
        spend(script.serializeCost)
        if script.failures.contains(.serialize) { throw EmulationError.stateUnsupported(core: script.title) }
        return ScriptedState(title: script.title, frameCount: frameCount, samplePosition: samplePosition,
                             batteryRAM: batteryRAM).encoded()
    }

    public func unserializeState(_ bytes: [UInt8]) throws {
        note { $0.unserializations += 1 }
        if script.failures.contains(.unserialize) {
            throw EmulationError.stateRejected(reason: "the script says this state load fails")
        }
        let state = try ScriptedState(decoding: bytes, title: script.title, batterySize: batteryRAM.count)
        frameCount = state.frameCount
        samplePosition = state.samplePosition
        batteryRAM = state.batteryRAM
    }

    public func restoreRecentState(_ bytes: [UInt8], frame: UInt64, reapplyingCheats: Bool) throws {
        note { $0.recentRestores += 1 }
        let state = try ScriptedState(decoding: bytes, title: script.title, batterySize: batteryRAM.count)
        frameCount = state.frameCount
        samplePosition = state.samplePosition
        batteryRAM = state.batteryRAM
        if reapplyingCheats, !activeCheats.isEmpty { try setCheats(activeCheats) }
    }

    public func setCheats(_ cheats: [CoreCheat]) throws {
        activeCheats = cheats
        let frame = frameCount
        note { $0.cheatHandOvers.append(Journal.CheatHandOver(frame: frame, cheats: cheats)) }
    }

    public func flushBatterySave() {
        note { $0.batteryFlushes += 1 }
        writeBatterySave()
    }

    public func unload() {
        writeBatterySave()
        note { $0.unloaded = true }
    }

    // MARK: Core thread

    private func note(_ change: (inout Journal.Entries) -> Void) {
        let onCreator = pthread_equal(pthread_self(), creator) != 0
        journal.record {
            if !onCreator { $0.callsFromOtherThreads += 1 }
            change(&$0)
        }
    }

    /// This frame's share of the tone: sample frames up to the frame's end on the core's clock.
    private func playTone(for frame: UInt64, muted: Bool, hidden: Bool) {
        let end = UInt64((Double(frame + 1) * Double(script.sampleRate) / script.framesPerSecond).rounded(.down))
        let start = UInt64((Double(frame) * Double(script.sampleRate) / script.framesPerSecond).rounded(.down))
        let count = Int(end - start)
        samples.removeAll(keepingCapacity: true)
        for _ in 0..<count {
            let value = ScriptedCore.toneSample(at: samplePosition, script: script)
            samples.append(value)
            samples.append(value)
            samplePosition += 1
        }
        audioFrames += count
        guard !hidden else { return }
        samples.withUnsafeBufferPointer { buffer in
            connections.audioTap?(buffer)
            if !muted { _ = connections.audioRing?.write(buffer) }
        }
    }

    private func updateBatteryRAM(port0: ButtonMask) {
        guard script.batterySave != nil else { return }
        var runs = batteryRAM.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }.littleEndian
        runs += 1
        withUnsafeBytes(of: runs.littleEndian) { batteryRAM.replaceSubrange(0..<8, with: $0) }
        if !port0.isEmpty {
            withUnsafeBytes(of: port0.rawValue.littleEndian) { batteryRAM.replaceSubrange(8..<10, with: $0) }
        }
    }

    private func writeBatterySave() {
        guard let file = script.batterySave else { return }
        do {
            try AtomicFile.write(batteryRAM, to: file)
            batteryFailure.withLock { $0 = nil }
        } catch {
            batteryFailure.withLock { $0 = "\(error)" }
        }
    }
}

extension ScriptedCore {
    /// A factory for `CoreThread(options:…, makeCore:)`: the core is made on the core thread and
    /// writes into `journal`.
    public static func maker(_ script: Script = Script(), journal: Journal = Journal(), clock: SteppingFrameClock? = nil)
        -> @Sendable (CoreConnections) throws -> any EmulatorCore {
        { connections in try ScriptedCore(script: script, connections: connections, journal: journal, clock: clock) }
    }

    /// Takes `cost` of (clock) time, as a slow core would.
    private func spend(_ cost: Duration) {
        guard cost > .zero else { return }
        if let clock { clock.advance(by: cost) } else { Thread.sleep(forTimeInterval: cost.inSeconds) }
    }
}
