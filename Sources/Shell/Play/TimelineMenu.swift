import Foundation
import PhosphorKit

/// "Rewind & Run-Ahead" in the pause menu: rewind on/off, how often it keeps a state and how
/// much memory it may use (with the seconds that buys), run-ahead for this game and for its
/// system, and slow motion's speed. Changes go out as `GameCommand`s. UI thread only.
final class TimelineMenu: ListMenu, GameObservingScreen {
    private var game: GameSnapshot

    init(snapshot: GameSnapshot) {
        game = snapshot
        super.init(title: "Rewind & Run-Ahead")
        width = 52
        help = "↑↓ choose · ←→ change · Esc back"
        reload()
    }

    func gameChanged(_ snapshot: GameSnapshot, outcome: GameCommandOutcome?) {
        game = snapshot
        if let problem = outcome?.problem { message = problem }
        reload()
    }

    override func reload() {
        let timeline = game.timeline
        let settings = timeline.settings
        let granularity = settings.rewindGranularity == 1 ? "every frame" : "every \(settings.rewindGranularity) frames"
        var list = [
            MenuItem(label: "Rewind", value: settings.rewind ? "on" : "off", activate: { $0.append(.game(.toggleRewind)) }),
            MenuItem(label: "Rewind States", value: "◂ \(granularity) ▸", enabled: settings.rewind, adjust: { step, actions in
                actions.append(.game(.stepRewindGranularity(step)))
            }),
            MenuItem(label: "Rewind Buffer", value: "◂ \(settings.rewindBufferMegabytes) MB ▸", enabled: settings.rewind,
                     adjust: { step, actions in actions.append(.game(.stepRewindBuffer(step))) }),
            MenuItem(label: "  holds now", value: "\(Int(timeline.rewindSeconds.rounded(.down))) s", enabled: false),
            MenuItem(label: "Run-Ahead (this game)",
                     value: "◂ \(timeline.gameRunAhead?.title ?? "as \(game.system.shortName)") ▸",
                     adjust: { step, actions in actions.append(.game(.stepRunAhead(.game, step))) }),
            MenuItem(label: "Run-Ahead (all \(game.system.shortName))", value: "◂ \(timeline.systemRunAhead.title) ▸",
                     adjust: { step, actions in actions.append(.game(.stepRunAhead(.system, step))) }),
            MenuItem(label: "Slow Motion", value: "◂ \(settings.slowMotion.rawValue) speed ▸", adjust: { step, actions in
                actions.append(.game(.stepSlowMotion(step)))
            }),
        ]
        if let problem = timeline.problem { list.append(MenuItem(label: problem, enabled: false)) }
        items = list
    }
}
