internal import CLibretro
import Foundation
import PhosphorKit

/// The libretro host for one loaded game: answers the core's environment callbacks, receives its
/// video and audio, feeds it input, and keeps its battery save. The real `EmulatorCore`.
///
/// Threading: a core is not thread-safe and its callbacks carry no context pointer, so one host at a
/// time is `CoreHost.current`, and every method here runs on the core thread only (the thread that
/// created the host; `CoreThread` owns it). The outputs (`FrameMailbox`, `SampleRing`, `InputState`)
/// are the lock-free hand-offs to the other threads.
public final class CoreHost: EmulatorCore {
    /// The host the C callbacks talk to. Set and cleared on the core thread.
    nonisolated(unsafe) static var current: CoreHost?

    public struct Configuration: Sendable {
        public var core: CoreInfo
        public var rom: URL
        public var paths: PhosphorPaths
        /// Name used for `<game>.srm`; defaults to the ROM's base name.
        public var gameName: String
        /// Battery saves go to `saves/<saveFolder>/`: the system id, so two consoles' games with
        /// the same file name never share a save.
        public var saveFolder: String
        /// Core option values forced for this run (on top of the saved ones).
        public var optionOverrides: [String: String]
        /// The exact folder of the battery save and clock, instead of `saves/<saveFolder>/`
        /// (RetroArch's folders when they are shared).
        public var batterySaveFolder: URL?
        /// The BIOS folder instead of Phosphor's `system/`.
        public var systemFolder: URL?
        /// RetroArch's core option files to read (its folders are shared), the last one winning.
        public var retroArchOptionFiles: [URL] = []

        public init(core: CoreInfo, rom: URL, paths: PhosphorPaths, system: GameSystem?, gameName: String? = nil,
                    optionOverrides: [String: String] = [:]) {
            self.core = core
            self.saveFolder = system?.rawValue ?? core.name
            self.rom = rom
            self.paths = paths
            self.gameName = gameName ?? rom.deletingPathExtension().lastPathComponent
            self.optionOverrides = optionOverrides
        }
    }

    public let configuration: Configuration
    let core: LibretroCore
    let connections: CoreConnections
    let options: CoreOptions
    let battery: BatterySave
    /// The cartridge's real-time clock (`RETRO_MEMORY_RTC`, e.g. MBC3 games), `<game>.rtc` beside
    /// the `.srm` as RetroArch keeps it.
    let clock: BatterySave

    // Counters and per-frame settings (core thread).
    /// This frame's samples stay out of the audio ring (fast-forward without sound).
    private var muteAudio = false
    /// Run-ahead's hidden frames: no picture into the mailbox, no samples anywhere.
    public var hidesOutput = false
    /// What GET_FASTFORWARDING answers during this frame.
    private var fastForwarding = false
    public private(set) var audioFrames = 0
    public private(set) var frameCount: UInt64 = 0
    public private(set) var avInfo: AVInfo
    public private(set) var pixelFormat: PixelFormat = .rgb1555
    public private(set) var inputDescriptors: [InputDescriptor] = []
    public private(set) var messages: [String] = []
    /// The offscreen OpenGL of a hardware-rendered core (SET_HW_RENDER), or why it was refused.
    private var hardwareRenderer: HardwareRenderer?
    private var hardwareRefusal: HardwareRenderRefusal?
    /// A failed read-back is logged once, not 60 times a second.
    private var readBackFailureLogged = false
    /// Time the core thread spent reading OpenGL frames back (starting the read, mapping the
    /// previous one, copying it into the mailbox), for `make bench`. Core thread.
    public private(set) var readBackDuration: Duration = .zero
    /// How many frames were read back.
    public private(set) var readBackCount = 0
    private var frameTimeCallback: retro_frame_time_callback_t?
    private var polledMasks: [ButtonMask] = Array(repeating: [], count: InputState.portCount)
    private var polledPointer: (x: Int16, y: Int16, pressed: Bool) = (0, 0, false)
    private var polledSticks: [[StickPosition]] = Array(repeating: [.centre, .centre], count: InputState.portCount)
    private var gameData: [UInt8] = []
    private var loaded = false
    /// The cheats last handed to the core (`setCheats`), handed again after a reset or state load.
    var activeCheats: [CoreCheat] = []

    // C strings the core may keep pointers to.
    private let systemDirectory: UnsafeMutablePointer<CChar>
    private let saveDirectory: UnsafeMutablePointer<CChar>
    private let corePath: UnsafeMutablePointer<CChar>
    private let romPath: UnsafeMutablePointer<CChar>

