import Emulation
import Foundation
import Input
import PhosphorKit
import Render

/// What the pause menu and its screens ask of the game (`GameCommand`), and the cheats. UI thread only.
extension GameSession {
    // MARK: Commands

    /// Carries out a command from a menu and says how it went.
    func perform(_ command: GameCommand, now: ContinuousClock.Instant) -> GameCommandOutcome {
        var outcome = GameCommandOutcome(command: command)
        if let problem = performTimeline(command) {
            outcome.problem = problem
            return outcome
        }
        switch command {
        case .saveState(let slot): outcome.problem = saveState(slot, now: now)
        case .loadState(let slot): outcome.problem = loadState(slot, now: now)
        case .undoLoad: outcome.problem = undoLoad(now: now)
        case .setStateLocked(let slot, let locked):
            outcome.problem = attempt { try states.setLocked(locked, slot) }
        case .deleteState(let slot): outcome.problem = attempt { try states.delete(slot) }
        case .undoSave(let slot): outcome.problem = attempt { _ = try states.undoLastSave(slot) }
        case .selectSlot(let number): changeSlot(by: number - slot, now: now)
        case .reset: reset(now: now)
        case .screenshot: outcome.problem = takeScreenshot(now: now)
        case .stepFastForwardSpeed(let step):
            let maximum = config.fastForward.maximumPerSystem[system]
            let allowed = FastForwardSpeed.allCases.filter { maximum == nil || $0 <= maximum! }
            let current = allowed.firstIndex { Double($0.multiplier ?? 0) == fastForwardSpeed } ?? 0
            services.configStore.config.fastForward.speed = allowed[(current + step + allowed.count) % allowed.count]
        case .stepColorMode(let step):
            let modes = ColorMode.allCases
            let index = modes.firstIndex(of: colorMode) ?? 0
            let next = modes[(index + step + modes.count) % modes.count]
            colorModeOverride = nil
            services.configStore.config.video.colorMode = ColorModeChoice(rawValue: next.rawValue) ?? .auto
        case .stepVideoMode(let step):
            let modes = VideoModeChoice.allCases
            let index = modes.firstIndex(of: videoMode) ?? 0
            videoModeOverride = nil
            services.configStore.config.video.videoMode = modes[(index + step + modes.count) % modes.count]
        case .stepVolume(let step):
            guard let audio else { outcome.problem = audioStatus ?? "no sound"; break }
            let volume = min(100, max(0, Int((audio.volume * 100).rounded()) + step * 10))
            audio.setVolume(Double(volume) / 100)
            services.configStore.config.audio.volume = volume
        case .toggleMute: toggleMute(now: now)
        case .stepDSLayout(let step):
            let layouts = DSScreenLayout.allCases
            let index = layouts.firstIndex(of: dsLayout) ?? 0
            services.configStore.config.dsLayout = layouts[(index + step + layouts.count) % layouts.count]
        case .toggleStatusBar: services.configStore.config.video.showStatusBar.toggle()
        case .setCheats(let list): outcome.problem = updateCheats(list)
        case .addCheat(let cheat):
            var list = cheatStore.list
            list.cheats.append(cheat)
            outcome.problem = updateCheats(list)
        case .importCheats(let cheats, let summary):
            var list = cheatStore.list
            list.cheats += cheats
            outcome.problem = updateCheats(list)
            outcome.message = summary
        case .setCoreOption(let key, let value, let forThisGame):
            outcome.problem = setCoreOption(key: key, value: value, forThisGame: forThisGame, now: now)
        case .toggleHeldButton(let button): input.holdButtons.toggle(button)
        case .releaseHeldButtons: input.holdButtons.releaseAll()
        case .setKeyMap(let map):
            input.setKeyMap(map)
            do {
                try KeyMapStore(paths: services.paths).save(map)
                notify("key map saved", now: now)
            } catch {
                outcome.problem = "key map not saved: \(error)"
                notify(outcome.problem!, seconds: 5, now: now)
            }
        case .toggleRewind, .stepRewindGranularity, .stepRewindBuffer, .stepRunAhead, .stepSlowMotion:
            break  // performTimeline
        case .captureGamepadButton(let button):
            capturingPadButton = button
            _ = gamepads.takeLastButtonPress()  // only presses from now on count
        }
        return outcome
    }

