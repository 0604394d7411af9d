import Audio
import Emulation
import Foundation
import Input
import PhosphorKit
import Render
import Terminal

/// The running game: its core thread, sound, gamepads, save states, cheats and play settings.
/// The play screen draws it and turns keys into its calls; the pause menu and its screens change
/// it only through `GameCommand`s (the app hands them over) and read it through `snapshot`.
/// Play settings live once, in the configuration (`services.configStore`), and are read from there.
///
/// Its commands are in GameSession+Commands.swift, its states and screenshots in
/// GameSession+States.swift.
///
/// Threading: UI thread only. The core runs on its own thread (`CoreThread`); frames, samples
/// and buttons cross over through the lock-free mailbox, ring and input state.
final class GameSession {
    /// Why the game is paused; it runs when there is none.
    enum PauseReason: Hashable {
        /// `player`: the pause key (no menu), so frame advance can step the game.
        case menu, terminalTooSmall, suspended, player
    }

    let launch: GameLaunch
    let system: GameSystem
    let core: CoreInfo
    let gameKey: String
    let thread: CoreThread
    let input: PlayerInput
    /// Local gamepads (Linux evdev): one per player, hot-plugged, mapped per pad by gamepads.json.
    let gamepads: GamepadManager
    let states: StateStore
    /// Held while the game runs: one copy per game (`GameLock`).
    let lock: GameLock?
    let services: AppServices
    private(set) var audio: AudioOutput?
    private(set) var audioStatus: String?
    /// The game's cheats (`cheats/<system>/<game>.json`) and how the core takes them.
    var cheatStore: CheatStore
    let cheatSupport: CoreCheatSupport
    /// The colour mode from `--color` for this run; a choice in the menu replaces it.
    var colorModeOverride: ColorMode?
    var videoModeOverride: VideoModeChoice?
    /// What the environment says the terminal shows (COLORTERM, TERM), read once: the play
    /// screen asks for `colorMode` on every tick.
    private let detectedColorMode: ColorMode
    private(set) var pauseReasons: Set<PauseReason> = []
    var fastForwardLatched = false
    /// The rewind key was held on the last tick (the core thread was told).
    private var rewindHeld = false
    /// The rewind/run-ahead problem already shown (shown once per new problem).
    private var shownTimelineProblem: String?
    /// The battery-save failure on screen (shown once per new failure).
    private var shownSaveFailure: String?
    private var lastGamepadNotice: String?
    private var padAppActions: [InputAction] = []
    /// The pad button that a key-map capture waits for.
    var capturingPadButton: GamepadBindingTarget?
    /// Outcomes that came from a tick rather than a command (a captured pad button).
    var tickOutcomes: [GameCommandOutcome] = []
    private var closed = false
    private let startedAt: ContinuousClock.Instant
    /// The newest frame the play screen showed (screenshots and state previews use it).
    var lastFrame: VideoFrame?
    /// The status bar's messages: the one showing, and the start notices waiting their turn.
    private var notices = NoticeQueue()
    /// The one-line message for the status bar, until its time is up.
    var notice: (text: String, until: ContinuousClock.Instant)? { notices.current.map { ($0.text, $0.until) } }
    /// Called once when the game closes, with the seconds played (library accounting).
    var onFinished: ((Int) -> Void)?