    /// Loads the core and the game, wired to `connections`. Core thread (`CoreThread`'s
    /// configuration initializer calls it there).
    public init(configuration: Configuration, connections: CoreConnections) throws {
        precondition(CoreHost.current == nil, "one core at a time per process")
        self.configuration = configuration
        self.connections = connections
        let paths = configuration.paths
        try? paths.createFolders()
        systemDirectory = strdup((configuration.systemFolder ?? paths.system).path)
        saveDirectory = strdup(paths.saves.path)
        corePath = strdup(configuration.core.path.path)
        romPath = strdup(configuration.rom.path)
        core = try LibretroCore(path: configuration.core.path)
        options = CoreOptions(
            file: paths.coreOptions.appendingPathComponent("\(configuration.core.name).json"),
            gameFile: paths.coreOptions.appendingPathComponent(configuration.core.name)
                .appendingPathComponent("\(configuration.gameName).json"),
            retroArchFiles: configuration.retroArchOptionFiles,
            overrides: configuration.core.profile.defaultOptions.merging(configuration.optionOverrides) { $1 },
            startingValues: configuration.core.profile.startingOptions)
        let saveFolder = configuration.batterySaveFolder ?? paths.saves.appendingPathComponent(configuration.saveFolder)
        battery = BatterySave(file: saveFolder.appendingPathComponent("\(configuration.gameName).srm"))
        clock = BatterySave(file: saveFolder.appendingPathComponent("\(configuration.gameName).rtc"), kind: "clock",
                            writesFreshMemory: true)
        avInfo = AVInfo(baseWidth: 0, baseHeight: 0, maxWidth: 0, maxHeight: 0, aspectRatio: nil,
                        framesPerSecond: 60, sampleRate: 44100)
        CoreHost.current = self
        do {
            try load()
        } catch {
            unloadCore()
            throw error
        }
    }

    deinit {
        free(systemDirectory)
        free(saveDirectory)
        free(corePath)
        free(romPath)
    }

    private func load() throws {
        let coreName = configuration.core.displayName
        clibretro_set_log_sink(coreLogSink)
        core.table.set_environment(environmentTrampoline)
        core.table.`init`()
        core.table.set_video_refresh(videoTrampoline)
        core.table.set_audio_sample(audioSampleTrampoline)
        core.table.set_audio_sample_batch(audioBatchTrampoline)
        core.table.set_input_poll(inputPollTrampoline)
        core.table.set_input_state(inputStateTrampoline)

        var game = retro_game_info()
        let fileName = configuration.rom.lastPathComponent
        if !core.needsFullPath {
            do {
                gameData = try [UInt8](Data(contentsOf: configuration.rom))
            } catch {
                throw EmulationError.romUnreadable(file: fileName, reason: "cannot read: \(error.localizedDescription)")
            }
        }
        let accepted = gameData.withUnsafeBytes { bytes -> Bool in
            game.path = UnsafePointer(romPath)
            game.data = core.needsFullPath ? nil : bytes.baseAddress
            game.size = core.needsFullPath ? 0 : bytes.count
            return core.table.load_game(&game)
        }
        if let refusal = hardwareRefusal, hardwareRenderer == nil {
            if accepted { core.table.unload_game() }
            throw EmulationError.hardwareRenderingUnavailable(core: coreName, needs: refusal.needs, reason: refusal.reason)
        }
        guard accepted else { throw EmulationError.gameRejected(core: coreName, file: fileName) }
        loaded = true
        var info = retro_system_av_info()
        core.table.get_system_av_info(&info)
        avInfo = AVInfo(info)
        if let hardwareRenderer {
            // libretro's order: the game is loaded and its largest picture known, then the context is "reset".
            do {
                try hardwareRenderer.start(maxWidth: max(avInfo.maxWidth, avInfo.baseWidth),
                                           maxHeight: max(avInfo.maxHeight, avInfo.baseHeight))
            } catch {
                throw EmulationError.hardwareRenderingUnavailable(core: coreName, needs: "\(hardwareRenderer.api)",
                                                                  reason: "\(error)")
            }
        }
        // nestopia ignores input until a device is set on the port.
        for port in 0..<2 { core.table.set_controller_port_device(UInt32(port), UInt32(RETRO_DEVICE_JOYPAD)) }
        battery.attach(data: core.table.get_memory_data(UInt32(RETRO_MEMORY_SAVE_RAM)),
                       size: core.table.get_memory_size(UInt32(RETRO_MEMORY_SAVE_RAM)))
        try battery.loadFromDisk()
        clock.attach(data: core.table.get_memory_data(UInt32(RETRO_MEMORY_RTC)),
                     size: core.table.get_memory_size(UInt32(RETRO_MEMORY_RTC)))
        try clock.loadFromDisk()
    }

