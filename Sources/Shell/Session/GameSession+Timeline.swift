import Emulation
import Foundation
import PhosphorKit

/// Rewind, run-ahead and slow-motion settings: kept in the configuration, handed to the core
/// thread when they change. UI thread only.
extension GameSession {
    var timelineSnapshot: TimelineSnapshot {
        let status = thread.currentStatus
        return TimelineSnapshot(settings: config.timeline, gameRunAhead: config.timeline.runAheadPerGame[gameKey],
                                systemRunAhead: config.timeline.runAheadPerSystem[system] ?? .off,
                                rewindSeconds: status.rewindSeconds, problem: status.timelineProblem)
    }

    /// Carries out one of the timeline commands; nil when `command` is not one of them.
    func performTimeline(_ command: GameCommand) -> String?? {
        var settings = config.timeline
        switch command {
        case .toggleRewind: settings.rewind.toggle()
        case .stepRewindGranularity(let step):
            settings.rewindGranularity = Self.step(settings.rewindGranularity, in: RewindSettings.granularities, by: step)
        case .stepRewindBuffer(let step):
            settings.rewindBufferMegabytes = Self.step(settings.rewindBufferMegabytes,
                                                       in: TimelineSettings.bufferMegabyteChoices, by: step)
        case .stepSlowMotion(let step):
            settings.slowMotion = Self.step(settings.slowMotion, in: SlowMotionSpeed.allCases, by: step)
        case .stepRunAhead(.system, let step):
            settings.runAheadPerSystem[system] = Self.step(settings.runAheadPerSystem[system] ?? .off,
                                                           in: RunAheadChoice.allCases, by: step)
        case .stepRunAhead(.game, let step):
            // The game's own choices come after "as its system" (nil).
            let choices: [RunAheadChoice?] = [nil] + RunAheadChoice.allCases
            settings.runAheadPerGame[gameKey] = Self.step(settings.runAheadPerGame[gameKey], in: choices, by: step)
        default:
            return nil
        }
        services.configStore.config.timeline = settings
        do {
            try thread.setTimeline(rewind: settings.rewindSettings,
                                   runAhead: settings.runAhead(system: system, gameKey: gameKey).mode)
            return .some(nil)
        } catch {
            return .some(ErrorText.line(error))
        }
    }

    /// The value `step` places after `value` in `choices` (wrapping); the first when `value` is
    /// not among them.
    private static func step<Value: Equatable>(_ value: Value, in choices: [Value], by step: Int) -> Value {
        guard let index = choices.firstIndex(of: value) else { return choices[0] }
        return choices[((index + step) % choices.count + choices.count) % choices.count]
    }
}