    /// `keyRelease`: the side channel for key releases (XInput2, evdev) when the terminal has none.
    init(launch: GameLaunch, services: AppServices, releaseEvents: Bool,
         keyRelease: KeyReleaseSourceOpening = KeyReleaseSourceOpening(source: nil, notice: nil),
         now: ContinuousClock.Instant) throws {
        self.launch = launch
        self.services = services
        startedAt = now
        let config = services.config
        let setup = try GameSetup(rom: launch.rom, system: launch.system, explicitCore: launch.explicitCore,
                                  config: config, catalog: services.catalog, paths: services.paths,
                                  archive: launch.archive)
        guard let system = setup.system else {
            let file = launch.rom.lastPathComponent
            throw launch.explicitCore.map { EmulationError.unknownSystemForCore(file: file, core: $0.lastPathComponent) }
                ?? EmulationError.unknownSystem(file: file)
        }
        self.system = system
        core = setup.core
        gameKey = setup.gameKey
        // Before the core loads its battery save: a second copy must not even start writing.
        lock = try GameLock.acquire(GameLock.file(states: services.paths.states, system: system.rawValue, gameKey: setup.gameKey),
                                    game: launch.rom.lastPathComponent)

        // Audio first: its high-water mark paces the core thread at 1x.
        var audio: AudioOutput?
        if services.overrides.noAudio {
            audioStatus = "sound off"
        } else {
            do {
                audio = try AudioOutput(device: services.overrides.audioDevice ?? config.audio.device,
                                        latency: .milliseconds(config.audio.latencyMilliseconds),
                                        fastForward: config.audio.fastForwardAudio == .spedUp ? .spedUp : .muted)
            } catch {
                audioStatus = "no sound: \(error)"
                Log.warning("\(error)")
            }
        }
        let ring = SampleRing(minimumCapacity: 48_000)
        cheatSupport = setup.core.cheatSupport
        cheatStore = CheatStore.load(from: CheatStore.file(paths: services.paths, system: system, gameKey: gameKey),
                                     system: system)
        let options = CoreThread.Options(frameLimit: services.overrides.frameLimit,
                                         cheats: cheatStore.list.coreCheats(cheatSupport),
                                         muteWhileFastForwarding: config.audio.fastForwardAudio == .mute,
                                         rewind: config.timeline.rewindSettings,
                                         runAhead: config.timeline.runAhead(system: system, gameKey: gameKey).mode)
        thread = setup.makeThread(paths: services.paths, options: options, audioRing: audio == nil ? nil : ring,
                                  makeCore: services.overrides.makeCore)
        // Loaded paused: with `--frames 1` the game could otherwise end before these questions
        // reach the core thread ("the game stopped").
        thread.pause()
        try thread.start()
        let (avInfo, coreVersion) = try thread.perform { ($0.avInfo, $0.coreVersion) }
        let (optionStates, optionProblems) = try thread.perform { ($0.coreOptions, $0.coreOptionProblems) }
        thread.resume()
        coreOptionStates = optionStates
        if let audio {
            do {
                audio.setVolume(Double(config.audio.volume) / 100)
                audio.setMuted(config.audio.muted)
                try audio.start(ring: ring, sourceRate: avInfo.sampleRate)
                thread.audioHighWater = audio.ringHighWater  // follows the rate given to start
            } catch {
                audioStatus = "no sound: \(error)"
            }
        }
        self.audio = audioStatus == nil ? audio : nil

        let keyMaps = KeyMapStore(paths: services.paths)
        let loaded = keyMaps.load(system: system, game: gameKey)
        input = PlayerInput(system: system, keyMap: loaded.map, releaseEvents: releaseEvents,
                            timing: HoldTiming(initialDelay: .milliseconds(config.hold.initialDelayMilliseconds),
                                               repeatGap: .milliseconds(config.hold.repeatGapMilliseconds)),
                            releaseSource: keyRelease.source)
        if let repeatTiming = keyRelease.repeatTiming { input.adoptRepeatTiming(repeatTiming) }
        colorModeOverride = try? services.overrides.colorMode.map(ColorMode.init(argument:))
        videoModeOverride = services.overrides.videoMode
        detectedColorMode = ColorMode.detect(environment: services.environment,
                                             terminfo: CursesWindow.terminalName.isEmpty ? nil
                                                 : (CursesWindow.paletteSize, CursesWindow.hasDirectColor))
        var store = StateStore(folder: setup.stateFolder(paths: services.paths, system: system),
                               game: GameIdentity(key: gameKey, system: system, romSize: Self.fileSize(launch.rom),
                                                  coreName: core.name, coreVersion: coreVersion))
        store.writesRetroArchContainer = setup.retroArch != nil
        states = store

        let padMappings = GamepadMapping.loadOverrides(from: services.paths.gamepadMappings)
        gamepads = GamepadManager(overrides: padMappings.overrides)
        // The N64's stick is its own input: it must not also press the d-pad.
        gamepads.leftStickAsDirections = !system.hasAnalogStick
        // Default pad actions only on pad buttons this console does not use.
        gamepads.usedButtons = Set(system.buttons)
        for pad in services.overrides.gamepads { gamepads.attach(pad) }
        var notices = loaded.problems.map(\.description)
        if let firmwareNotice = setup.firmwareNotice { notices.append(firmwareNotice) }
        notices += optionProblems
        if let problem = padMappings.problem { notices.append(problem) }
        notices += Self.cheatNotices(cheatStore, support: cheatSupport)
        if let audioStatus { notices.append(audioStatus) }
        // The source's notice (which one is in use, or the evdev permission hint) says it all.
        if let sourceNotice = keyRelease.notice { notices.append(sourceNotice) } else if let releaseNotice = input.notice {
            notices.append(releaseNotice)
        }
        startNotices = notices
        if launch.resume, let skipped = resumeAutoState(now: now) { startNotices.insert(skipped, at: 0) }
    }