    /// The core's own version (retro_get_system_info), read once when it was loaded. Core thread.
    public var coreVersion: String { core.libraryVersion }

    /// Runs one emulated frame. Core thread.
    public func runFrame(fastForwarding: Bool, muteAudio: Bool) {
        self.fastForwarding = fastForwarding
        self.muteAudio = muteAudio
        if let callback = frameTimeCallback {
            callback(retro_usec_t(1_000_000 / max(avInfo.framesPerSecond, 1)))
        }
        core.table.run()
        frameCount += 1
        battery.frameDidRun(framesPerSecond: avInfo.framesPerSecond)
        clock.frameDidRun(framesPerSecond: avInfo.framesPerSecond)
    }

    public func reset() {
        core.table.reset()
        reapplyCheats()
    }

    /// `retro_serialize_size()`. Core thread.
    public var stateSize: Int { core.table.serialize_size() }

    /// The core's current state. Core thread.
    public func serializeState() throws -> [UInt8] {
        var bytes: [UInt8] = []
        try serializeState(into: &bytes)
        return bytes
    }

    /// The core's current state in `buffer`, reusing its memory (no allocation and no zeroing
    /// while the size stays). The size is asked every time, as some cores' states (nestopia's,
    /// mGBA's) change size. Core thread.
    public func serializeState(into buffer: inout [UInt8]) throws {
        try serializeState(into: &buffer, size: core.table.serialize_size())
    }

    /// The core's current state in `size` bytes (rewind's and run-ahead's states, every frame,
    /// with the size asked lately: `StateSizeCheck`). Core thread.
    public func serializeState(into buffer: inout [UInt8], size: Int) throws {
        guard size > 0 else { throw EmulationError.stateUnsupported(core: configuration.core.displayName) }
        buffer.resize(to: size)
        let ok = buffer.withUnsafeMutableBytes { core.table.serialize($0.baseAddress, size) }
        guard ok else { throw EmulationError.stateUnsupported(core: configuration.core.displayName) }
    }

    /// Restores a state. A state the core refuses leaves the game exactly as it was: the current
    /// state is taken first and put back. Sizes are not compared exactly because some cores
    /// (nestopia) produce states whose size varies with what the game is doing. Core thread.
    public func unserializeState(_ bytes: [UInt8]) throws {
        let name = configuration.core.displayName
        guard !bytes.isEmpty else { throw EmulationError.stateRejected(reason: "the file is empty") }
        let before = try serializeState()
        // A state less than half or more than twice the current size is not this game's.
        guard bytes.count * 2 >= before.count, bytes.count <= before.count * 2 else {
            throw EmulationError.stateRejected(
                reason: "it is \(bytes.count) bytes but \(name) states for this game are about \(before.count) bytes (truncated, or from another game or core)")
        }
        let ok = bytes.withUnsafeBytes { core.table.unserialize($0.baseAddress, bytes.count) }
        guard ok else {
            _ = before.withUnsafeBytes { core.table.unserialize($0.baseAddress, before.count) }
            throw EmulationError.stateRejected(reason: "\(name) could not read it (truncated, corrupt, or from another game or core version)")
        }
        reapplyCheats()
    }

    /// A state `serializeState` made moments ago (rewind, run-ahead): straight to the core.
    /// Core thread.
    public func restoreRecentState(_ bytes: [UInt8], frame: UInt64, reapplyingCheats: Bool) throws {
        let ok = bytes.withUnsafeBytes { core.table.unserialize($0.baseAddress, bytes.count) }
        guard ok else {
            throw EmulationError.stateRejected(reason: "\(configuration.core.displayName) could not read its own state back (retro_unserialize)")
        }
        frameCount = frame
        if reapplyingCheats { reapplyCheats() }
    }

    /// Core option definitions and values (core thread; CoreThread hands out copies).
    public var optionDefinitions: [(key: String, description: String, values: [String], value: String)] {
        options.definitions.map { ($0.key, $0.description, $0.values, options.values[$0.key] ?? $0.defaultValue) }
    }

    @discardableResult
    public func setOption(_ value: String, for key: String) -> Bool { options.set(value, for: key) }