    private func attempt(_ body: () throws -> Void) -> String? {
        do { try body() } catch {
            Log.error("\(error)")
            return ErrorText.line(error)
        }
        return nil
    }

    /// While the key-map screen waits for a pad button, the game is paused: poll the pads here.
    func pollCapturedPadButton(now: ContinuousClock.Instant) {
        guard let target = capturingPadButton else { return }
        gamepads.poll(now: now)
        guard let press = gamepads.takeLastButtonPress() else { return }
        capturingPadButton = nil
        let label: String
        switch target {
        case .button(let button):
            gamepads.bind(code: press.code, to: button, onPad: press.pad)
            label = system.label(for: button)
        case .action(let action):
            gamepads.bind(code: press.code, to: action, onPad: press.pad)
            label = action.title
        }
        var outcome = GameCommandOutcome(command: .captureGamepadButton(target))
        do {
            let text = try GamepadMapping.fileText(for: gamepads.overrides)
            try AtomicFile.write(Array(text.utf8), to: services.paths.gamepadMappings)
            outcome.message = "\(label) is now pad button \(press.code) on \(DisplayText.sanitized(press.pad))"
        } catch {
            outcome.problem = "pad mapping not saved: \(ErrorText.line(error, file: services.paths.gamepadMappings))"
        }
        tickOutcomes.append(outcome)
    }

    /// Replaces the cheat list: handed to the core at once (the game may be paused) and saved to
    /// the game's file. Returns a one-line problem, or nil when both worked.
    private func updateCheats(_ list: CheatList) -> String? {
        do {
            try cheatStore.update(list)
        } catch {
            if cheatStore.list != list { return ErrorText.line(error) }  // refused: the file is broken
            applyCheats()
            return ErrorText.line(error)
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
            return ErrorText.line(error)
        }
        return nil
    }

    /// Hands an option to the core thread (the only caller of the core) and takes back the new
    /// values for the snapshot.
    private func setCoreOption(key: String, value: String, forThisGame: Bool, now: ContinuousClock.Instant) -> String? {
        do {
            let (accepted, states) = try thread.perform { core in
                (core.setCoreOption(value, for: key, forThisGame: forThisGame), core.coreOptions)
            }
            coreOptionStates = states
            guard accepted else { return "\(core.displayName) has no value \"\(value)\" for \(key)" }
            return nil
        } catch {
            return ErrorText.line(error)
        }
    }

    /// Sound on/off (a key and the pause menu); remembered in the config.
    func toggleMute(now: ContinuousClock.Instant) {
        services.configStore.config.audio.muted.toggle()
        let muted = config.audio.muted
        if !isPaused { audio?.setMuted(muted) }
        notify(audio == nil ? (audioStatus ?? "no sound") : (muted ? "sound off" : "sound on"), now: now)
    }

    /// Frame advance: while the pause key holds the game (and nothing else does), runs exactly
    /// one frame; the play screen shows it on its next tick.
    func advanceFrame(now: ContinuousClock.Instant) {
        guard pauseReasons == [.player] else {
            notify(isPaused ? "frame advance works while paused with \(pauseKeyName)" : "pause first (\(pauseKeyName)), then \(frameAdvanceKeyName) runs one frame", now: now)
            return
        }
        for port in 0..<2 { thread.input.set(input.buttons(port: port, now: now), port: port) }
        do { try thread.step() } catch { notify("frame advance: \(ErrorText.line(error))", now: now) }
    }

    /// The first key bound to pause and to frame advance, for messages.
    var pauseKeyName: String { input.keyMap.keys(for: .action(.pauseToggle)).first?.name ?? "the pause key" }
    var frameAdvanceKeyName: String {
        input.keyMap.keys(for: .action(.frameAdvance)).first?.name ?? "the frame-advance key"
    }

    func reset(now: ContinuousClock.Instant) {
        _ = try? thread.perform { $0.reset() }
        try? thread.clearRewind()
        notify("reset", now: now)
    }
}