    /// The core's options as the core thread last reported them (the Core Options screen's snapshot).
    var coreOptionStates: [CoreOptionState] = []

    /// Problems and facts worth saying at the start (the play screen adds its skin's and shows
    /// the first; all go to the log).
    private(set) var startNotices: [String] = []

    /// What the player should know about the cheats at the start: a broken file, invalid codes,
    /// a core that ignores the cheats it has, or how many are on.
    private static func cheatNotices(_ cheatStore: CheatStore, support cheatSupport: CoreCheatSupport) -> [String] {
        if let error = cheatStore.loadError { return ["\(error)"] }
        var notices = cheatStore.warnings.map(\.description)
        let on = cheatStore.list.enabledCount
        if on > 0 {
            if let reason = cheatSupport.unsupportedReason { notices.append("cheats not applied: \(reason)") }
            else { notices.append(CheatSnapshot.countText(on)) }
        }
        return notices
    }

    private static func fileSize(_ url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
    }

    // MARK: Settings (stored once, in the configuration)

    var config: PhosphorConfig { services.config }

    var launchedFromLibrary: Bool { launch.gameID != nil }
    var slot: Int { config.lastStateSlots[gameKey] ?? 1 }
    var fastForwardSpeed: Double { Double(config.fastForward.effectiveSpeed(for: system).multiplier ?? 0) }
    var speedText: String { fastForwardSpeed == 0 ? "unlimited" : "\(Int(fastForwardSpeed))x" }
    var dsLayout: DSScreenLayout { config.dsLayout }
    var statusBarVisible: Bool { config.video.showStatusBar }
    var integerScale: Bool { config.video.integerScale }
    var showsVideoStats: Bool { services.overrides.videoStats }
    var linkPacing: Bool { !services.overrides.noLinkPacing }
    var colorMode: ColorMode {
        colorModeOverride ?? config.video.colorMode.renderMode ?? detectedColorMode
    }
    /// Half blocks or pixels, as chosen (`--video` until the pause menu changes it).
    var videoMode: VideoModeChoice { videoModeOverride ?? config.video.videoMode }
    var enabledCheatCount: Int { cheatSupport.isSupported ? cheatStore.list.enabledCount : 0 }

    var snapshot: GameSnapshot {
        GameSnapshot(system: system, launchedFromLibrary: launchedFromLibrary, slot: slot, fastForwardText: speedText,
                     holdText: input.holdStatusText, heldButtons: input.holdButtons.held, colorMode: colorMode,
                     videoMode: videoMode,
                     volume: audio.map { Int(($0.volume * 100).rounded()) }, muted: config.audio.muted,
                     audioStatus: audioStatus, dsLayout: dsLayout, statusBarVisible: statusBarVisible,
                     canUndoLoad: states.canUndoLoad, stateSlots: states.list(), keyMap: input.keyMap,
                     cheats: CheatSnapshot(list: cheatStore.list, loadError: cheatStore.loadError.map { "\($0)" },
                                           unsupportedReason: cheatSupport.unsupportedReason, note: cheatSupport.note),
                     coreOptions: coreOptionStates, timeline: timelineSnapshot)
    }

    // MARK: Running and pausing