    public var coreOptions: [CoreOptionState] { options.states }
    public var coreOptionProblems: [String] { options.problems }
    public func setCoreOption(_ value: String, for key: String, forThisGame: Bool) -> Bool {
        options.set(value, for: key, forThisGame: forThisGame)
    }

    public var batterySaveFile: URL? { battery.hasBatteryRAM ? battery.file : nil }

    /// Why the battery save could not be written last time (nil when the last write worked).
    /// Any thread.
    public var batterySaveFailure: String? { battery.writeFailure.value ?? clock.writeFailure.value }

    /// Writes the battery save and the clock now (quit, pause). Core thread.
    public func flushBatterySave() {
        battery.writeNow()
        clock.writeNow()
    }

    /// Unloads the game and the core, writing the battery save first. Core thread.
    public func unload() {
        guard CoreHost.current === self else { return }
        if loaded {
            battery.writeNow()
            clock.writeNow()
        }
        battery.waitForPendingWrites()
        clock.waitForPendingWrites()
        unloadCore()
    }

    private func unloadCore() {
        // context_destroy while the game is still loaded, as libretro promises; the context goes last.
        hardwareRenderer?.stop()
        if loaded {
            core.table.unload_game()
            loaded = false
        }
        core.table.deinit()
        hardwareRenderer = nil
        CoreHost.current = nil
    }

    /// A hardware-rendered core's last frame, still in its pixel buffer, goes into the mailbox now
    /// (the thread stops running frames: a pause, a job, the end). Core thread.
    public func publishPendingFrame() {
        guard let hardwareRenderer else { return }
        do {
            try hardwareRenderer.publishNewest(into: connections.mailbox)
        } catch {
            logReadBackFailure(error)
        }
    }

    private func logReadBackFailure(_ error: Error) {
        guard !readBackFailureLogged else { return }
        readBackFailureLogged = true
        Log.error("\(configuration.core.name): reading the OpenGL frame back failed: \(error)")
    }

    // MARK: Callbacks (core thread, from the trampolines below)

    fileprivate func video(_ data: UnsafeRawPointer?, _ width: UInt32, _ height: UInt32, _ pitch: Int) {
        guard let data, width > 0, height > 0, !hidesOutput else { return }  // NULL: show the previous frame again
        guard connections.publishesFrame(frameCount) else { return }
        if UInt(bitPattern: data) == Self.hardwareFrameMarker, let hardwareRenderer {
            let start = ContinuousClock.now
            defer {
                readBackDuration += ContinuousClock.now - start
                readBackCount += 1
            }
            do {
                try hardwareRenderer.frameDidFinish(width: Int(width), height: Int(height), tag: frameCount + 1,
                                                    into: connections.mailbox)
            } catch {
                logReadBackFailure(error)
            }
            return
        }
        connections.mailbox.publish(pixels: data, width: Int(width), height: Int(height), pitch: pitch,
                        format: pixelFormat, sequence: frameCount + 1)
    }

    /// RETRO_HW_FRAME_BUFFER_VALID, `(void *)-1`: "the frame is in the framebuffer you gave me".
    private static let hardwareFrameMarker = UInt(bitPattern: -1)

    fileprivate func audio(_ samples: UnsafeBufferPointer<Int16>) {
        audioFrames += samples.count / 2
        guard !hidesOutput else { return }
        connections.audioTap?(samples)
        if !muteAudio { connections.audioRing?.write(samples) }
    }

    fileprivate func poll() {
        for port in 0..<InputState.portCount {
            polledMasks[port] = connections.input.mask(port: port)
            // In place: `allCases.map` built a new array per port, and some cores (gambatte)
            // poll several times a frame.
            polledSticks[port][AnalogStick.left.rawValue] = connections.input.stick(.left, port: port)
            polledSticks[port][AnalogStick.right.rawValue] = connections.input.stick(.right, port: port)
        }
        polledPointer = connections.input.pointerState()
    }

