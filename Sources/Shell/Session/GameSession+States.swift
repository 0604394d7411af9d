import Emulation
import Foundation
import PhosphorKit

/// Save states, screenshots and the current slot. UI thread only.
extension GameSession {
    // MARK: States, screenshots, slots

    @discardableResult
    func saveState(_ slot: StateSlot, quiet: Bool = false, now: ContinuousClock.Instant) -> String? {
        do {
            let bytes = try thread.perform { try $0.serializeState() }
            try states.save(bytes, to: slot, screenshot: lastFrame)
            if !quiet { notify("saved \(slot)", now: now) }
            return nil
        } catch {
            return report(error, doing: "saving \(slot)", now: now)
        }
    }

    /// A failed state operation: the raw error (domains, codes, C calls) goes to the log, the
    /// player sees one plain line (`ErrorText.line`) on the status bar, and the same line is
    /// returned for the menu that asked.
    @discardableResult
    private func report(_ error: Error, doing what: String, notify shown: Bool = true,
                        now: ContinuousClock.Instant) -> String {
        Log.error("\(what): \(error)")
        let line = ErrorText.line(error)
        if shown { notify(line, seconds: 5, now: now) }
        return line
    }

    /// The automatic state on quit. The battery save is written in the same core-thread job, just
    /// before the state is taken, and its checksum goes into the sidecar: Continue then knows
    /// whether a later session changed the `.srm` (`ContinueCheck`). The game is paused first so
    /// no frame runs between this and the unload (which would write a newer `.srm`).
    func saveAutoState(now: ContinuousClock.Instant) {
        do {
            thread.pause()
            let (bytes, batteryFile) = try thread.perform { core -> ([UInt8], URL?) in
                core.flushBatterySave()
                return (try core.serializeState(), core.batterySaveFile)
            }
            try states.save(bytes, to: .auto, screenshot: lastFrame,
                            batterySaveChecksum: batteryFile.flatMap(ContinueCheck.checksum(of:)))
        } catch EmulationError.stateRejected where thread.currentStatus.state == .stopped {
            // The `--frames` limit ended the game between the caller's look and this job.
            Log.info("automatic state not written: the game had already stopped")
        } catch {
            Log.error("\(error)")
        }
    }

    /// Continue: the automatic state, unless the battery save is newer than it. Returns the
    /// line to show when it was skipped (a refused load says so itself, through `notify`).
    func resumeAutoState(now: ContinuousClock.Instant) -> String? {
        let batteryFile = try? thread.perform { $0.batterySaveFile }
        let summary = states.list().first { $0.slot == .auto }
        guard summary?.isOccupied == true else { return nil }
        if let reason = ContinueCheck.reasonToSkip(summary?.metadata, batterySave: batteryFile ?? nil) {
            Log.warning(reason)
            return reason
        }
        loadState(.auto, quiet: true, now: now)
        return nil
    }

    @discardableResult
    func loadState(_ slot: StateSlot, quiet: Bool = false, now: ContinuousClock.Instant) -> String? {
        do {
            let (current, size) = try thread.perform { (try $0.serializeState(), $0.stateSize) }
            let loaded = try states.load(slot, expectedSize: size, currentState: current)
            try thread.perform { try $0.unserializeState(loaded.bytes) }
            try? thread.clearRewind()  // the states before it lead somewhere else
            for warning in loaded.warnings { Log.warning(warning) }
            if !quiet { notify("loaded \(slot)", now: now) }
            return nil
        } catch {
            return report(error, doing: "loading \(slot)", notify: !quiet || !"\(error)".contains("empty"), now: now)
        }
    }

    func undoLoad(now: ContinuousClock.Instant) -> String? {
        do {
            let current = try thread.perform { try $0.serializeState() }
            let previous = try states.undoLastLoad(currentState: current)
            try thread.perform { try $0.unserializeState(previous) }
            try? thread.clearRewind()
            notify("undid the last load", now: now)
            return nil
        } catch {
            return report(error, doing: "undoing the last load", now: now)
        }
    }

    func takeScreenshot(now: ContinuousClock.Instant) -> String? {
        guard let lastFrame else {
            notify("no picture yet", now: now)
            return "no picture yet"
        }
        do {
            let file = try ScreenshotWriter.write(lastFrame, game: gameKey, folder: services.paths.screenshots)
            notify("screenshot \(file.lastPathComponent)", now: now)
            return nil
        } catch {
            let line = "screenshot failed: " + report(error, doing: "screenshot", notify: false, now: now)
            notify(line, seconds: 5, now: now)
            return line
        }
    }

    func changeSlot(by delta: Int, now: ContinuousClock.Instant) {
        let next = (slot - 1 + delta + 9) % 9 + 1
        services.configStore.config.lastStateSlots[gameKey] = next
        notify("state slot \(next)", now: now)
    }
}
