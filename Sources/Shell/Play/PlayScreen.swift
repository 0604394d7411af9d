import Audio
import Emulation
import Foundation
import Input
import PhosphorKit
import Render

/// A game running in the terminal: owns the core thread and the audio output, turns key events
/// into buttons and actions, and draws the newest frame on every display tick.
///
/// Threading: UI thread only. The core runs on its own thread (`CoreThread`); frames, samples and
/// buttons cross over through the lock-free mailbox, ring and input state.
final class PlayScreen: Screen, ClosingScreen, SuspendingScreen, NotifiableScreen {
    let launch: GameLaunch
    let system: GameSystem
    let core: CoreInfo
    let thread: CoreThread
    let services: AppServices
    private(set) var audio: AudioOutput?
    private(set) var audioStatus: String?
    let input: PlayerInput
    /// Local gamepads (Linux evdev): one per player, hot-plugged, mapped per pad by gamepads.json.
    let gamepads: GamepadManager
    let picture: PlayPicture
    private(set) var skin: Skin
    let states: StateStore
    let gameKey: String
    /// The game's cheats (`cheats/<system>/<game>.json`) and how the core takes them.
    private(set) var cheatStore: CheatStore
    let cheatSupport: CoreCheatSupport

    private var lastFrame: VideoFrame?
    private var lastStatus = ""
    /// The status line is rebuilt at most every 100 ms (and after every event): string work on
    /// every frame cost more than the picture it sits under.
    private var nextStatusUpdate = ContinuousClock.now
    /// An event or a menu may have changed what the status line says: rebuild it on the next tick.
    private var statusStale = true
    private var lastGamepadNotice: String?
    /// Frames taken from the mailbox per second (lower than the game's fps when the UI falls behind).
    private var displayedFPS: Double = 0
    private var displayCount = 0
    private var displayWindowStart = ContinuousClock.now
    private var cadence = DisplayCadence()
    /// UI-thread CPU spent drawing frames, and how many were drawn (logged on exit).
    private var renderCPU = Duration.zero
    private var renderCount = 0
    private var needsRender = true
    private var fastForwardLatched = false
    private(set) var fastForwardSpeed: Double
    private(set) var slot: Int
    private var notice: (text: String, until: ContinuousClock.Instant)?
    private var startedAt = ContinuousClock.now
    private var closed = false
    private var pausedForSize = false
    /// The battery-save failure on screen (shown once per new failure).
    private var shownSaveFailure: String?
    private(set) var menuOpen = false
    var dsLayout: DSScreenLayout
    var statusBarVisible: Bool
    /// Called once when the screen closes, with the seconds played (library accounting).
    var onFinished: ((Int) -> Void)?