    fileprivate func inputState(port: UInt32, device: UInt32, index: UInt32, id: UInt32) -> Int16 {
        guard Int(port) < polledMasks.count else { return 0 }
        switch device & 0xFF {  // RETRO_DEVICE_MASK: the base device type
        case UInt32(RETRO_DEVICE_JOYPAD):
            let mask = polledMasks[Int(port)]
            if id == UInt32(RETRO_DEVICE_ID_JOYPAD_MASK) { return Int16(bitPattern: mask.rawValue) }
            guard id < 16 else { return 0 }
            return mask.rawValue & (1 << UInt16(id)) != 0 ? 1 : 0
        case UInt32(RETRO_DEVICE_ANALOG):
            return analogState(port: Int(port), index: index, id: id)
        case UInt32(RETRO_DEVICE_POINTER):
            guard port == 0 else { return 0 }
            switch id {
            case UInt32(RETRO_DEVICE_ID_POINTER_X): return polledPointer.x
            case UInt32(RETRO_DEVICE_ID_POINTER_Y): return polledPointer.y
            case UInt32(RETRO_DEVICE_ID_POINTER_PRESSED): return polledPointer.pressed ? 1 : 0
            default: return 0
            }
        default:
            return 0
        }
    }

    /// RETRO_DEVICE_ANALOG: a stick's axis, or (RETRO_DEVICE_INDEX_ANALOG_BUTTON) a button read as
    /// an analog value, fully pressed or not at all.
    private func analogState(port: Int, index: UInt32, id: UInt32) -> Int16 {
        switch index {
        case UInt32(RETRO_DEVICE_INDEX_ANALOG_LEFT), UInt32(RETRO_DEVICE_INDEX_ANALOG_RIGHT):
            let position = polledSticks[port][Int(index)]
            switch id {
            case UInt32(RETRO_DEVICE_ID_ANALOG_X): return position.x
            case UInt32(RETRO_DEVICE_ID_ANALOG_Y): return position.y
            default: return 0
            }
        case UInt32(RETRO_DEVICE_INDEX_ANALOG_BUTTON):
            guard id < 16 else { return 0 }
            return polledMasks[port].rawValue & (1 << UInt16(id)) != 0 ? Int16(StickPosition.full) : 0
        default:
            return 0
        }
    }

    fileprivate func log(_ level: retro_log_level, _ message: String) {
        let text = "\(configuration.core.name): \(message.trimmingWhitespace())"
        switch level {
        case RETRO_LOG_ERROR: Log.error(text)
        case RETRO_LOG_WARN: Log.warning(text)
        case RETRO_LOG_INFO: Log.info(text)
        default: Log.debug(text)
        }
    }

    // MARK: Environment