    /// Holds the game for `reason` (or lets go of it); it runs while no reason holds it.
    func setPaused(_ paused: Bool, for reason: PauseReason) {
        let wasPaused = !pauseReasons.isEmpty
        if paused { pauseReasons.insert(reason) } else { pauseReasons.remove(reason) }
        let isPaused = !pauseReasons.isEmpty
        guard wasPaused != isPaused else { return }
        if isPaused {
            thread.pause()
            audio?.setMuted(true)
            input.releaseKeys()
            if rewindHeld {
                rewindHeld = false
                thread.setRewinding(false)
            }
        } else {
            audio?.setMuted(config.audio.muted)
            thread.resume()
        }
    }

    var isPaused: Bool { !pauseReasons.isEmpty }
    var isHeldByMenu: Bool { pauseReasons.contains(.menu) }

    /// Once per display tick, before the frame is taken: speed, pads, buttons, sound rate,
    /// battery-save failures. Returns the core's status.
    func tick(now: ContinuousClock.Instant) -> CoreThread.Status {
        let status = thread.currentStatus
        if !isHeldByMenu {
            // Pads are read while playing and while the player paused (their pause and frame
            // advance buttons work then); under a menu the menu has the input.
            gamepads.poll(now: now)
            padAppActions += perform(input.takeGamepadActions(gamepads.actions), now: now)
            if let notice = gamepads.notice, notice != lastGamepadNotice {
                lastGamepadNotice = notice
                notify(notice, seconds: 6, now: now)
            }
        }
        if !isPaused {
            let speed = (fastForwardLatched || input.isFastForwardHeld(now: now)) ? fastForwardSpeed
                : input.isHeld(.slowMotionHold, now: now) ? config.timeline.slowMotion.fraction : 1
            if speed != status.speed {
                thread.setSpeed(speed)
                // Slow motion plays no sound (the core thread mutes it): the device stays at 1x.
                audio?.setSpeed(speed == 0 ? 8 : max(speed, 1))
            }
            let rewinding = input.isHeld(.rewind, now: now)
            if rewinding != rewindHeld {
                rewindHeld = rewinding
                thread.setRewinding(rewinding)
                if rewinding, status.rewindStates == 0 {
                    notify(status.timelineProblem ?? (config.timeline.rewind ? "nothing to rewind yet"
                        : "rewind is off (pause menu, Rewind & Run-Ahead)"), now: now)
                }
            }
            input.gamepadButtons = gamepads.masks
            input.gamepadSticks = gamepads.sticks
            if let ended = input.pollReleaseSource(playing: true) { notify(ended, seconds: 6, now: now) }
            for port in 0..<2 {
                let mask = input.buttons(port: port, now: now)
                thread.input.set(mask, port: port)
                logButtonChange(mask, port: port, now: now)
                for stick in AnalogStick.allCases {
                    thread.input.setStick(stick, to: input.stick(stick, port: port, now: now), port: port)
                }
            }
            let pointer = input.pointer
            thread.input.setPointer(x: pointer.x, y: pointer.y, pressed: pointer.pressed)
        } else {
            _ = input.pollReleaseSource(playing: false)
            if capturingPadButton != nil { pollCapturedPadButton(now: now) }
        }
        if let audio, let rate = status.avInfo?.sampleRate, rate != audio.sourceRate {
            // The core changed its timing (SET_SYSTEM_AV_INFO): resample from the new rate.
            try? audio.setSourceRate(rate)
            thread.audioHighWater = audio.ringHighWater
        }
        if status.timelineProblem != shownTimelineProblem {
            shownTimelineProblem = status.timelineProblem
            if let problem = shownTimelineProblem { notify(problem, seconds: 8, now: now) }
        }
        if status.batterySaveFailure != shownSaveFailure {
            shownSaveFailure = status.batterySaveFailure
            if let failure = shownSaveFailure { notify(failure, seconds: 8, now: now) }
        }
        notices.tick(now: now)
        return status
    }

    /// The buttons each port held at the last change, for the log.
    private var loggedButtons: [ButtonMask] = [[], []]
    private var loggedRepeat: RepeatTiming?