    init(launch: GameLaunch, services: AppServices, releaseEvents: Bool, terminal: TerminalSession) throws {
        self.launch = launch
        self.services = services
        let config = services.config
        let detected = try launch.system ?? RomCheck.inspect(launch.rom)
        core = try CoreSelection.core(for: launch.rom, system: detected, explicitCore: launch.explicitCore,
                                      preferences: config.corePreferences, catalog: services.catalog)
        guard let system = detected ?? core.systems.first else {
            throw EmulationError.unknownSystem(file: launch.rom.lastPathComponent)
        }
        self.system = system
        gameKey = GameIdentity.key(forROM: launch.rom)

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
        cheatSupport = core.cheatSupport
        cheatStore = CheatStore.load(from: CheatStore.file(paths: services.paths, system: system, gameKey: gameKey),
                                     system: system)
        thread = CoreThread(configuration: CoreHost.Configuration(core: core, rom: launch.rom, paths: services.paths,
                                                                  system: system),
                            options: CoreThread.Options(frameLimit: services.overrides.frameLimit,
                                                        cheats: cheatStore.list.coreCheats(cheatSupport),
                                                        muteWhileFastForwarding: config.audio.fastForwardAudio == .mute),
                            audioRing: audio == nil ? nil : ring)
        try thread.start()
        let (avInfo, coreVersion) = try thread.perform { ($0.avInfo, $0.coreVersion) }
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
                                               repeatGap: .milliseconds(config.hold.repeatGapMilliseconds)))
        let colorMode = (try? services.overrides.colorMode.map(ColorMode.init(argument:)))
            ?? config.video.colorMode.renderMode ?? ColorMode.detect(environment: ProcessInfo.processInfo.environment)
        picture = PlayPicture(colorMode: colorMode, integerScale: config.video.integerScale,
                              synchronizedOutput: terminal.synchronizedOutput)
        let skinResult = services.skins.skin(for: system)
        skin = skinResult.skin
        dsLayout = config.dsLayout
        statusBarVisible = config.video.showStatusBar
        fastForwardSpeed = Double(config.fastForward.effectiveSpeed(for: system).multiplier ?? 0)
        slot = config.lastStateSlots[gameKey] ?? 1
        states = StateStore(folder: services.paths.states.appendingPathComponent(system.rawValue),
                            game: GameIdentity(key: gameKey, system: system, romSize: Self.fileSize(launch.rom),
                                               coreName: core.name, coreVersion: coreVersion))

        let padMappings = GamepadMapping.loadOverrides(from: services.paths.gamepadMappings)
        gamepads = GamepadManager(overrides: padMappings.overrides)
        var notices = loaded.problems.map(\.description) + skinResult.errors.map(\.description)
        if let problem = padMappings.problem { notices.append(problem) }
        notices += cheatNotices()
        if let audioStatus { notices.append(audioStatus) }
        if let releaseNotice = input.notice { notices.append(releaseNotice) }
        if let first = notices.first { notify(first, seconds: 6) }
        for notice in notices { Log.warning(notice) }  // the screen shows only the first, briefly
        if launch.resume { loadState(.auto, quiet: true) }
    }

    /// What the player should know about the cheats at the start: a broken file, invalid codes,
    /// a core that ignores the cheats it has, or how many are on.
    private func cheatNotices() -> [String] {
        if let error = cheatStore.loadError { return ["\(error)"] }
        var notices = cheatStore.warnings.map(\.description)
        let on = cheatStore.list.enabledCount
        if on > 0 {
            if let reason = cheatSupport.unsupportedReason { notices.append("cheats not applied: \(reason)") }
            else { notices.append(Self.cheatCountText(on)) }
        }
        return notices
    }

    /// The pause menu's value for "Cheat Codes": "unsupported", "none", "all off", "2 on".
    var cheatSummary: String {
        if !cheatSupport.isSupported { return "unsupported" }
        let on = cheatStore.list.enabledCount
        if on > 0 { return "\(on) on" }
        return cheatStore.list.cheats.isEmpty ? "none" : "all off"
    }

    /// "1 cheat on", "3 cheats on".
    static func cheatCountText(_ count: Int) -> String { count == 1 ? "1 cheat on" : "\(count) cheats on" }

    /// Replaces the cheat list: handed to the core at once (the game may be paused) and saved to
    /// the game's file. Returns a one-line problem, or nil when both worked.
    func updateCheats(_ list: CheatList) -> String? {
        do {
            try cheatStore.update(list)
        } catch {
            if cheatStore.list != list { return "\(error)" }  // refused: the file is broken
            applyCheats()
            return "\(error)"
        }
        return applyCheats()
    }

    @discardableResult
    private func applyCheats() -> String? {
        let calls = cheatStore.list.coreCheats(cheatSupport)
        do {
            try thread.perform { try $0.setCheats(calls) }
        } catch {
            Log.error("\(error)")
            return "\(error)"
        }
        needsRender = true
        return nil
    }

    private static func fileSize(_ url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
    }

    // MARK: Screen

    func handle(_ event: InputEvent, now: ContinuousClock.Instant, actions: inout [AppAction]) -> EventResult {
        if case .key(let key) = event, key.kind != .release, key.modifiers == .control, key.key == .character("l") {
            picture.invalidate()
            needsRender = true
            return .consumed
        }
        if case .key(let key) = event, key.kind == .press, key.modifiers == .control, key.key == .character("c") {
            actions.append(launchedFromLibrary ? .returnToLibrary : .quit)
            return .consumed
        }
        for action in input.handle(event, now: now) { perform(action, actions: &actions) }
        // What a key changes shows in the next frame (the picture) or the status line (checked
        // on the next tick); notices ask for a render themselves.
        statusStale = true
        return .consumed
    }

    private var launchedFromLibrary: Bool { launch.gameID != nil }

    func perform(_ action: InputAction, actions: inout [AppAction]) {
        switch action {
        case .pauseMenu: openMenu(actions: &actions)
        case .fastForwardToggle:
            fastForwardLatched.toggle()
            notify(fastForwardLatched ? "fast-forward \(speedText)" : "normal speed")
        case .fastForwardHold: break
        case .quickSave: saveState(.quick)
        case .quickLoad: loadState(.quick)
        case .holdButtonToggle: break
        case .screenshot: takeScreenshot()
        case .stateSlotUp: changeSlot(by: 1)
        case .stateSlotDown: changeSlot(by: -1)
        case .reset:
            _ = try? thread.perform { $0.reset() }
            notify("reset")
        case .mute: toggleMute()
        case .quit: actions.append(launchedFromLibrary ? .returnToLibrary : .quit)
        }
    }

    /// Sound on/off (a key and the pause menu); remembered in the config.
    func toggleMute() {
        services.configStore.config.audio.muted.toggle()
        let muted = services.config.audio.muted
        audio?.setMuted(muted)
        notify(audio == nil ? (audioStatus ?? "no sound") : (muted ? "sound off" : "sound on"))
    }

    func openMenu(actions: inout [AppAction]) {
        thread.pause()
        audio?.setMuted(true)
        menuOpen = true
        input.releaseKeys()
        actions.append(.push(PauseMenu(play: self)))
    }

    /// The pause menu closed.
    func menuClosed() {
        menuOpen = false
        audio?.setMuted(services.config.audio.muted)
        resumeUnlessHeld()
        statusStale = true
        picture.invalidate()
        needsRender = true
    }

    var drawsOnTicks: Bool { true }

    func becameTop() {
        statusStale = true
        picture.invalidate()
        needsRender = true
    }

    func tick(now: ContinuousClock.Instant, context: DrawContext, actions: inout [AppAction]) -> Duration? {
        let status = thread.currentStatus
        switch status.state {
        case .stopped, .crashed:
            if case .crashed(let message) = status.state { services.exitMessage = message }
            actions.append(launchedFromLibrary ? .returnToLibrary : .quit)
            return nil
        default:
            break
        }
        if !menuOpen {
            let speed = (fastForwardLatched || input.isFastForwardHeld(now: now)) ? fastForwardSpeed : 1
            if speed != status.speed {
                thread.setSpeed(speed)
                audio?.setSpeed(speed == 0 ? 8 : speed)
            }
            gamepads.poll(now: now)
            input.gamepadButtons = gamepads.masks
            if let notice = gamepads.notice, notice != lastGamepadNotice {
                lastGamepadNotice = notice
                notify(notice, seconds: 6)
            }
            for port in 0..<2 { thread.input.set(input.buttons(port: port, now: now), port: port) }
            let pointer = input.pointer
            thread.input.setPointer(x: pointer.x, y: pointer.y, pressed: pointer.pressed)
        }
        if let audio, let rate = status.avInfo?.sampleRate, rate != audio.sourceRate {
            // The core changed its timing (SET_SYSTEM_AV_INFO): resample from the new rate.
            try? audio.setSourceRate(rate)
            thread.audioHighWater = audio.ringHighWater
        }
        if status.batterySaveFailure != shownSaveFailure {
            shownSaveFailure = status.batterySaveFailure
            if let failure = shownSaveFailure { notify(failure, seconds: 8) }
        }
        if let frame = thread.mailbox.takeLatest() {
            countShownFrame()
            // Most games repeat identical frames often; drawing them again would only cost CPU.
            if !(lastFrame.map(frame.hasSamePicture) ?? false) {
                needsRender = true
            }
            lastFrame = frame
        }
        if statusStale || now >= nextStatusUpdate {
            statusStale = false
            nextStatusUpdate = now + .milliseconds(100)
            let statusLine = statusText(status)
            if statusLine != lastStatus {
                lastStatus = statusLine
                needsRender = true
            }
        }
        if let current = notice, now > current.until {
            notice = nil
            needsRender = true
        }
        if needsRender && !menuOpen {
            needsRender = false
            let before = try? ThreadCPUTime.current()
            render(context: context, status: status)
            if let before, let after = try? ThreadCPUTime.current() { renderCPU += after - before }
            renderCount += 1
        }
        let fps = min(max(status.avInfo?.framesPerSecond ?? 60, 30), 60)
        return cadence.timeUntilNextTick(now: now, period: .nanoseconds(Int64(1e9 / fps)))
    }

    func draw(in context: DrawContext) {
        // The picture is drawn on ticks; a draw request (resize, overlay closed) repaints it.
        let status = thread.currentStatus
        lastStatus = statusText(status)
        render(context: context, status: status)
    }

    private func render(context: DrawContext, status: CoreThread.Status) {
        let columns = context.columns
        let rows = context.rows
        let layout = currentLayout(columns: columns, rows: rows)
        let tooSmall = layout.isTooSmall || context.terminal.isTooSmall
        if tooSmall != pausedForSize {
            pausedForSize = tooSmall
            if tooSmall { thread.pause() } else { resumeUnlessHeld() }
        }
        updateTouchScreen(layout)
        let content = PlayPicture.Content(
            frame: lastFrame, layout: layout, skin: skin, aspectRatio: status.avInfo?.aspectRatio,
            legend: legendEntries(for: layout), status: lastStatus, statusRight: notice?.text ?? "",
            tooSmallMessage: tooSmall
                ? "Terminal too small: \(columns)x\(rows), this skin needs \(max(layout.requiredColumns, TerminalSession.minimumColumns))x\(max(layout.requiredRows, TerminalSession.minimumRows))"
                : nil)
        context.writeRaw(picture.render(content, columns: columns, rows: rows))
    }

    /// Lets the game run again unless the menu or a too-small window still holds it. The
    /// shown-frames count starts again (a window spanning the pause would report "shown 1").
    private func resumeUnlessHeld() {
        guard !menuOpen, !pausedForSize else { return }
        thread.resume()
        displayCount = 0
        displayedFPS = 0
        displayWindowStart = .now
    }

    /// Counts a frame the UI took from the mailbox (the rest were overwritten unseen).
    private func countShownFrame() {
        displayCount += 1
        let now = ContinuousClock.now
        if now - displayWindowStart >= .seconds(1) {
            displayedFPS = Double(displayCount) / (now - displayWindowStart).inSeconds
            displayCount = 0
            displayWindowStart = now
        }
    }

    func currentLayout(columns: Int, rows: Int) -> SkinLayout {
        let statusRows = statusBarVisible ? 1 : 0
        if system == .nds {
            return skin.layout(terminalColumns: columns, rows: rows, statusBarRows: statusRows, dsLayout: dsLayout)
        }
        return skin.layout(terminalColumns: columns, rows: rows, statusBarRows: statusRows)
    }

    private func updateTouchScreen(_ layout: SkinLayout) {
        guard system == .nds else { return }
        // The touch screen is the one whose source is the bottom half of the DS frame.
        if let bottom = layout.screens.first(where: { ($0.source?.y ?? 0) > 0 }) {
            input.touchScreen = bottom.cells
        } else {
            input.touchScreen = nil
        }
    }

    private func legendEntries(for layout: SkinLayout) -> [(label: String, keys: [String])] {
        guard let legend = layout.legend else { return [] }
        return legend.buttons.map { button in
            let keys = input.keyMap.keys(for: .button(port: 0, button)).map(\.name)
            return (system.label(for: button), Array(keys.prefix(2)))
        }
    }

    var speedText: String { fastForwardSpeed == 0 ? "unlimited" : "\(Int(fastForwardSpeed))x" }

    private func statusText(_ status: CoreThread.Status) -> String {
        // Paused (menu, Ctrl-Z, too small): the last second's fps would be stale. The menu
        // counts at once (the core thread takes the pause request a moment later).
        let paused = status.state == .paused || menuOpen || pausedForSize
        let rate = paused ? "paused" : "\(Int(status.measuredFPS.rounded())) fps"
        var parts = ["\(system.shortName)", rate]
        // A slow terminal drops frames (the newest wins): say how many it really shows.
        if !paused, displayedFPS > 0, displayedFPS < min(status.measuredFPS, 60) * 0.9 { parts[1] += " (shown \(Int(displayedFPS)))" }
        if status.speed != 1 { parts.append(status.speed == 0 ? "▶▶ max" : "▶▶ \(Int(status.speed))x") }
        if let held = input.holdStatusText { parts.append(held) }
        if input.holdButtons.isArmed { parts.append("HOLD: press a button") }
        parts.append("slot \(slot)")
        let cheatsOn = cheatStore.list.enabledCount
        if cheatsOn > 0, cheatSupport.isSupported { parts.append(cheatsOn == 1 ? "1 cheat" : "\(cheatsOn) cheats") }
        if let audio {
            if audio.isMuted { parts.append("muted") } else { parts.append("vol \(Int((audio.volume * 100).rounded()))%") }
            if audio.underruns > 0 { parts.append("xrun \(audio.underruns)") }
        } else {
            parts.append("no sound")
        }
        return parts.joined(separator: " · ")
    }

    func notify(_ message: String) { notify(message, seconds: 3) }

    func notify(_ message: String, seconds: Int) {
        notice = (DisplayText.sanitized(message), .now + .seconds(seconds))
        needsRender = true
    }

    // MARK: States, screenshots, slots

    func saveState(_ slot: StateSlot, quiet: Bool = false) {
        do {
            let bytes = try thread.perform { try $0.serializeState() }
            try states.save(bytes, to: slot, screenshot: lastFrame)
            if !quiet { notify("saved \(slot)") }
        } catch {
            notify("\(error)", seconds: 5)
            Log.error("\(error)")
        }
    }

    func loadState(_ slot: StateSlot, quiet: Bool = false) {
        do {
            let current = try thread.perform { try $0.serializeState() }
            let loaded = try states.load(slot, currentState: current)
            try thread.perform { try $0.unserializeState(loaded.bytes) }
            for warning in loaded.warnings { Log.warning(warning) }
            if !quiet { notify("loaded \(slot)") }
        } catch {
            if !quiet || !"\(error)".contains("empty") { notify("\(error)", seconds: 5) }
            Log.error("\(error)")
        }
    }

    func undoLoad() {
        do {
            let current = try thread.perform { try $0.serializeState() }
            let previous = try states.undoLastLoad(currentState: current)
            try thread.perform { try $0.unserializeState(previous) }
            notify("undid the last load")
        } catch {
            notify("\(error)", seconds: 5)
        }
    }

    func takeScreenshot() {
        guard let lastFrame else { return notify("no picture yet") }
        do {
            let file = try ScreenshotWriter.write(lastFrame, game: gameKey, folder: services.paths.screenshots)
            notify("screenshot \(file.lastPathComponent)")
        } catch {
            notify("screenshot failed: \(error)", seconds: 5)
        }
    }

    func changeSlot(by delta: Int) {
        slot = (slot - 1 + delta + 9) % 9 + 1
        notify("state slot \(slot)")
        services.configStore.config.lastStateSlots[gameKey] = slot
    }

    func setFastForwardSpeed(_ speed: Double) { fastForwardSpeed = speed }

    func setColorMode(_ mode: ColorMode) {
        picture.colorMode = mode
        needsRender = true
    }

    // MARK: Closing and suspending

    func close() {
        guard !closed else { return }
        closed = true
        // The automatic state needs a running core (not after a crash or the --frames limit).
        switch thread.currentStatus.state {
        case .running, .paused, .starting: saveState(.auto, quiet: true)
        case .stopped, .crashed: break
        }
        thread.stop()
        logThreadCPU()
        audio?.stop()
        gamepads.closeAll()
        _ = services.saveConfig()
        let seconds = Int((ContinuousClock.now - startedAt).components.seconds)
        onFinished?(seconds)
    }

    /// One log line with where the CPU went (Bench/peer/compare.py reads it): the core thread's
    /// time (emulation, frame copies, pacing) and the UI thread's (input, picture, terminal),
    /// the latter including start-up and the browser if it ran first.
    private func logThreadCPU() {
        let status = thread.currentStatus
        guard let core = status.threadCPU, let ui = try? ThreadCPUTime.current() else { return }
        Log.info("cpu: frames=\(status.frameCount) core-thread=\(String(format: "%.4f", core.inSeconds)) "
                 + "ui-thread=\(String(format: "%.4f", ui.inSeconds)) drawn=\(renderCount) "
                 + "drawing=\(String(format: "%.4f", renderCPU.inSeconds))")
    }

    func willSuspend() {
        thread.pause()
        audio?.setMuted(true)
    }

    func didResume() {
        input.releaseKeys()
        audio?.setMuted(services.config.audio.muted)
        resumeUnlessHeld()
        picture.invalidate()
        needsRender = true
    }
}