    // swiftlint:disable:next cyclomatic_complexity function_body_length
    fileprivate func environment(_ rawCommand: UInt32, _ data: UnsafeMutableRawPointer?) -> Bool {
        // The experimental bit only says "may change"; the command is the same.
        let command = Int32(rawCommand & ~UInt32(RETRO_ENVIRONMENT_EXPERIMENTAL))
        switch command {
        case RETRO_ENVIRONMENT_GET_CAN_DUPE:
            data?.assumingMemoryBound(to: Bool.self).pointee = true
            return true
        case RETRO_ENVIRONMENT_GET_OVERSCAN:
            data?.assumingMemoryBound(to: Bool.self).pointee = false
            return true
        case RETRO_ENVIRONMENT_SET_PIXEL_FORMAT:
            guard let raw = data?.assumingMemoryBound(to: retro_pixel_format.self).pointee,
                  let format = PixelFormat(rawValue: Int(raw.rawValue)) else { return false }
            pixelFormat = format
            return true
        case RETRO_ENVIRONMENT_GET_SYSTEM_DIRECTORY:
            data?.assumingMemoryBound(to: UnsafePointer<CChar>?.self).pointee = UnsafePointer(systemDirectory)
            return true
        case RETRO_ENVIRONMENT_GET_SAVE_DIRECTORY:
            data?.assumingMemoryBound(to: UnsafePointer<CChar>?.self).pointee = UnsafePointer(saveDirectory)
            return true
        case RETRO_ENVIRONMENT_GET_LIBRETRO_PATH:
            data?.assumingMemoryBound(to: UnsafePointer<CChar>?.self).pointee = UnsafePointer(corePath)
            return true
        case RETRO_ENVIRONMENT_GET_LOG_INTERFACE:
            guard let data else { return false }
            clibretro_fill_log_callback(data.assumingMemoryBound(to: retro_log_callback.self))
            return true
        case RETRO_ENVIRONMENT_SET_HW_RENDER:
            guard let request = data?.assumingMemoryBound(to: retro_hw_render_callback.self) else { return false }
            hardwareRenderer = nil  // one context per process: a second request replaces the first
            do {
                hardwareRenderer = try HardwareRenderer(request: request)
                hardwareRefusal = nil
                return true
            } catch {
                hardwareRefusal = error
                Log.warning("\(configuration.core.name) asked for \(error.needs): refused, \(error.reason)")
                return false
            }
        case RETRO_ENVIRONMENT_GET_PREFERRED_HW_RENDER:
            data?.assumingMemoryBound(to: UInt32.self).pointee = UInt32(RETRO_HW_CONTEXT_OPENGL_CORE.rawValue)
            return true
        case RETRO_ENVIRONMENT_SET_HW_SHARED_CONTEXT & ~RETRO_ENVIRONMENT_EXPERIMENTAL:
            // The context is never lost or shared with a video driver: states and resets need no context_reset.
            return true
        case CoreHost.clearAllThreadWaitsCommand:
            // RetroArch's private GET_CLEAR_ALL_THREAD_WAITS_CB: mupen64plus-next calls the answer in
            // retro_unload_game and crashes when it is not a function.
            data?.assumingMemoryBound(to: retro_environment_t?.self).pointee = clearAllThreadWaitsTrampoline
            return true
        case RETRO_ENVIRONMENT_GET_INPUT_BITMASKS:
            return true
        case RETRO_ENVIRONMENT_SET_INPUT_DESCRIPTORS:
            inputDescriptors = readInputDescriptors(data)
            return true
        case RETRO_ENVIRONMENT_GET_CORE_OPTIONS_VERSION:
            data?.assumingMemoryBound(to: UInt32.self).pointee = 2
            return true
        case RETRO_ENVIRONMENT_SET_VARIABLES:
            options.define(readLegacyVariables(data))
            return true
        case RETRO_ENVIRONMENT_SET_CORE_OPTIONS:
            options.define(readOptionsV1(data?.assumingMemoryBound(to: retro_core_option_definition.self)))
            return true
        case RETRO_ENVIRONMENT_SET_CORE_OPTIONS_INTL:
            let intl = data?.assumingMemoryBound(to: retro_core_options_intl.self).pointee
            options.define(readOptionsV1(intl?.us))
            return true
        case RETRO_ENVIRONMENT_SET_CORE_OPTIONS_V2:
            let v2 = data?.assumingMemoryBound(to: retro_core_options_v2.self).pointee
            options.define(readOptionsV2(v2?.definitions, categories: v2?.categories))
            return true
        case RETRO_ENVIRONMENT_SET_CORE_OPTIONS_V2_INTL:
            let intl = data?.assumingMemoryBound(to: retro_core_options_v2_intl.self).pointee
            options.define(readOptionsV2(intl?.us?.pointee.definitions, categories: intl?.us?.pointee.categories))
            return true
        case RETRO_ENVIRONMENT_SET_CORE_OPTIONS_DISPLAY, RETRO_ENVIRONMENT_SET_CORE_OPTIONS_UPDATE_DISPLAY_CALLBACK:
            return true
        case RETRO_ENVIRONMENT_GET_VARIABLE:
            guard let variable = data?.assumingMemoryBound(to: retro_variable.self),
                  let key = variable.pointee.key else { return false }
            let value = options.cValue(for: String(cString: key))
            variable.pointee.value = value
            return value != nil
        case RETRO_ENVIRONMENT_SET_VARIABLE:
            guard let variable = data?.assumingMemoryBound(to: retro_variable.self).pointee,
                  let key = variable.key, let value = variable.value else { return data == nil }
            return options.set(String(cString: value), for: String(cString: key))
        case RETRO_ENVIRONMENT_GET_VARIABLE_UPDATE:
            data?.assumingMemoryBound(to: Bool.self).pointee = options.updated
            options.updated = false
            return true
        case RETRO_ENVIRONMENT_SET_GEOMETRY:
            guard let geometry = data?.assumingMemoryBound(to: retro_game_geometry.self).pointee else { return false }
            avInfo.apply(geometry)
            return true
        case RETRO_ENVIRONMENT_SET_SYSTEM_AV_INFO:
            guard let info = data?.assumingMemoryBound(to: retro_system_av_info.self).pointee else { return false }
            avInfo = AVInfo(info)
            do {
                try hardwareRenderer?.resizeFramebuffer(width: max(avInfo.maxWidth, avInfo.baseWidth),
                                                        height: max(avInfo.maxHeight, avInfo.baseHeight))
            } catch {
                logReadBackFailure(error)
            }
            return true
        case RETRO_ENVIRONMENT_SET_MEMORY_MAPS, RETRO_ENVIRONMENT_SET_CONTROLLER_INFO,
             RETRO_ENVIRONMENT_SET_SUBSYSTEM_INFO, RETRO_ENVIRONMENT_SET_PERFORMANCE_LEVEL,
             RETRO_ENVIRONMENT_SET_SERIALIZATION_QUIRKS, RETRO_ENVIRONMENT_SET_SUPPORT_NO_GAME,
             RETRO_ENVIRONMENT_SET_SUPPORT_ACHIEVEMENTS, RETRO_ENVIRONMENT_SET_ROTATION,
             RETRO_ENVIRONMENT_SET_MINIMUM_AUDIO_LATENCY, RETRO_ENVIRONMENT_SET_CONTENT_INFO_OVERRIDE,
             RETRO_ENVIRONMENT_SET_FASTFORWARDING_OVERRIDE:
            return true
        case RETRO_ENVIRONMENT_SET_FRAME_TIME_CALLBACK:
            frameTimeCallback = data?.assumingMemoryBound(to: retro_frame_time_callback.self).pointee.callback
            return true
        case RETRO_ENVIRONMENT_SET_MESSAGE:
            if let message = data?.assumingMemoryBound(to: retro_message.self).pointee.msg {
                note(String(cString: message))
            }
            return true
        case RETRO_ENVIRONMENT_SET_MESSAGE_EXT:
            if let message = data?.assumingMemoryBound(to: retro_message_ext.self).pointee.msg {
                note(String(cString: message))
            }
            return true
        case RETRO_ENVIRONMENT_GET_MESSAGE_INTERFACE_VERSION:
            data?.assumingMemoryBound(to: UInt32.self).pointee = 1
            return true
        case RETRO_ENVIRONMENT_GET_LANGUAGE:
            data?.assumingMemoryBound(to: UInt32.self).pointee = UInt32(RETRO_LANGUAGE_ENGLISH.rawValue)
            return true
        case RETRO_ENVIRONMENT_GET_AUDIO_VIDEO_ENABLE:
            data?.assumingMemoryBound(to: Int32.self).pointee = 3  // video and audio
            return true
        case RETRO_ENVIRONMENT_GET_FASTFORWARDING:
            data?.assumingMemoryBound(to: Bool.self).pointee = fastForwarding
            return true
        case RETRO_ENVIRONMENT_GET_TARGET_REFRESH_RATE:
            data?.assumingMemoryBound(to: Float.self).pointee = Float(avInfo.framesPerSecond)
            return true
        case RETRO_ENVIRONMENT_GET_INPUT_MAX_USERS:
            data?.assumingMemoryBound(to: UInt32.self).pointee = 2
            return true
        case RETRO_ENVIRONMENT_SHUTDOWN:
            note("the core asked to shut down")
            return true
        default:
            return false
        }
    }