    /// Logs each change of a port's buttons with the time since the start (the end-to-end tests
    /// read how long a key was held from these lines), and a newly measured autorepeat.
    private func logButtonChange(_ mask: ButtonMask, port: Int, now: ContinuousClock.Instant) {
        if let measured = input.holdModel.measuredRepeat, measured != loggedRepeat {
            loggedRepeat = measured
            Log.info("autorepeat measured: first repeat after \(Int(measured.delay.inSeconds * 1000)) ms, then every \(Int(measured.interval.inSeconds * 1000)) ms")
        }
        guard mask != loggedButtons[port] else { return }
        loggedButtons[port] = mask
        Log.debug("buttons port \(port): \(mask.rawValue) at \(Int((now - startedAt).inSeconds * 1000)) ms (\(input.holdSourceName))")
    }

    /// Outcomes that arrived on a tick (a pad button bound while the key-map screen waited).
    func takeTickOutcomes() -> [GameCommandOutcome] {
        defer { tickOutcomes.removeAll() }
        return tickOutcomes
    }

    /// A key the player pressed: its buttons go to the core on the next tick; actions are
    /// carried out here, except those for the app (the pause menu, quitting), which are returned.
    func handle(_ event: InputEvent, now: ContinuousClock.Instant) -> [InputAction] {
        perform(input.handle(event, now: now), now: now)
    }

    /// Pad buttons' actions for the app (the pause menu, quitting) from the last ticks; the play
    /// screen takes them after each `tick`, as it does `handle`'s result.
    func takePadAppActions() -> [InputAction] {
        defer { padAppActions.removeAll() }
        return padAppActions
    }

    /// Carries out actions from a key or a pad button, returning those for the app.
    private func perform(_ actions: [InputAction], now: ContinuousClock.Instant) -> [InputAction] {
        var forApp: [InputAction] = []
        for action in actions {
            switch action {
            case .pauseMenu, .quit: forApp.append(action)
            case .fastForwardToggle:
                fastForwardLatched.toggle()
                notify(fastForwardLatched ? "fast-forward \(speedText)" : "normal speed", now: now)
            case .fastForwardHold, .holdButtonToggle: break  // states PlayerInput keeps
            case .quickSave: saveState(.quick, now: now)
            case .quickLoad: loadState(.quick, now: now)
            case .screenshot: _ = takeScreenshot(now: now)
            case .stateSlotUp: changeSlot(by: 1, now: now)
            case .stateSlotDown: changeSlot(by: -1, now: now)
            case .reset: reset(now: now)
            case .mute: toggleMute(now: now)
            case .rewind, .slowMotionHold: break  // states PlayerInput keeps
            case .pauseToggle:
                let paused = !pauseReasons.contains(.player)
                setPaused(paused, for: .player)
                notify(paused ? "paused: \(frameAdvanceKeyName) runs one frame" : "playing", now: now)
            case .frameAdvance: advanceFrame(now: now)
            }
        }
        return forApp
    }

    // MARK: Messages

    func notify(_ message: String, seconds: Int = 3, now: ContinuousClock.Instant) {
        notices.show(DisplayText.sanitized(message), seconds: seconds, now: now)
    }

    /// Shows each message in turn after what is showing, `seconds` each (the start notices).
    func queueNotices(_ messages: [String], seconds: Int, now: ContinuousClock.Instant) {
        for message in messages { notices.enqueue(DisplayText.sanitized(message), seconds: seconds, now: now) }
    }

    // MARK: Closing

    /// Writes the automatic state, stops the core (its battery save is written on unload), the
    /// sound and the pads, and saves the settings. Safe to call more than once.
    func close(now: ContinuousClock.Instant) {
        guard !closed else { return }
        closed = true
        // The automatic state needs a running core (not after a crash or the --frames limit).
        switch thread.currentStatus.state {
        case .running, .paused, .starting: saveAutoState(now: now)
        case .stopped, .crashed: break
        }
        thread.stop()
        audio?.stop()
        gamepads.closeAll()
        input.stopReleaseSource()
        _ = services.saveConfig()
        lock?.release()
        onFinished?(Int((now - startedAt).components.seconds))
    }
}
