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
            notify("\(error)", seconds: 5, now: now)
            Log.error("\(error)")
            return "\(error)"
        }
    }

    @discardableResult
    func loadState(_ slot: StateSlot, quiet: Bool = false, now: ContinuousClock.Instant) -> String? {
        do {
            let current = try thread.perform { try $0.serializeState() }
            let loaded = try states.load(slot, currentState: current)
            try thread.perform { try $0.unserializeState(loaded.bytes) }
            for warning in loaded.warnings { Log.warning(warning) }
            if !quiet { notify("loaded \(slot)", now: now) }
            return nil
        } catch {
            if !quiet || !"\(error)".contains("empty") { notify("\(error)", seconds: 5, now: now) }
            Log.error("\(error)")
            return "\(error)"
        }
    }

    func undoLoad(now: ContinuousClock.Instant) -> String? {
        do {
            let current = try thread.perform { try $0.serializeState() }
            let previous = try states.undoLastLoad(currentState: current)
            try thread.perform { try $0.unserializeState(previous) }
            notify("undid the last load", now: now)
            return nil
        } catch {
            notify("\(error)", seconds: 5, now: now)
            return "\(error)"
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
            notify("screenshot failed: \(error)", seconds: 5, now: now)
            return "screenshot failed: \(error)"
        }
    }

    func changeSlot(by delta: Int, now: ContinuousClock.Instant) {
        let next = (slot - 1 + delta + 9) % 9 + 1
        services.configStore.config.lastStateSlots[gameKey] = next
        notify("state slot \(next)", now: now)
    }
}