    /// RetroArch's private environment command 0x800003 (RETRO_ENVIRONMENT_PRIVATE + 3).
    private static let clearAllThreadWaitsCommand: Int32 = 0x800003

    private func note(_ message: String) {
        Log.info("\(configuration.core.name) says: \(message)")
        messages.append(message)
        if messages.count > 20 { messages.removeFirst() }
    }

    private func readInputDescriptors(_ data: UnsafeMutableRawPointer?) -> [InputDescriptor] {
        guard var entry = data?.assumingMemoryBound(to: retro_input_descriptor.self) else { return [] }
        var result: [InputDescriptor] = []
        while let description = entry.pointee.description {
            result.append(InputDescriptor(port: Int(entry.pointee.port), device: Int(entry.pointee.device),
                                          index: Int(entry.pointee.index), id: Int(entry.pointee.id),
                                          description: String(cString: description)))
            entry += 1
        }
        return result
    }

    private func readLegacyVariables(_ data: UnsafeMutableRawPointer?) -> [CoreOptions.Definition] {
        guard var entry = data?.assumingMemoryBound(to: retro_variable.self) else { return [] }
        var result: [CoreOptions.Definition] = []
        while let key = entry.pointee.key {
            if let value = entry.pointee.value,
               let definition = CoreOptions.definition(key: String(cString: key), legacyValue: String(cString: value)) {
                result.append(definition)
            }
            entry += 1
        }
        return result
    }

    private func readOptionsV1(_ first: UnsafePointer<retro_core_option_definition>?) -> [CoreOptions.Definition] {
        guard var entry = first.map(UnsafeMutablePointer.init(mutating:)) else { return [] }
        var result: [CoreOptions.Definition] = []
        while let name = entry.pointee.key {
            let (choices, labels) = optionValues(&entry.pointee.values)
            result.append(CoreOptions.Definition(
                key: String(cString: name), description: Self.text(entry.pointee.desc), values: choices,
                defaultValue: entry.pointee.default_value.map { String(cString: $0) } ?? choices.first ?? "",
                info: Self.text(entry.pointee.info), labels: labels))
            entry += 1
        }
        return result
    }

    /// v2: the v1 fields plus a category (its description from `categories`).
    private func readOptionsV2(_ first: UnsafeMutablePointer<retro_core_option_v2_definition>?,
                               categories: UnsafeMutablePointer<retro_core_option_v2_category>?) -> [CoreOptions.Definition] {
        var categoryNames: [String: String] = [:]
        if var category = categories {
            while let key = category.pointee.key {
                categoryNames[String(cString: key)] = Self.text(category.pointee.desc)
                category += 1
            }
        }
        guard var entry = first else { return [] }
        var result: [CoreOptions.Definition] = []
        while let name = entry.pointee.key {
            let (choices, labels) = optionValues(&entry.pointee.values)
            let categoryKey = entry.pointee.category_key.map { String(cString: $0) } ?? ""
            result.append(CoreOptions.Definition(
                key: String(cString: name), description: Self.text(entry.pointee.desc), values: choices,
                defaultValue: entry.pointee.default_value.map { String(cString: $0) } ?? choices.first ?? "",
                info: Self.text(entry.pointee.info), category: categoryNames[categoryKey] ?? categoryKey, labels: labels))
            entry += 1
        }
        return result
    }

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }

    /// Reads a NULL-terminated fixed array of retro_core_option_value (imported as a tuple):
    /// the values, and their labels where the core gives one.
    private func optionValues<Tuple>(_ tuple: inout Tuple) -> ([String], [String: String]) {
        withUnsafeBytes(of: &tuple) { raw in
            let values = raw.bindMemory(to: retro_core_option_value.self)
            var result: [String] = []
            var labels: [String: String] = [:]
            for value in values {
                guard let text = value.value else { break }
                let string = String(cString: text)
                result.append(string)
                if let label = value.label { labels[string] = String(cString: label) }
            }
            return (result, labels)
        }
    }
}

extension AVInfo {
    init(_ info: retro_system_av_info) {
        let geometry = info.geometry
        self.init(baseWidth: Int(geometry.base_width), baseHeight: Int(geometry.base_height),
                  maxWidth: Int(geometry.max_width), maxHeight: Int(geometry.max_height),
                  aspectRatio: geometry.aspect_ratio > 0 ? Double(geometry.aspect_ratio) : nil,
                  framesPerSecond: info.timing.fps > 0 ? info.timing.fps : 60,
                  sampleRate: info.timing.sample_rate > 0 ? info.timing.sample_rate : 44100)
    }

    mutating func apply(_ geometry: retro_game_geometry) {
        baseWidth = Int(geometry.base_width)
        baseHeight = Int(geometry.base_height)
        aspectRatio = geometry.aspect_ratio > 0 ? Double(geometry.aspect_ratio) : nil
    }
}

// MARK: C trampolines: libretro callbacks have no context pointer, so they go through `current`.

private let environmentTrampoline: retro_environment_t = { command, data in
    CoreHost.current?.environment(command, data) ?? false
}

private let videoTrampoline: retro_video_refresh_t = { data, width, height, pitch in
    CoreHost.current?.video(data, width, height, pitch)
}

private let audioSampleTrampoline: retro_audio_sample_t = { left, right in
    var pair = (left, right)
    withUnsafeBytes(of: &pair) { raw in
        CoreHost.current?.audio(raw.bindMemory(to: Int16.self))
    }
}

private let audioBatchTrampoline: retro_audio_sample_batch_t = { data, frames in
    guard let data else { return 0 }
    CoreHost.current?.audio(UnsafeBufferPointer(start: data, count: frames * 2))
    return frames
}

/// The answer to GET_CLEAR_ALL_THREAD_WAITS_CB: Phosphor has no threads waiting on the core.
private let clearAllThreadWaitsTrampoline: retro_environment_t = { _, _ in true }

private let inputPollTrampoline: retro_input_poll_t = {
    CoreHost.current?.poll()
}

private let inputStateTrampoline: retro_input_state_t = { port, device, index, id in
    CoreHost.current?.inputState(port: port, device: device, index: index, id: id) ?? 0
}

private let coreLogSink: clibretro_log_sink = { level, message in
    guard let message else { return }
    let text = String(cString: message)
    if let host = CoreHost.current {
        host.log(level, text)
    } else {
        Log.info("core: \(text)")
    }
}
